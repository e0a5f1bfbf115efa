-- board: submit
local STRATEGY = 'p'
local WIDTH = 10
local DENSE = true
local CAP = 0
local RESTMAX = 8589934591
local SHARED = false
local HIDING = false
local TOPN = 0
local FIELDS = function() return {{mul = 8589934592, span = 1048576, min = 0, max = 1.048575e+06, hi = true}, {mul = 4294967296, span = 2, min = 0, max = 1, hi = true}, {mul = 1, span = 4294967296, min = 0, max = 4.294967295e+09, hi = false}, } end
local DESC = [[{"version":1,"radix":2,"fields":[{"name":"points","width":20,"dir":"HigherIsBetter"},{"name":"paid","width":1,"dir":"HigherIsBetter"},{"name":"time","width":32,"dir":"LowerIsBetter"}],"strategy":"PackedScore","cap":0,"denseRanks":true}]]
local GEN = [[0]]
local SHARD = false
local RULES = false
local BOUNDS = false
local HIST = false
local KZ = 1
local KD = 5
local KM = 0
local KV = 2
local KC = 3
local KA = 0
local KH = 0
local KT = 0
local KHIST = 0
local KMETA = 4
-- fragment: lookup.lua
-- lookup.lua: buckets(), the id lookup of a key-suffix board stored in
-- buckets (and of a migration's key-suffix target), for every script
-- that finds, writes or removes an id's member. It builds its closures on
-- its first call only (later calls return the same table, whose caches
-- every caller shares), so the other boards pay for none of it:
--
--   L.get(key, width, id)             id's member, or false; it stops
--                                     the script (TBLOOKUP and the key)
--                                     when the board's lookup lost its
--                                     ids (see get)
--   L.set(key, width, id, m)          stores id's member m (its first width
--                                     bytes are the prefix)
--   L.del(key, width, id)             forgets id
--   L.split(key, width, fresh)        splits the next bucket (set does;
--                                     fresh: read the buckets again, for
--                                     submitlean.lua, which writes them
--                                     itself)
--
-- A board of width 0 (a key-suffix board of one field) keeps no lookup:
-- its member is the id. Its scripts find it by ZSCORE of the id, as a
-- packed board's do, and never call these; should one, get returns the id
-- and set and del do nothing, touching no key (its KEYS hold no lookup).
--
-- A write finds its id (get) and then stores it (set): set reuses what get
-- found, while the bucket is as get read it, so that the id's SHA1 and
-- record are computed once per write.
--
-- The lookup is a HASH: field 'n' the number of buckets (absent: 1), fields
-- '0' .. n-1 the buckets. A bucket holds, one after the other, a record per
-- id: "\0\3", the id's hash h (below) as 8 lowercase hex digits, the id
-- with each zero byte written "\0\1", then the member's prefix (width
-- digits); the member is prefix .. id. "\0\3" starts every record and
-- occurs nowhere else, so a plain search for "\0\3" .. hex .. id finds the
-- id's record if it ends width bytes later, where the next record or the
-- bucket ends. A board of N ids keeps a bucket per LOAD = 8 ids or so:
-- one HASH field per bucket instead of one per id. The hash in each record
-- spares a split hashing the ids it moves.
--
-- The buckets grow by linear hashing: with 2^L <= n < 2^(L+1), id goes to
-- bucket h mod 2^(L+1), or h mod 2^L when that is n or more, h being the
-- first 32 bits of the id's SHA1 (its first 8 hex digits). When a new id
-- makes its bucket longer than 2 * LOAD records of its own length, bucket
-- n - 2^L splits (the next in turn, not necessarily the long one): its
-- ids whose h mod 2^(L+1) is n move to the new bucket n. So the buckets
-- grow with the board without counting its entries. They shrink only when
-- the last id goes (the HASH is deleted).

-- LOAD: a bucket splits (see above) past 2 * LOAD records. Smaller
-- buckets cost Redis less per write (every string Lua makes is hashed
-- byte by byte, and a write reads and rebuilds its bucket) and more memory
-- (a HASH field each): 8 makes a key-suffix write about 15% fewer
-- instructions than 16 did, for about 3 bytes more per member.
local LOAD = 8
local the_buckets = false
local function buckets()
  if the_buckets then return the_buckets end
  -- Few closures (locate, store and L's): building each costs every call
  -- that uses the lookup.
  local L, nof, sof = {}, {}, {}
  -- The last id located: its key, the id, its bucket (number and field
  -- name), the bucket's string, its record's start and end (false: none)
  -- and the start of its record, "\0\3" .. hex .. escaped id. It holds
  -- while the bucket holds the same string (a split moves an id only out
  -- of the bucket it changes), until set adds a record: a split may then
  -- move that record alone out, leaving the bucket the string located.
  local lkey, lid, lb, lf, ls, lp, lstop, lpat = false, false, false, false, false, false, false, false
  -- Where id's record is (see above), setting the last id. The number of
  -- buckets of key and each bucket read (number -> string, '' when empty)
  -- are kept for the script in nof and sof.
  local function locate(key, width, id)
    local c = sof[key]
    if id == lid and key == lkey and c and c[lb] == ls then return end
    if not c then
      c = {}
      sof[key] = c
      nof[key] = tonumber(redis.call('HGET', key, 'n') or '1')
    end
    local n = nof[key]
    local _, e = math.frexp(n)
    local lo = 2 ^ (e - 1)
    local hex = string.sub(redis.sha1hex(id), 1, 8)
    local h = tonumber(hex, 16)
    local b = h % (2 * lo)
    if b >= n then b = h % lo end
    local f = string.format('%d', b)
    local s = c[b]
    if not s then
      s = redis.call('HGET', key, f) or ''
      c[b] = s
    end
    local pat, from = '\0\3' .. hex .. string.gsub(id, '%z', '\0\1'), 1
    lkey, lid, lb, lf, ls, lp, lstop, lpat = key, id, b, f, s, false, false, pat
    while true do
      local p, q = string.find(s, pat, from, true)
      if not p then return end
      local stop = q + width
      if stop == #s or string.sub(s, stop + 1, stop + 2) == '\0\3' then
        lp, lstop = p, stop
        return
      end
      from = p + 1
    end
  end
  -- Stores s as bucket b (field f) of key.
  local function store(key, b, f, s)
    sof[key][b] = s
    if s == '' then redis.call('HDEL', key, f) else redis.call('HSET', key, f, s) end
  end
  function L.get(key, width, id)
    if width == 0 then return id end
    locate(key, width, id)
    if not lp then
      -- An id not in the board's own lookup, found empty (one bucket,
      -- empty), while the board holds entries (shown or hidden), every
      -- one of which has a record while the lookup lives: the lookup lost
      -- its ids (evicted, or removed by hand). The script stops (TBLOOKUP
      -- and the key), so that a write never stores a second entry for an
      -- id whose record is gone, nor a read answers that a listed id is
      -- absent. Inline, not a function: a closure costs every call.
      if key == KEYS[KM] and nof[key] == 1 and sof[key][0] == '' and (redis.call('ZCARD', KEYS[KZ]) > 0
          or (HIDING and redis.call('ZCARD', KEYS[KH]) > 0)) then
        error({err = 'TBLOOKUP ' .. key})
      end
      return false
    end
    return string.sub(ls, lstop - width + 1, lstop) .. id
  end
  function L.set(key, width, id, m)
    if width == 0 then return end
    locate(key, width, id)
    local s, p, stop, prefix = ls, lp, lstop, string.sub(m, 1, width)
    if p then
      if string.sub(s, stop - width + 1, stop) ~= prefix then
        store(key, lb, lf, string.sub(s, 1, stop - width) .. prefix .. string.sub(s, stop + 1))
      end
      return
    end
    local rec = lpat .. prefix
    store(key, lb, lf, s .. rec)
    -- The id is located afresh next time: a split may move its record
    -- alone out of its bucket, leaving the bucket the string located.
    lid = false
    if #s >= 2 * LOAD * #rec then L.split(key, width) end
  end
  -- Splits the next bucket of key (linear hashing): when an id made its
  -- bucket longer than 2 * LOAD records of its own length. fresh: the
  -- caller wrote the buckets itself (submitlean.lua), so read them again.
  function L.split(key, width, fresh)
    if fresh or not sof[key] then
      sof[key] = {}
      nof[key] = tonumber(redis.call('HGET', key, 'n') or '1')
    end
    local n, c = nof[key], sof[key]
    local _, e = math.frexp(n)
    local lo = 2 ^ (e - 1)
    local src = n - lo
    local s = c[src] or redis.call('HGET', key, src) or ''
    local keep, move, p = {}, {}, 1
    while p <= #s do
      local nextp = string.find(s, '\0\3', p + 2, true) or #s + 1
      local r = string.sub(s, p, nextp - 1)
      if tonumber(string.sub(r, 3, 10), 16) % (2 * lo) == n then
        move[#move + 1] = r
      else
        keep[#keep + 1] = r
      end
      p = nextp
    end
    nof[key] = n + 1
    redis.call('HSET', key, 'n', n + 1)
    store(key, src, string.format('%d', src), table.concat(keep))
    c[n] = table.concat(move)
    if c[n] ~= '' then redis.call('HSET', key, n, c[n]) end
  end
  function L.del(key, width, id)
    if width == 0 then return end
    locate(key, width, id)
    if not lp then return end
    local rest = string.sub(ls, 1, lp - 1) .. string.sub(ls, lstop + 1)
    store(key, lb, lf, rest)
    if rest == '' and redis.call('HLEN', key) == 1 and redis.call('HEXISTS', key, 'n') == 1 then
      redis.call('DEL', key)
      nof[key], sof[key] = nil, nil
    end
  end
  the_buckets = L
  return L
end
-- fragment: side.lua
-- side.lua: side(), the helpers of the side keys, for the scripts that
-- keep them (submit with the dense option or a cap, remove, dense rank).
-- It builds its closures only when called:
--   S.tuple_key(score, member)    the dense-rank key of a value tuple
--   S.dense(score, member, delta) counts a tuple in or out of the dense
--                                 index (a no-op unless DENSE)
--   S.remove(score, member)       removes an entry and all kept beside it
--   S.hist(score, delta)          counts an entry in or out of the score
--                                 histogram (a no-op unless HIST)
-- Scores may be numbers or strings.
--
-- bucket(score) is the histogram's bucket of a stored score, an integer
-- that never decreases as the score grows: 0 for 0; for a score s of
-- another sign, sign(s) * (32 * (e + 1100) + floor(64 * m - 32) + 1)
-- where |s| = m * 2^e, m in [0.5, 1) (math.frexp): the sign, the power of
-- two and one of 32 equal parts of it, so that the scores of a bucket
-- differ by less than 1/32 of their magnitude. e lies in [-1073, 1024],
-- so every bucket of a positive score is at least 865. The same function
-- is written in Go for the tests (bucketOf).
local function bucket(score)
  local s = tonumber(score)
  if s == 0 then return 0 end
  local m, e = math.frexp(math.abs(s))
  local b = 32 * (e + 1100) + math.floor(64 * m - 32) + 1
  if s < 0 then return -b end
  return b
end

local function side()
  local S = {}
  -- Counts one entry of score in or out (delta 1 or -1) of the shard's
  -- histogram KEYS[KHIST], bucket -> entries; a bucket counted down to 0
  -- is removed, so an empty shard has no histogram key.
  function S.hist(score, delta)
    if not HIST then return end
    local f = string.format('%d', bucket(score))
    if redis.call('HINCRBY', KEYS[KHIST], f, delta) == 0 then
      redis.call('HDEL', KEYS[KHIST], f)
    end
  end
  function S.tuple_key(score, member)
    local s = string.format('%.17g', tonumber(score))
    if STRATEGY == 'p' then return s end
    return string.sub(member, 1, WIDTH) .. s
  end
  function S.dense(score, member, delta)
    if not DENSE then return end
    local tk = S.tuple_key(score, member)
    local n = redis.call('HINCRBY', KEYS[KC], tk, delta)
    if n <= 0 then
      redis.call('HDEL', KEYS[KC], tk)
      redis.call('ZREM', KEYS[KV], tk)
    elseif n == 1 and delta > 0 then
      redis.call('ZADD', KEYS[KV], score, tk)
    end
  end
  function S.remove(score, member)
    local id = member
    if STRATEGY == 's' then
      id = string.sub(member, WIDTH + 1)
      if WIDTH > 0 then buckets().del(KEYS[KM], WIDTH, id) end
    end
    redis.call('ZREM', KEYS[KZ], member)
    if not SHARED then redis.call('HDEL', KEYS[KD], id) end
    S.dense(score, member, -1)
    S.hist(score, -1)
  end
  -- Removes a hidden entry (HIDING): no dense index counts it.
  function S.remove_hidden(member)
    local id = member
    if STRATEGY == 's' then
      id = string.sub(member, WIDTH + 1)
      if WIDTH > 0 then buckets().del(KEYS[KM], WIDTH, id) end
    end
    redis.call('ZREM', KEYS[KH], member)
    if not SHARED then redis.call('HDEL', KEYS[KD], id) end
  end
  return S
end
-- fragment: keeptop.lua
-- keeptop.lua: retop(), the writes' upkeep of the best entries of a board
-- with KeepTop (TOPN > 0), kept in KEYS[KT] so that handles with CacheTop
-- serve them from client memory (cache.go): a string holding, for each
-- of the best TOPN entries, best first, "<length of member>:<member>
-- <score>\n" (the score as ZRANGE ... WITHSCORES gives it). An empty
-- board has no such key. The key expires with the sorted set.
--
-- A write calls retop() when it changed the best TOPN entries (submit.lua
-- knows from the ranks before and after; the rarer writes, whenever they
-- changed the board), so that a busy board rewrites the key, and tells
-- the clients that cache it, only when its best entries change. A
-- function only when TOPN > 0: the other boards build no closure.

local retop = TOPN > 0 and function()
  local got = redis.call('ZRANGE', KEYS[KZ], 0, TOPN - 1, 'WITHSCORES')
  if #got == 0 then
    redis.call('DEL', KEYS[KT])
    return got
  end
  local parts = {}
  for i = 1, #got, 2 do
    parts[#parts + 1] = #got[i] .. ':' .. got[i] .. ' ' .. got[i + 1] .. '\n'
  end
  redis.call('SET', KEYS[KT], table.concat(parts))
  local ttl = redis.call('PTTL', KEYS[KZ])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[KT], ttl) end
  return got
end
-- fragment: nomirror.lua
-- nomirror.lua: a board that is not migrating mirrors nothing (see
-- mirror.lua).

local mirror = false
-- fragment: nocheck.lua
-- nocheck.lua: a submit of one board runs to the end (see group.lua for
-- the group write, which runs each board's submit twice: checking, then
-- writing).

local CHECK = false
-- fragment: guard.lua
-- guard.lua: guard(dropped, span), the check that submit, submitlean,
-- join and hide begin with, before they write anything. It reads the
-- board's descriptor, generation and window span (one HMGET of the meta
-- HASH) and returns the stored descriptor (false for a board without one)
-- and the stored span (false for none), or nil and the error reply the
-- script returns:
--   'TBGEN'      the board is in another generation than the handle's
--                (GEN): dropped and made again by New, in generation 0,
--                since the handle read it. The handle reads it again,
--                writing nothing to keys nothing reads.
--   'TBMISMATCH' the stored descriptor is not the handle's (DESC).
--   'TBDROPPED'  the board has no descriptor and dropped is true: a
--                write that may not make the board again (a shard's, a
--                mirrored one).
--   'TBSPAN <stored span>'  a periodic window whose stored span (its
--                start and end, Unix ms, "start-end") is not span, the
--                handle's: two periods (another zone or alignment) that
--                give one label to different spans of time.
-- span is nil or '' for a board that is not a window (no check).
local function guard(dropped, span)
  local stored = redis.call('HMGET', KEYS[KMETA], 'desc', 'gen', 'span')
  local desc = stored[1]
  if desc and (stored[2] or '0') ~= GEN then return nil, redis.error_reply('TBGEN') end
  if desc and desc ~= DESC then return nil, redis.error_reply('TBMISMATCH') end
  if not desc and dropped then return nil, redis.error_reply('TBDROPPED') end
  if desc and span and span ~= '' and stored[3] and stored[3] ~= span then
    return nil, redis.error_reply('TBSPAN ' .. stored[3])
  end
  return desc, nil, stored[3]
end
-- fragment: rules.lua
-- rules.lua: closed(joining), whether a tournament's time (RULES) refuses
-- a write now, by the server's clock: before RULES.start (unless joining:
-- a Join is taken before the start) or at or after RULES.stop. Every
-- script that writes for a member calls it before it writes anything.
local function closed(joining)
  if not RULES or ((joining or RULES.start == 0) and RULES.stop == 0) then return false end
  local t = redis.call('TIME')
  local now = t[1] * 1000 + math.floor(t[2] / 1000)
  return (not joining and now < RULES.start) or (RULES.stop > 0 and now >= RULES.stop)
end
-- fragment: submit.lua
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
