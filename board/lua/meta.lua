-- meta.lua: read a board's descriptor and generation, and write the
-- descriptor when the board has none.
--
-- KEYS[1]  the board's meta HASH (tb:{name}:meta)
-- ARGV[1]  the descriptor to store when there is none; '' to only read
--
-- Reply: {desc, gen, state, target, tgen, defaults, expire, cursor}: the
--        HASH's fields, each false when absent. state is 'live' or
--        'migrating'; target, tgen, defaults and cursor are kept while
--        migrating; expire only by periodic windows.

if ARGV[1] ~= '' and redis.call('HSETNX', KEYS[1], 'desc', ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], 'gen', '0', 'state', 'live')
end
return redis.call('HMGET', KEYS[1], 'desc', 'gen', 'state', 'target', 'tgen', 'defaults', 'expire', 'cursor')
