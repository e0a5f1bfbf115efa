-- drop.lua: remove the smallest keys of the map with their lists,
-- atomically; Drop calls it until the map is empty.
--
-- KEYS[1]  the index
-- ARGV[1]  the prefix of list names (see range.lua)
-- ARGV[2]  the most keys to remove (at most 1000, for unpack)
--
-- Reply: the number of keys left in the map.

local got = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
for i = 1, #got do
  redis.call('UNLINK', ARGV[1] .. got[i])
end
if #got > 0 then
  redis.call('ZREM', KEYS[1], unpack(got))
end
return redis.call('ZCARD', KEYS[1])
