-- submit.lua: write one entry under a policy, atomically.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  id
-- ARGV[2]  policy: 'r' replace, 'b' best (keep the better whole tuple),
--          'f' per-field operators
-- ARGV[3]  'r', 'b': the new stored score, computed by the Go side;
--          'f': one operator per field: 's' set, 'a' add, 'x' max, 'n' min,
--          'k' keep. For a new id every operator sets.
-- ARGV[4]  'r', 'b': the new stored member
-- ARGV[5]  expire-at in Unix ms for every key ('0' or absent: leave expiry
--          alone; absent only when nothing follows)
-- The rest is sent only when needed (an expectation, data, or 'f'):
-- ARGV[6]  expectation: '' none; '-' the id must be absent; '=' the id must
--          still be stored as ARGV[7] (score) and ARGV[8] (member)
-- ARGV[9]  '1' to set member data to ARGV[10], '' to leave it, '0' to
--          remove it (a resharding's copy of an entry that has none)
-- ARGV[11] the key remembering the write's request id ('' for none)
-- ARGV[12] how long it remembers it, in ms
-- ARGV[13] k: reply the ids the entry passed, at most k ('0': none)
-- ARGV[14] a periodic window's span, "start-end" in Unix ms ('' for a
--          board that is not a window): a window stored with another
--          span is refused (TBSPAN), one with none stores it
-- ARGV[15..] 'f' only: one value (or increment) per field
--
-- KEYS may leave out d when ARGV[9] is not '1', ARGV[5] is '0', there is
-- no cap and the board is not migrating: nothing then touches it.
--
-- Every write reads the meta HASH, KEYS[KMETA]: it refuses a board whose
-- stored descriptor is not DESC, and one with no descriptor (a window not
-- yet written, or a board dropped since the handle read it) it makes whole
-- again: it stores DESC, the generation GEN, state 'live' and, for a
-- window, its expiry, as New or a window's first write do. A shard of a
-- sharded board (SHARD), whose descriptor lives at another hash tag, and a
-- migrating or exporting generation (mirror), which would leave its
-- target's keys behind, refuse instead (TBDROPPED).
--
-- Reply: {rank, changed, trimmed} when the stored member and score are
--        ARGV[4] and ARGV[3] as sent and no ids passed are asked, else
--        {rank, changed, trimmed, member, score[, passed ids]}: rank is the new ordinal
--        rank (1 = best), 0 when trimmed by the cap; changed and trimmed
--        are 1 or 0.
--    or  'conflict' when the expectation does not hold (nothing written).
-- Error: 'TBRANGE <field index from 1> <value>' when a value would leave
--        its field's range (nothing written).
--        'TBBOUND <field index from 1> <value>' when a per-field result
--        would leave its field's BOUNDS (nothing written).
--        'TBREQUEST <id>' when the request id was used for another id
--        (nothing written).
--        'TBRULE <rule> <id>' when a rule of RULES refuses the write:
--        closed, notjoined, full or attempts (nothing written).
--        'TBGEN', 'TBMISMATCH', 'TBDROPPED', 'TBSPAN' as guard.lua's:
--        another generation, another descriptor, none where the write
--        may not store it (see above), or a window of another span
--        (nothing written).

local id, policy = ARGV[1], ARGV[2]
-- A write made already under its request id returns that write's reply
-- (its full form) and writes nothing; the id must be the same. A request
-- id is remembered with the board's 'born' mark (meta HASH), which Clear
-- and Drop remove: one remembered before is forgotten.
local req, born = ARGV[11], false
if req == '' then req = nil end
if req then
  born = redis.call('HGET', KEYS[KMETA], 'born')
  local done = born and redis.call('GET', req)
  if done then
    local d = cmsgpack.unpack(done)
    if d[3] == born then
      if d[1] ~= id then return redis.error_reply('TBREQUEST ' .. d[1]) end
      return d[2]
    end
  end
end
local span = ARGV[14] or ''
local desc, refused, stored_span = guard(SHARD or mirror, span)
if refused then return refused end
-- A packed board's member is the id, and so is a key-suffix board's of
-- width 0 (one field): no lookup (lookup.lua).
local oldm, olds = false, false
if STRATEGY == 'p' or WIDTH == 0 then
  olds = redis.call('ZSCORE', KEYS[KZ], id)
  if olds then oldm = id end
else
  oldm = buckets().get(KEYS[KM], WIDTH, id)
  if oldm then olds = redis.call('ZSCORE', KEYS[KZ], oldm) end
end
-- A hidden entry (HIDING) is in KEYS[KH], and is written there.
local hidden = false
if HIDING and not olds then
  local hs = redis.call('ZSCORE', KEYS[KH], oldm or id)
  if hs then hidden, oldm, olds = true, oldm or id, hs end
end
local expect = ARGV[6]
if (expect == '-' and oldm) or (expect == '=' and
    (oldm ~= ARGV[8] or tonumber(olds) ~= tonumber(ARGV[7]))) then
  return 'conflict'
end

-- A tournament's rules (RULES, with the entrants HASH KEYS[KA]), checked
-- by the server's clock before anything is written: a member already on
-- the board is an entrant even without a record.
local entered
if RULES then
  if closed(false) then return redis.error_reply('TBRULE closed ' .. id) end
  entered = redis.call('HGET', KEYS[KA], id)
  if not entered and not oldm then
    if RULES.join then return redis.error_reply('TBRULE notjoined ' .. id) end
    if RULES.members > 0 and redis.call('HLEN', KEYS[KA]) >= RULES.members then
      return redis.error_reply('TBRULE full ' .. id)
    end
  end
  if RULES.attempts > 0 and tonumber(entered or '0') >= RULES.attempts then
    return redis.error_reply('TBRULE attempts ' .. id)
  end
end

local ns, nm
if policy == 'f' then
  -- Per-field operators: decode the stored values, apply, range-check and
  -- encode here, in the branch, so the other policies pay for none of it.
  local F, ops, nv, ov = FIELDS(), ARGV[3], {}, nil
  local first = (STRATEGY == 's') and 2 or 1
  if oldm then
    local score, p = tonumber(olds), -tonumber(olds)
    ov = {}
    if STRATEGY == 's' then
      ov[1] = F[1].hi and -score or score
      if #F > 1 then p = RESTMAX - tonumber(string.sub(oldm, 1, WIDTH)) end
    end
    for i = first, #F do
      local f, raw = F[i], math.floor(p / F[i].mul) % F[i].span
      ov[i] = f.hi and f.min + raw or f.max - raw
    end
  end
  for i, f in ipairs(F) do
    local x, op = tonumber(ARGV[14 + i]), string.sub(ops, i, i)
    if ov then
      if op == 'a' then x = ov[i] + x
      elseif op == 'x' then x = math.max(ov[i], x)
      elseif op == 'n' then x = math.min(ov[i], x)
      elseif op == 'k' then x = ov[i] end
    end
    if not (x >= f.min and x <= f.max) or (x ~= math.floor(x) and (STRATEGY == 'p' or i > 1)) then
      return redis.error_reply('TBRANGE ' .. i .. ' ' .. string.format('%.17g', x))
    end
    local bd = BOUNDS and BOUNDS[i]
    if bd and not (x >= bd.min and x <= bd.max) then
      return redis.error_reply('TBBOUND ' .. i .. ' ' .. string.format('%.17g', x))
    end
    nv[i] = x
  end
  local p, s = 0, nil
  nm = id
  for i = first, #F do
    local f = F[i]
    p = p + (f.hi and nv[i] - f.min or f.max - nv[i]) * f.mul
  end
  if STRATEGY == 'p' then s = -p else
    s = F[1].hi and -nv[1] or nv[1]
    if #F > 1 then nm = string.format('%0' .. WIDTH .. '.0f', RESTMAX - p) .. id end
  end
  if s == 0 then s = 0 end -- one zero: never -0
  ns = string.format('%.17g', s)
else
  ns, nm = ARGV[3], ARGV[4]
  -- Best keeps the stored entry unless the new one sorts strictly before it:
  -- a lower score, or for key suffix an equal score and a lower prefix.
  if policy == 'b' and oldm then
    local a, b = tonumber(ns), tonumber(olds)
    if a > b or (a == b and (STRATEGY == 'p' or WIDTH == 0 or
        tonumber(string.sub(nm, 1, WIDTH)) >= tonumber(string.sub(oldm, 1, WIDTH)))) then
      ns, nm = olds, oldm
    end
  end
end

-- A group write (group.lua) first runs every board's submit with CHECK, up
-- to here, so that any refusal comes before the first board is written.
if CHECK then return 'ok' end

if RULES then redis.call('HINCRBY', KEYS[KA], id, 1) end
local K, oldr = tonumber(ARGV[13] or '0'), false
if K > 0 and oldm and not hidden then oldr = redis.call('ZRANK', KEYS[KZ], oldm) end
local KW = hidden and KEYS[KH] or KEYS[KZ] -- the set the entry is in
local changed = not oldm or oldm ~= nm or tonumber(olds) ~= tonumber(ns)
-- With KeepTop: whether the entry was among the best TOPN before. A Best
-- write that changes an entry moves it up, never down, so only the others
-- need to ask (when its new place is below them, its old one may not be).
local wastop = false
if retop and changed and oldm and not hidden and policy ~= 'b' then
  wastop = (oldr or redis.call('ZRANK', KEYS[KZ], oldm)) < TOPN
end
local S
if DENSE or CAP > 0 then S = side() end
if changed then
  if oldm and oldm ~= nm then redis.call('ZREM', KW, oldm) end
  redis.call('ZADD', KW, ns, nm)
  if STRATEGY == 's' and WIDTH > 0 and oldm ~= nm then buckets().set(KEYS[KM], WIDTH, id, nm) end
  if DENSE and not hidden then
    if oldm then S.dense(olds, oldm, -1) end
    S.dense(ns, nm, 1)
  end
  -- A shard's histogram (HIST, never with HIDING): a new entry counts in
  -- its score's bucket; a changed score moves it only between buckets
  -- (side.lua's S.hist, written out here: no side() to build).
  if HIST then
    local nb, ob = bucket(ns), oldm and bucket(olds)
    if nb ~= ob then
      if ob then
        local f = string.format('%d', ob)
        if redis.call('HINCRBY', KEYS[KHIST], f, -1) == 0 then redis.call('HDEL', KEYS[KHIST], f) end
      end
      local f = string.format('%d', nb)
      if redis.call('HINCRBY', KEYS[KHIST], f, 1) == 0 then redis.call('HDEL', KEYS[KHIST], f) end
    end
  end
end
if ARGV[9] == '1' then
  redis.call('HSET', KEYS[KD], id, ARGV[10])
elseif ARGV[9] == '0' then
  redis.call('HDEL', KEYS[KD], id)
end

local trimmed = 0
if CAP > 0 and redis.call('ZCARD', KEYS[KZ]) > CAP then
  local gone = redis.call('ZRANGE', KEYS[KZ], CAP, -1, 'WITHSCORES')
  for i = 1, #gone, 2 do
    S.remove(gone[i + 1], gone[i])
    if gone[i] == nm then trimmed = 1 end
    if mirror then mirror(STRATEGY == 's' and string.sub(gone[i], WIDTH + 1) or gone[i]) end
  end
end
if mirror then mirror(id) end
if not desc then
  redis.call('HSET', KEYS[KMETA], 'desc', DESC, 'gen', GEN, 'state', 'live')
  if ARGV[5] and ARGV[5] ~= '0' then redis.call('HSET', KEYS[KMETA], 'expire', ARGV[5]) end
end
if span ~= '' and not stored_span then redis.call('HSET', KEYS[KMETA], 'span', span) end
if ARGV[5] and ARGV[5] ~= '0' then
  for i = 1, #KEYS do redis.call('PEXPIREAT', KEYS[i], ARGV[5]) end
end

local rank
if hidden then
  -- The rank it would have: the entries strictly before it, plus one.
  local lo = redis.call('ZCOUNT', KEYS[KZ], '-inf', '(' .. ns)
  local hi = lo + redis.call('ZCOUNT', KEYS[KZ], ns, ns)
  while lo < hi do
    local mid, before = math.floor((lo + hi) / 2), false
    local m = redis.call('ZRANGE', KEYS[KZ], mid, mid)[1]
    for i = 1, math.min(#m, #nm) + 1 do
      local x, y = string.byte(m, i), string.byte(nm, i)
      if x ~= y then before = (x or -1) < (y or -1); break end
    end
    if before then lo = mid + 1 else hi = mid end
  end
  rank = lo + 1
else
  rank = redis.call('ZRANK', KEYS[KZ], nm)
  rank = rank and rank + 1 or 0
end
-- The best TOPN entries' key, rewritten only when this write changed them.
if retop and changed and not hidden and ((rank > 0 and rank <= TOPN) or wastop or (trimmed == 1 and oldm)) then
  retop()
end
if K == 0 and not req and policy ~= 'f' and nm == ARGV[4] and ns == ARGV[3] then
  return {rank, changed and 1 or 0, trimmed}
end
local full = {rank, changed and 1 or 0, trimmed, nm, ns}
if K > 0 then
  -- The ids passed: those between the new place and the old one (all
  -- of them moved one down), or, for a new entry, those right behind it.
  local passed, last = {}, rank + K - 1
  if oldr then last = math.min(last, oldr) end
  if rank > 0 and last >= rank and not hidden then
    for _, m in ipairs(redis.call('ZRANGE', KEYS[KZ], rank, last)) do
      passed[#passed + 1] = STRATEGY == 's' and string.sub(m, WIDTH + 1) or m
    end
  end
  full[6] = passed
end
if req then
  if not born then
    local t = redis.call('TIME')
    born = t[1] .. '.' .. t[2]
    redis.call('HSET', KEYS[KMETA], 'born', born)
  end
  redis.call('SET', req, cmsgpack.pack({id, full, born}), 'PX', ARGV[12])
end
if K == 0 and policy ~= 'f' and nm == ARGV[4] and ns == ARGV[3] then
  return {rank, changed and 1 or 0, trimmed}
end
return full
