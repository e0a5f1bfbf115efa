-- board: setdata
local STRATEGY = 'p'
local WIDTH = 10
local DENSE = false
local CAP = 100
local RESTMAX = 8589934591
local SHARED = false
local HIDING = false
local TOPN = 0
local FIELDS = function() return {{mul = 8589934592, span = 1048576, min = 0, max = 1.048575e+06, hi = true}, {mul = 4294967296, span = 2, min = 0, max = 1, hi = true}, {mul = 1, span = 4294967296, min = 0, max = 4.294967295e+09, hi = false}, } end
local DESC = [[{"version":1,"radix":2,"fields":[{"name":"points","width":20,"dir":"HigherIsBetter"},{"name":"paid","width":1,"dir":"HigherIsBetter"},{"name":"time","width":32,"dir":"LowerIsBetter"}],"strategy":"PackedScore","cap":100,"denseRanks":false}]]
local GEN = [[0]]
local SHARD = false
local RULES = false
local BOUNDS = false
local HIST = false
local KZ = 1
local KD = 3
local KM = 0
local KV = 0
local KC = 0
local KA = 0
local KH = 0
local KT = 0
local KHIST = 0
local KMETA = 2
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
-- fragment: common.lua
-- common.lua: the helpers of the scripts that read entries. Every script
-- is the board's constants, written by the Go side, then its fragments in
-- a declared order (scripts.go), each using only the constants and the
-- fragments before it:
--
--   local STRATEGY = 'p'   local WIDTH = 0   local DENSE = false
--   local CAP = 0          local RESTMAX = 0      local SHARED = false
--   local function FIELDS() return {...} end
--   local DESC = "{...}"   the board's descriptor (JSON)
--   local GEN = "0"        the generation (as the meta HASH holds it)
--   local SHARD = false    a shard of a sharded board
--   local BOUNDS = false   Options.Bounds: {[field index] = {min =, max =}}
--   local HIDING = false   the board keeps hidden entries (KEYS[KH])
--   local TOPN = 0         Options.KeepTop: the best TOPN entries are kept
--                          in KEYS[KT] (keeptop.lua)
--   local RULES = false    a tournament's rules: {start =, stop = (Unix ms,
--                          0 for none), join =, members =, attempts = (0
--                          for no limit)}
--   local KZ = 1  local KD = 2  local KM = 0  local KV = 0  local KC = 0
--   local KMETA = 0  local KA = 0  local KH = 0  local KT = 0
--
-- STRATEGY 'p' (packed) or 's' (key suffix); WIDTH the digits of the
-- key-suffix member prefix; DENSE whether the dense-rank index is kept; CAP
-- the cap (0: none); RESTMAX the largest packed value of fields 2..n;
-- SHARED whether member data is a group's shared HASH (never removed with
-- an entry); FIELDS() builds the fields as a Lua table, one per field:
-- {mul=, span= (max raw + 1), min=, max=, hi= (higher is better)}, a
-- function so that only the calls that need the table build it.
--
-- KEYS, the same for every script:
--   KEYS[KZ] z  sorted set: score = stored score, member = stored member
--   KEYS[KM] i  the id lookup (key-suffix strategy, WIDTH > 0 only):
--               buckets of ids and prefixes (lookup.lua); WIDTH 0 keeps
--               none, its member being the id (KM = 0)
--   KEYS[KD] d  HASH id -> member data
--   KEYS[KV] v  sorted set of distinct value tuples (dense ranks only)
--   KEYS[KC] c  HASH tuple -> number of entries holding it (dense ranks only)
--   KEYS[KA]  a  HASH id -> scored attempts of each entrant (with RULES only)
--   KEYS[KH]  h  sorted set of the hidden entries, as z (with HIDING only):
--               every read of others reads z alone
--   KEYS[KT]  top  the best TOPN entries (with TOPN > 0 only; keeptop.lua)
--   KEYS[KMETA] the meta HASH: descriptor and generation (the writes read
--               it: submit.lua)
-- A board that is migrating also passes its target's keys and misfit set
-- (mirror.lua), and its writes keep the target up to date.
--
-- Storage: ascending order is best first.
--   packed: score = -(sum of raw(field) * mul), member = id
--   suffix: score = -f1 (higher is better) or f1; member = fields 2..n
--           packed, written as RESTMAX - packed in WIDTH zero-padded digits,
--           then the id.
-- Numbers never leave a script as Lua numbers: scores go out as strings (the
-- raw reply of Redis, or %.17g, exact for every double), ranks as integers.
-- Every 'local function' costs a closure on every call, so the write
-- script (submit.lua) is declared without this file: it is written out
-- there, and it builds the side-key helpers only when the board keeps
-- side keys.

-- The id stored in a member.
local function member_id(member)
  if STRATEGY == 'p' then return member end
  return string.sub(member, WIDTH + 1)
end

-- The current member of id and its score (the raw string), or false.
local function find_member(id)
  if STRATEGY == 'p' or WIDTH == 0 then -- the member is the id
    local s = redis.call('ZSCORE', KEYS[KZ], id)
    if s then return id, s end
    return false
  end
  local m = buckets().get(KEYS[KM], WIDTH, id)
  local s = m and redis.call('ZSCORE', KEYS[KZ], m)
  if s then return m, s end
  return false -- absent, or hidden
end

-- The hidden member of id (a board with HIDING) and its score, or false.
local function find_hidden(id)
  if not HIDING then return false end
  local m = id
  if STRATEGY == 's' and WIDTH > 0 then m = buckets().get(KEYS[KM], WIDTH, id) end
  local s = m and redis.call('ZSCORE', KEYS[KH], m)
  if s then return m, s end
  return false
end

-- Appends member, score and, if withdata, the member data (data, hasdata)
-- of each pair of a ZRANGE ... WITHSCORES reply to out.
local function emit(out, got, withdata)
  for i = 1, #got, 2 do
    out[#out + 1] = got[i]
    out[#out + 1] = got[i + 1]
    if withdata then
      local d = redis.call('HGET', KEYS[KD], member_id(got[i]))
      out[#out + 1] = d or ''
      out[#out + 1] = d and 1 or 0
    end
  end
  return out
end
-- fragment: nomirror.lua
-- nomirror.lua: a board that is not migrating mirrors nothing (see
-- mirror.lua).

local mirror = false
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
-- fragment: setdata.lua
-- setdata.lua: set the member data of an id that is on the board.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  id
-- ARGV[2]  data
-- ARGV[3]  expire-at in Unix ms for every key ('0': leave expiry alone)
--
-- Reply: 1 when written, 0 when the id is not on the board (nothing written).
-- Error: 'TBRULE closed <id>' outside a tournament's time (RULES), as a
--        write's (nothing written).


if closed(false) then return redis.error_reply('TBRULE closed ' .. ARGV[1]) end
if not find_member(ARGV[1]) and not find_hidden(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[KD], ARGV[1], ARGV[2])
if mirror then mirror(ARGV[1]) end
if ARGV[3] ~= '0' then
  for i = 1, #KEYS do redis.call('PEXPIREAT', KEYS[i], ARGV[3]) end
end
return 1
