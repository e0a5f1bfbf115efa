-- board: among
local STRATEGY = 'p'
local WIDTH = 10
local DENSE = true
local CAP = 100
local RESTMAX = 8589934591
local SHARED = false
local FIELDS = function() return {{mul = 8589934592, span = 1048576, min = 0, max = 1.048575e+06, hi = true}, {mul = 4294967296, span = 2, min = 0, max = 1, hi = true}, {mul = 1, span = 4294967296, min = 0, max = 4.294967295e+09, hi = false}, } end
local DESC = [[{"version":1,"radix":2,"fields":[{"name":"points","width":20,"dir":"HigherIsBetter"},{"name":"paid","width":1,"dir":"HigherIsBetter"},{"name":"time","width":32,"dir":"LowerIsBetter"}],"strategy":"PackedScore","cap":100,"denseRanks":true}]]
local KZ = 1
local KD = 4
local KM = 0
local KV = 2
local KC = 3
local KMETA = 0
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
--   local KZ = 1  local KD = 2  local KM = 0  local KV = 0  local KC = 0
--   local KMETA = 0
--
-- STRATEGY 'p' (packed) or 's' (key suffix); WIDTH the digits of the
-- key-suffix member prefix; DENSE whether the dense-rank index is kept; CAP
-- the cap (0: none); RESTMAX the largest packed value of fields 2..n;
-- SHARED whether member data is a group's shared HASH (never removed with
-- an entry);
-- FIELDS() builds the fields as a Lua table, one per field: {mul=, span=
-- (max raw + 1), min=, max=, hi= (higher is better)}, a function so that
-- only the calls that need the table build it.
--
-- KEYS, the same for every script:
--   KEYS[KZ] z  sorted set: score = stored score, member = stored member
--   KEYS[KM] m  HASH id -> member (key-suffix strategy only)
--   KEYS[KD] d  HASH id -> member data
--   KEYS[KV] v  sorted set of distinct value tuples (dense ranks only)
--   KEYS[KC] c  HASH tuple -> number of entries holding it (dense ranks only)
--   KEYS[KMETA] the meta HASH: descriptor and generation (periodic windows'
--               writes only, which keep it; 0 elsewhere)
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
  if STRATEGY == 'p' then
    local s = redis.call('ZSCORE', KEYS[KZ], id)
    if s then return id, s end
    return false
  end
  local m = redis.call('HGET', KEYS[KM], id)
  if m then return m, redis.call('ZSCORE', KEYS[KZ], m) end
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
-- fragment: ranks.lua
-- ranks.lua: ranks(), the competition and dense ranks of stored entries,
-- for the reads that return them. Uses common.lua's constants; builds its
-- closures only when called, so a read that asks for no such rank pays
-- for none:
--
--   R.comp(s, m, r)   the competition rank of member m (score s), whose
--                     0-based ordinal index is r
--   R.dense(s, m)     its dense rank, from the dense index (the board keeps
--                     DENSE); false when the index lacks its tuple
--   R.first(got, first, flags)
--                     the competition and dense ranks (0 unless flags has
--                     'c' or 'd'; dense -1 when the index lacks the tuple)
--                     of the first entry of got, a ZRANGE ... WITHSCORES
--                     reply starting at ordinal rank first; 0, 0 when got
--                     is empty

local function ranks()
  local R = {}
  -- Whether the member at index r holds the tuple of (s, m): the same
  -- score and, for key suffix, the same fields prefix.
  local function tuple_at(r, s, m)
    local got = redis.call('ZRANGE', KEYS[KZ], r, r, 'WITHSCORES')
    if tonumber(got[2]) ~= tonumber(s) then return false end
    return STRATEGY == 'p' or string.sub(got[1], 1, WIDTH) == string.sub(m, 1, WIDTH)
  end
  -- Entries holding one tuple are contiguous; the first of them is found
  -- by binary search between the first entry of the score and r.
  function R.comp(s, m, r)
    local lo = redis.call('ZCOUNT', KEYS[KZ], '-inf', '(' .. s)
    if STRATEGY == 's' then
      local hi = r
      while lo < hi do
        local mid = math.floor((lo + hi) / 2)
        if tuple_at(mid, s, m) then hi = mid else lo = mid + 1 end
      end
    end
    return lo + 1
  end
  function R.dense(s, m)
    local tk = string.format('%.17g', tonumber(s))
    if STRATEGY == 's' then tk = string.sub(m, 1, WIDTH) .. tk end
    local r = redis.call('ZRANK', KEYS[KV], tk)
    return r and r + 1
  end
  function R.first(got, first, flags)
    if #got == 0 then return 0, 0 end
    local c, d = 0, 0
    if string.find(flags, 'c', 1, true) then c = R.comp(got[2], got[1], first - 1) end
    if string.find(flags, 'd', 1, true) then d = R.dense(got[2], got[1]) or -1 end
    return c, d
  end
  return R
end
-- fragment: among.lua
-- among.lua: the entries of a set of ids (a player's friends, say), each
-- with its ranks on the whole board, from one snapshot.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]    the extra ranks: any of 'c' (competition) and 'd' (dense)
-- ARGV[2]    '1' to return member data
-- ARGV[3..]  ids, distinct
--
-- Reply: {total, then per id, in the order given: member, score, ordinal,
--        comp, dense, data, hasdata}: ordinal 0 (and member and score '')
--        for an id not on the board; comp and dense 0 when not asked for,
--        dense -1 when the dense index lacks the tuple.


local flags, withdata = ARGV[1], ARGV[2] == '1'
local wantc, wantd = string.find(flags, 'c', 1, true), string.find(flags, 'd', 1, true)
local R = (wantc or wantd) and ranks()
local out, n = {redis.call('ZCARD', KEYS[KZ])}, 1
for i = 3, #ARGV do
  local id = ARGV[i]
  local m, s = find_member(id)
  if not m then
    out[n + 1], out[n + 2], out[n + 3], out[n + 4], out[n + 5], out[n + 6], out[n + 7] = '', '', 0, 0, 0, '', 0
  else
    local r = redis.call('ZRANK', KEYS[KZ], m)
    local data = withdata and redis.call('HGET', KEYS[KD], id)
    out[n + 1], out[n + 2], out[n + 3] = m, s, r + 1
    out[n + 4] = wantc and R.comp(s, m, r) or 0
    out[n + 5] = wantd and (R.dense(s, m) or -1) or 0
    out[n + 6], out[n + 7] = data or '', data and 1 or 0
  end
  n = n + 7
end
return out
