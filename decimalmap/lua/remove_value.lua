-- remove_value.lua: remove the first occurrence of a value from a key's
-- list, and the key from the index when its list becomes empty, atomically.
--
-- KEYS[1]  the index
-- KEYS[2]  the key's list
-- ARGV[1]  the encoded key
-- ARGV[2]  the value
--
-- Reply: 1 if the value was removed, else 0.

local n = redis.call('LREM', KEYS[2], 1, ARGV[2])
if n > 0 and redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return n
