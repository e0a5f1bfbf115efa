-- delete.lua: remove a key and its list, atomically.
--
-- KEYS[1]  the index
-- KEYS[2]  the key's list
-- ARGV[1]  the encoded key
--
-- Reply: 1 if the key was in the map, else 0.

redis.call('UNLINK', KEYS[2])
return redis.call('ZREM', KEYS[1], ARGV[1])
