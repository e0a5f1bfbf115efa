-- board: hide
local STRATEGY = 's'
local WIDTH = 10
local DENSE = false
local CAP = 0
local RESTMAX = 8589934591
local SHARED = false
local HIDING = false
local TOPN = 0
local FIELDS = function() return {{mul = 8589934592, span = 1048576, min = 0, max = 1.7976931348623157e+308, hi = true}, {mul = 4294967296, span = 2, min = 0, max = 1, hi = true}, {mul = 1, span = 4294967296, min = 0, max = 4.294967295e+09, hi = false}, } end
local DESC = [[{"version":1,"radix":2,"fields":[{"name":"points","width":20,"dir":"HigherIsBetter"},{"name":"paid","width":1,"dir":"HigherIsBetter"},{"name":"time","width":32,"dir":"LowerIsBetter"}],"strategy":"KeySuffix","cap":0,"denseRanks":false,"lookup":"hashed-buckets"}]]
local GEN = [[1]]
local SHARD = false
local RULES = false
local BOUNDS = false
local HIST = false
local KZ = 1
local KD = 4
local KM = 2
local KV = 0
local KC = 0
local KA = 0
local KH = 0
local KT = 0
local KHIST = 0
local KMETA = 3
local TKZ = 5
local TKD = 8
local TKM = 0
local TKV = 6
local TKC = 7
local KX = 9
local T_STRATEGY = 'p'
local T_WIDTH = 9
local T_DENSE = true
local T_CAP = 100
local T_RESTMAX = 536870911
local T_SHARED = false
local T_HIDING = false
local T_TOPN = 0
local T_FIELDS = function() return {{mul = 536870912, span = 16777216, min = 0, max = 1.6777215e+07, hi = true}, {mul = 268435456, span = 2, min = 0, max = 1, hi = true}, {mul = 256, span = 1048576, min = 0, max = 1.048575e+06, hi = false}, {mul = 1, span = 256, min = 0, max = 255, hi = true}, } end
local T_FROM = {1, 2, 3, 0}
local T_DEF = {0, 0, 0, 3}
local T_MEMBERS = false
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
-- fragment: hide.lua
-- hide.lua: hide members or show them again (Options.Hiding), atomically.
-- A hidden entry moves from z to h with its score and member: every read
-- of others reads z alone, so it behaves as if the entry were absent,
-- ranks of every kind included (the dense index forgets its tuple); its
-- member data and id lookup stay.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]   'h' to hide, 's' to show
-- ARGV[2..] ids
--
-- Reply: the number of ids hidden (or shown) by this call: those already
--        so, and those not on the board, do not count.
-- Error: 'TBGEN', 'TBMISMATCH' as guard.lua's (nothing written).

local _, refused = guard(false)
if refused then return refused end
local S, n, hide = side(), 0, ARGV[1] == 'h'
for i = 2, #ARGV do
  local m, s
  if hide then m, s = find_member(ARGV[i]) else m, s = find_hidden(ARGV[i]) end
  if m then
    redis.call('ZREM', hide and KEYS[KZ] or KEYS[KH], m)
    redis.call('ZADD', hide and KEYS[KH] or KEYS[KZ], s, m)
    S.dense(s, m, hide and -1 or 1)
    n = n + 1
  end
end
if retop and n > 0 then retop() end
-- A window's keys expire: those this call made again with them.
local expire = n > 0 and redis.call('HGET', KEYS[KMETA], 'expire')
if expire then
  for i = 1, #KEYS do redis.call('PEXPIREAT', KEYS[i], expire) end
end
return n
