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
