-- board: get
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
--   L.get(key, width, id)             id's member, or false
--   L.set(key, width, id, m)          stores id's member m (its first width
--                                     bytes are the prefix)
--   L.del(key, width, id)             forgets id
--
-- The lookup is a HASH: field 'n' the number of buckets (absent: 1), fields
-- '0' .. n-1 the buckets. A bucket holds, one after the other, a record per
-- id: "\0\3", the id with each zero byte written "\0\1", then the member's
-- prefix (width digits); the member is prefix .. id. "\0\3" starts every
-- record and occurs nowhere else, so a plain search for "\0\3" .. id
-- finds the id's record if it ends width bytes later, where the next
-- record or the bucket ends. A board of N ids keeps a bucket per LOAD ids
-- or so: one HASH field per bucket instead of one per id.
--
-- The buckets grow by linear hashing: with 2^L <= n < 2^(L+1), id goes to
-- bucket h mod 2^(L+1), or h mod 2^L when that is n or more, h being the
-- first 32 bits of the id's SHA1. When a new id makes its bucket longer
-- than 2 * LOAD records of its own length, bucket n - 2^L splits (the
-- next in turn, not necessarily the long one): its ids whose h mod
-- 2^(L+1) is n move to the new bucket n. So the buckets grow with the
-- board without counting its entries. They shrink only when the last id
-- goes (the HASH is deleted).

local the_buckets = false
local function buckets()
  if the_buckets then return the_buckets end
  local LOAD = 16
  local L, nof, sof = {}, {}, {}
  -- The number of buckets of key (cached for the script).
  -- The number of buckets of key and its cache of buckets (bucket number
  -- -> string, '' when empty), for the script. Few closures: each costs
  -- every call that builds the lookup.
  local function state(key)
    local c = sof[key]
    if not c then
      c = {}
      sof[key] = c
      nof[key] = tonumber(redis.call('HGET', key, 'n') or '1')
    end
    return nof[key], c
  end
  -- Where id's record is: bucket number, bucket string, the record's start
  -- and end (its prefix ends it, width bytes), or no start and end.
  local function locate(key, width, id)
    local n, c = state(key)
    local _, e = math.frexp(n)
    local lo = 2 ^ (e - 1)
    local h = tonumber(string.sub(redis.sha1hex(id), 1, 8), 16)
    local b = h % (2 * lo)
    if b >= n then b = h % lo end
    local s = c[b]
    if not s then
      s = redis.call('HGET', key, b) or ''
      c[b] = s
    end
    local pat, from = '\0\3' .. string.gsub(id, '%z', '\0\1'), 1
    while true do
      local p, q = string.find(s, pat, from, true)
      if not p then return b, s end
      local stop = q + width
      if stop == #s or string.sub(s, stop + 1, stop + 2) == '\0\3' then return b, s, p, stop end
      from = p + 1
    end
  end
  local function store(key, b, s)
    sof[key][b] = s
    if s == '' then redis.call('HDEL', key, b) else redis.call('HSET', key, b, s) end
  end
  -- Splits the next bucket of key (linear hashing).
  local function split(key, width)
    local n, c = state(key)
    local _, e = math.frexp(n)
    local lo = 2 ^ (e - 1)
    local src = n - lo
    local s = c[src] or redis.call('HGET', key, src) or ''
    local keep, move, p = {}, {}, 1
    while p <= #s do
      local nextp = string.find(s, '\0\3', p + 2, true) or #s + 1
      local rec = string.sub(s, p, nextp - 1)
      local id = string.gsub(string.sub(rec, 3, #rec - width), '%z\1', '\0')
      if tonumber(string.sub(redis.sha1hex(id), 1, 8), 16) % (2 * lo) == n then
        move[#move + 1] = rec
      else
        keep[#keep + 1] = rec
      end
      p = nextp
    end
    nof[key] = n + 1
    redis.call('HSET', key, 'n', n + 1)
    store(key, src, table.concat(keep))
    c[n] = table.concat(move)
    if c[n] ~= '' then redis.call('HSET', key, n, c[n]) end
  end
  function L.get(key, width, id)
    local _, s, p, stop = locate(key, width, id)
    if not p then return false end
    return string.sub(s, stop - width + 1, stop) .. id
  end
  function L.set(key, width, id, m)
    local b, s, p, stop = locate(key, width, id)
    local prefix = string.sub(m, 1, width)
    if p then
      store(key, b, string.sub(s, 1, stop - width) .. prefix .. string.sub(s, stop + 1))
      return
    end
    local rec = '\0\3' .. string.gsub(id, '%z', '\0\1') .. prefix
    store(key, b, s .. rec)
    if #s >= 2 * LOAD * #rec then split(key, width) end
  end
  function L.del(key, width, id)
    local b, s, p, stop = locate(key, width, id)
    if not p then return end
    local rest = string.sub(s, 1, p - 1) .. string.sub(s, stop + 1)
    store(key, b, rest)
    if rest == '' and redis.call('HLEN', key) == 1 and redis.call('HEXISTS', key, 'n') == 1 then
      redis.call('DEL', key)
      nof[key], sof[key] = nil, nil
    end
  end
  the_buckets = L
  return L
end
-- fragment: get.lua
-- get.lua: one id's score and ordinal rank, from one snapshot: the lean
-- form of rank.lua for a read that asks for nothing more (Get without
-- extras, the ordinal Rank of a key-suffix board).
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  id
--
-- Reply: {} when the id is not on the board (or hidden), else {member,
--        score, ordinal}.

local m = ARGV[1]
if STRATEGY == 's' and WIDTH > 0 then m = buckets().get(KEYS[KM], WIDTH, m) end
local r = m and redis.call('ZRANK', KEYS[KZ], m)
if not r then return {} end
return {m, redis.call('ZSCORE', KEYS[KZ], m), r + 1}
