-- side.lua: side(), the helpers of the side keys, for the scripts that
-- keep them (submit with the dense option or a cap, remove, dense rank).
-- It builds its closures only when called:
--   S.tuple_key(score, member)    the dense-rank key of a value tuple
--   S.dense(score, member, delta) counts a tuple in or out of the dense
--                                 index (a no-op unless DENSE)
--   S.remove(score, member)       removes an entry and all kept beside it
-- Scores may be numbers or strings.

local function side()
  local S = {}
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
