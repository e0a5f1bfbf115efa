-- league: close
-- fragment: close.lua
-- close.lua: close a season in one partition, the first step of its roll:
-- no write of the season is accepted after it (place.lua), so its
-- cohorts' standings are final.
--
-- KEYS[1] the partition's meta HASH   KEYS[2] the season's cohorts HASH
-- ARGV[1] the season's label
--
-- Reply: the cohorts HASH (HGETALL): tier -> its last cohort n, and
--        'tier:n' -> members placed in it.

redis.call('HSET', KEYS[1], 'closed:' .. ARGV[1], 1)
return redis.call('HGETALL', KEYS[2])
