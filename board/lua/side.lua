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
