-- common.lua: what every board script starts with. The Go side writes the
-- board's constants, then this file, then the operation's file:
--
--   local STRATEGY, WIDTH, DENSE, CAP, RESTMAX = 'p', 0, false, 0, 0
--   local KZ, KD, KM, KV, KC = 1, 2, 0, 0, 0
--   local function FIELDS() return {{mul=, span=, min=, max=, hi=}, ...} end
--
-- STRATEGY 'p' (packed) or 's' (key suffix); WIDTH the digits of the
-- key-suffix member prefix; DENSE whether the dense-rank index is kept; CAP
-- the cap (0: none); RESTMAX the largest packed value of fields 2..n;
-- FIELDS one table per field (multiplier, span = max raw + 1, value range,
-- hi = higher is better), built only by the scripts that need it.
--
-- KEYS, the same for every script:
--   KEYS[KZ] z  sorted set: score = stored score, member = stored member
--   KEYS[KM] m  HASH id -> member (key-suffix strategy only)
--   KEYS[KD] d  HASH id -> member data
--   KEYS[KV] v  sorted set of distinct value tuples (dense ranks only)
--   KEYS[KC] c  HASH tuple -> number of entries holding it (dense ranks only)
--
-- Storage: ascending order is best first.
--   packed: score = -(sum of raw(field) * mul), member = id
--   suffix: score = -f1 (higher is better) or f1; member = fields 2..n
--           packed, written as RESTMAX - packed in WIDTH zero-padded digits,
--           then the id.
-- Numbers never leave a script as Lua numbers: scores go out as strings (the
-- raw reply of Redis, or %.17g, exact for every double), ranks as integers.
-- Helpers only some paths need are built by functions (side, codec) so the
-- common path creates no closures it does not use.

local function fmt(n) return string.format('%.17g', n) end

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

-- side() returns the helpers that keep the side keys: dense(score, member,
-- delta) counts a tuple in or out of the dense-rank index; remove(score,
-- member) removes an entry and all kept beside it. Scores may be strings.
local function side()
  local S = {}
  function S.tuple_key(score, member)
    if STRATEGY == 'p' then return fmt(tonumber(score)) end
    return string.sub(member, 1, WIDTH) .. fmt(tonumber(score))
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
    local id = member_id(member)
    redis.call('ZREM', KEYS[KZ], member)
    if STRATEGY == 's' then redis.call('HDEL', KEYS[KM], id) end
    redis.call('HDEL', KEYS[KD], id)
    S.dense(score, member, -1)
  end
  return S
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
