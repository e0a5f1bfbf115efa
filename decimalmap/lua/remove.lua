-- remove.lua: remove keys, each with its list, atomically.
--
-- KEYS[1]     the index
-- KEYS[2..]   the keys' lists, one per key (at most 1000, for unpack)
-- ARGV[1..]   the encoded keys, in the order of KEYS[2..]
--
-- Reply: the number of keys that were in the map. A key named twice (two
-- spellings of one number) counts once: ZREM counts the members it removed.
--
-- The index goes first: a ZREM on a key of another type fails before
-- anything is written.

local n = redis.call('ZREM', KEYS[1], unpack(ARGV))
for i = 2, #KEYS do
  redis.call('UNLINK', KEYS[i])
end
return n
