-- remove.lua: remove keys, each with all its values, atomically.
--
-- KEYS[1]     the keys (see add.lua)
-- KEYS[2]     the entries (see add.lua)
-- ARGV[1..]   the encoded keys (at most 1000, for unpack)
--
-- Reply: the number of keys that were in the map. A key named twice (two
-- spellings of one number) counts once: ZREM counts the members it removed.
--
-- The keys go first: a ZREM on a key of another type fails before
-- anything is written.

local n = redis.call('ZREM', KEYS[1], unpack(ARGV))
for i = 1, #ARGV do
  redis.call('ZREMRANGEBYLEX', KEYS[2], '[' .. ARGV[i], '(' .. ARGV[i] .. '\255')
end
return n
