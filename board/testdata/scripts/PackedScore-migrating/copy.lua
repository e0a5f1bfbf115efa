-- board: copy
local STRATEGY = 'p'
local WIDTH = 10
local DENSE = false
local CAP = 0
local RESTMAX = 8589934591
local SHARED = false
local HIDING = false
local TOPN = 0
local FIELDS = function() return {{mul = 8589934592, span = 1048576, min = 0, max = 1.048575e+06, hi = true}, {mul = 4294967296, span = 2, min = 0, max = 1, hi = true}, {mul = 1, span = 4294967296, min = 0, max = 4.294967295e+09, hi = false}, } end
local DESC = [[{"version":1,"radix":2,"fields":[{"name":"points","width":20,"dir":"HigherIsBetter"},{"name":"paid","width":1,"dir":"HigherIsBetter"},{"name":"time","width":32,"dir":"LowerIsBetter"}],"strategy":"PackedScore","cap":0,"denseRanks":false}]]
local GEN = [[1]]
local SHARD = false
local RULES = false
local BOUNDS = false
local HIST = false
local KZ = 1
local KD = 3
local KM = 0
local KV = 0
local KC = 0
local KA = 10
local KH = 0
local KT = 0
local KHIST = 0
local KMETA = 2
local TKZ = 4
local TKD = 8
local TKM = 5
local TKV = 6
local TKC = 7
local KX = 9
local T_STRATEGY = 's'
local T_WIDTH = 9
local T_DENSE = true
local T_CAP = 100
local T_RESTMAX = 536870911
local T_SHARED = false
local T_HIDING = false
local T_TOPN = 0
local T_FIELDS = function() return {{mul = 536870912, span = 16777216, min = 0, max = 1.7976931348623157e+308, hi = true}, {mul = 268435456, span = 2, min = 0, max = 1, hi = true}, {mul = 256, span = 1048576, min = 0, max = 1.048575e+06, hi = false}, {mul = 1, span = 256, min = 0, max = 255, hi = true}, } end
local T_FROM = {1, 2, 3, 0}
local T_DEF = {0, 0, 0, 3}
local T_MEMBERS = true
local POSITION_DONE = [[done]]
local F_MOVED = [[moved]]
local F_TGEN = [[tgen]]
local F_PSCORE = [[pscore]]
local F_PMEMBER = [[pmember]]
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
-- fragment: mirror.lua
-- mirror.lua: mirror(id), kept by the scripts of a board that is
-- migrating. It makes the target keys hold id as the source keys hold it
-- now, re-encoded for the target: its entry (or none), its member data and
-- its place in the target's dense index, then trims the target to its cap.
-- Every write of a migrating board calls it for each id it touched, in the
-- same script, and the copy (copy.lua) calls it for every id of the
-- source, so the target is always the source re-encoded, whatever the
-- order of writes and copy steps.
--
-- Constants, besides the board's own (common.lua): the target's T_STRATEGY,
-- T_WIDTH, T_DENSE, T_CAP, T_RESTMAX and T_FIELDS, as the board's; T_FROM,
-- for each target field the index of the source field of the same name
-- (0: none); T_DEF, the value of each target field that has no source
-- field. KEYS[TKZ], KEYS[TKD], KEYS[TKM], KEYS[TKV], KEYS[TKC] are the
-- target's keys; KEYS[KX] the misfit set: the ids whose values do not fit
-- the target (left out of it, never masked). T_MEMBERS: the target's rules
-- bound its members (Rules.MaxMembers), which count every member already
-- on the board: each id mirrored is recorded in the entrants HASH
-- KEYS[KA], with no attempt scored.

-- The source values of a stored (score, member), as numbers.
local function mirror_values(score, member)
  local F, v = FIELDS(), {}
  local s = tonumber(score)
  local p, first = -s, 1
  if STRATEGY == 's' then
    v[1] = F[1].hi and -s or s
    p, first = 0, 2
    if #F > 1 then p = RESTMAX - tonumber(string.sub(member, 1, WIDTH)) end
  end
  for i = first, #F do
    local raw = math.floor(p / F[i].mul) % F[i].span
    v[i] = F[i].hi and F[i].min + raw or F[i].max - raw
  end
  return v
end

-- The target's score (a string) and member of id holding the source values
-- v, or false when a value does not fit its target field.
local function mirror_encode(id, v)
  local T, nv, p = T_FIELDS(), {}, 0
  for i, f in ipairs(T) do
    local x = T_DEF[i]
    if T_FROM[i] > 0 then x = v[T_FROM[i]] end
    if not (x >= f.min and x <= f.max) or (x ~= math.floor(x) and (T_STRATEGY == 'p' or i > 1)) then
      return false
    end
    nv[i] = x
  end
  local first = (T_STRATEGY == 's') and 2 or 1
  for i = first, #T do
    p = p + (T[i].hi and nv[i] - T[i].min or T[i].max - nv[i]) * T[i].mul
  end
  local s, m = -p, id
  if T_STRATEGY == 's' then
    s = T[1].hi and -nv[1] or nv[1]
    if #T > 1 then m = string.format('%0' .. T_WIDTH .. '.0f', T_RESTMAX - p) .. id end
  end
  if s == 0 then s = 0 end -- one zero: never -0
  return string.format('%.17g', s), m
end

-- Counts a target tuple in (delta 1) or out (-1) of the target's dense index.
local function mirror_dense(score, member, delta)
  if not T_DENSE then return end
  local tk = string.format('%.17g', tonumber(score))
  if T_STRATEGY == 's' then tk = string.sub(member, 1, T_WIDTH) .. tk end
  local n = redis.call('HINCRBY', KEYS[TKC], tk, delta)
  if n <= 0 then
    redis.call('HDEL', KEYS[TKC], tk)
    redis.call('ZREM', KEYS[TKV], tk)
  elseif n == 1 and delta > 0 then
    redis.call('ZADD', KEYS[TKV], score, tk)
  end
end

-- Removes the target entry of member (score s) and all kept beside it.
local function mirror_remove(member, s)
  local id = member
  if T_STRATEGY == 's' then
    id = string.sub(member, T_WIDTH + 1)
    if T_WIDTH > 0 then buckets().del(KEYS[TKM], T_WIDTH, id) end
  end
  redis.call('ZREM', KEYS[TKZ], member)
  if not T_SHARED then redis.call('HDEL', KEYS[TKD], id) end
  mirror_dense(s, member, -1)
end

-- Gives every key but the meta HASH (last) the source sorted set's expiry
-- (a window's), so that the keys a copy step made (the target's, the
-- entrants HASH) expire with the window.
local function mirror_expiry()
  local at = redis.call('PEXPIRETIME', KEYS[KZ])
  if at > 0 then
    for i = 1, #KEYS - 1 do redis.call('PEXPIREAT', KEYS[i], at) end
  end
end

local function mirror(id)
  -- The source first: its lookup may stop the script (lookup.lua's get),
  -- which must come before anything is written.
  local sm, ss = id, nil
  if STRATEGY == 'p' or WIDTH == 0 then ss = redis.call('ZSCORE', KEYS[KZ], id) else
    sm = buckets().get(KEYS[KM], WIDTH, id)
    if sm then ss = redis.call('ZSCORE', KEYS[KZ], sm) end
  end
  local tm, ts = id, nil
  if T_STRATEGY == 'p' or T_WIDTH == 0 then ts = redis.call('ZSCORE', KEYS[TKZ], id) else
    tm = buckets().get(KEYS[TKM], T_WIDTH, id)
    if tm then ts = redis.call('ZSCORE', KEYS[TKZ], tm) end
  end
  if ts then mirror_remove(tm, ts) end
  redis.call('SREM', KEYS[KX], id)
  if not ss then return end
  local nts, ntm = mirror_encode(id, mirror_values(ss, sm))
  if not nts then
    redis.call('SADD', KEYS[KX], id)
    return
  end
  redis.call('ZADD', KEYS[TKZ], nts, ntm)
  if T_MEMBERS then redis.call('HSETNX', KEYS[KA], id, 0) end -- an entrant of the target's rules
  if T_STRATEGY == 's' and T_WIDTH > 0 then buckets().set(KEYS[TKM], T_WIDTH, id, ntm) end
  local data = not T_SHARED and redis.call('HGET', KEYS[KD], id)
  if data then redis.call('HSET', KEYS[TKD], id, data) end
  mirror_dense(nts, ntm, 1)
  if T_CAP > 0 and redis.call('ZCARD', KEYS[TKZ]) > T_CAP then
    local gone = redis.call('ZRANGE', KEYS[TKZ], T_CAP, -1, 'WITHSCORES')
    for i = 1, #gone, 2 do mirror_remove(gone[i], gone[i + 1]) end
  end
end
-- fragment: position.lua
-- position.lua: where a (score, member) pair stands in the board's order,
-- whether or not it is stored: the counts that place one shard's entries
-- among a sharded board's. Uses common.lua's constants.
--
--   position(s, m)        how many entries come strictly before (s, m): a
--                         stored score below s, or equal with a member
--                         below m in bytes; O(log N), and O(log N * log T)
--                         for a pair not stored among T entries of score s
--   tuple_position(s, m)  how many entries hold a better tuple than the
--                         entry stored as (s, m) would: its competition
--                         rank minus one

-- a < b comparing bytes (Lua's < follows the server's locale).
local function bytes_lt(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local function position(s, m)
  local lo = redis.call('ZCOUNT', KEYS[KZ], '-inf', '(' .. s)
  if m == '' then return lo end
  local cur = redis.call('ZSCORE', KEYS[KZ], m)
  if cur and tonumber(cur) == tonumber(s) then return redis.call('ZRANK', KEYS[KZ], m) end
  local hi = lo + redis.call('ZCOUNT', KEYS[KZ], s, s)
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    local got = redis.call('ZRANGE', KEYS[KZ], mid, mid)
    if bytes_lt(got[1], m) then lo = mid + 1 else hi = mid end
  end
  return lo
end

local function tuple_position(s, m)
  if STRATEGY == 'p' then return position(s, '') end
  return position(s, string.sub(m, 1, WIDTH))
end
-- fragment: moved.lua
-- moved.lua: moved(meta) stores in the meta HASH meta, field F_MOVED, the
-- server's time in Unix milliseconds: the scripts that move a migration or
-- a resharding forward call it in the same script as the step (see
-- lifecycle.go), so that an operator sees how long ago it last moved.

local function moved(meta)
  local t = redis.call('TIME')
  redis.call('HSET', meta, F_MOVED, t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)))
end
-- fragment: copy.lua
-- copy.lua: one step of a migration's copy: mirror (mirror.lua) the next
-- entries of the source into the target, walking the source's sorted set
-- in its own order (score, then member bytes) from the position kept in
-- the meta HASH: the (score, member) of the last entry copied, as data,
-- so that a copy resumed after a server restart or a failover (whose hash
-- tables differ) goes on exactly where it stopped. An entry that stays
-- put from the first step to the last is met once; an entry written
-- meanwhile was mirrored by its write, wherever it moved; racing copies
-- share the one position, so each step goes further.
--
-- KEYS: the migrating board's keys (see keys.go), then its meta HASH last
-- ARGV[1]  the target generation, as read from the meta HASH
-- ARGV[2]  how many entries to mirror
--
-- Each step that mirrors stores the server's time in the field moved
-- (moved.lua).
--
-- Reply: {'more' or 'done', entries mirrored}.
-- Error: 'TBSTALE' when no migration to ARGV[1] is under way (nothing
--        written).

local meta = KEYS[#KEYS]
local st = redis.call('HMGET', meta, F_TGEN, F_PSCORE, F_PMEMBER)
if st[1] ~= ARGV[1] then return redis.error_reply('TBSTALE') end
if st[2] == POSITION_DONE then return {'done', 0} end
local start = 0
if st[2] then
  start = position(st[2], st[3])
  local cur = redis.call('ZSCORE', KEYS[KZ], st[3])
  if cur and tonumber(cur) == tonumber(st[2]) then start = start + 1 end
end
local n = tonumber(ARGV[2])
local got = redis.call('ZRANGE', KEYS[KZ], start, start + n - 1, 'WITHSCORES')
for i = 1, #got, 2 do
  local id = got[i]
  if STRATEGY == 's' then id = string.sub(id, WIDTH + 1) end
  mirror(id)
end
mirror_expiry()
moved(meta)
if #got < 2 * n then
  redis.call('HSET', meta, F_PSCORE, POSITION_DONE)
  redis.call('HDEL', meta, F_PMEMBER)
  return {'done', #got / 2}
end
redis.call('HSET', meta, F_PSCORE, string.format('%.17g', tonumber(got[#got])), F_PMEMBER, got[#got - 1])
return {'more', #got / 2}
