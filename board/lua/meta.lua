-- meta.lua: read a board's descriptor and generation, and write the
-- descriptor when the board has none.
--
-- KEYS[1]  the board's meta HASH (tb:{name}:meta)
-- KEYS[2]  generation 0's sorted set (tb:{name}:z)
-- ARGV[1]  the descriptor to store when there is none and KEYS[2] does
--          not exist (entries with no descriptor are not a board: they
--          get none); '' to only read
--
-- Reply: {desc, gen, state, target, tgen, defaults, expire, cursor, span}: the
--        HASH's fields, each false when absent. state is 'live',
--        'migrating', 'resharding' (a sharded board) or a shard's export
--        state; target, tgen and defaults are kept while migrating or
--        resharding; cursor is a shard's copy position while it exports
--        (a Scan cursor: the score and member of the last entry copied);
--        expire and span (the window's start and end) only by periodic
--        windows.

local desc = ARGV[1]
if desc ~= '' and redis.call('EXISTS', KEYS[2]) == 0 and redis.call('HSETNX', KEYS[1], F_DESC, desc) == 1 then
  redis.call('HSET', KEYS[1], F_GEN, '0', F_STATE, PHASE_LIVE)
end
return redis.call('HMGET', KEYS[1], F_DESC, F_GEN, F_STATE, F_TARGET, F_TGEN, F_DEFAULTS, F_EXPIRE, F_CURSOR, F_SPAN)
