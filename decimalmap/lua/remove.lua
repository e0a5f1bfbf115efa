-- remove.lua: remove keys, each with all its values, atomically.
--
-- KEYS[1]     the keys (see add.lua)
-- KEYS[2]     the entries (see add.lua)
-- ARGV[1]     the most values one call removes (MaxCallValues)
-- ARGV[2..]   the encoded keys (at most 1000, for unpack)
--
-- Reply: the number of keys that were in the map. A key named twice (two
-- spellings of one number) counts once: ZREM counts the members it
-- removed. When the keys hold more than ARGV[1] values in all, -1 - that
-- number, and nothing is removed.
--
-- The counts come first, and a ZLEXCOUNT on a key of another type fails
-- before anything is written.

local total, seen = 0, {}
for i = 2, #ARGV do
  if not seen[ARGV[i]] then
    seen[ARGV[i]] = true
    total = total + redis.call('ZLEXCOUNT', KEYS[2], '[' .. ARGV[i], '(' .. ARGV[i] .. '\255')
  end
end
if total > tonumber(ARGV[1]) then
  return -1 - total
end
local n = redis.call('ZREM', KEYS[1], unpack(ARGV, 2))
for i = 2, #ARGV do
  redis.call('ZREMRANGEBYLEX', KEYS[2], '[' .. ARGV[i], '(' .. ARGV[i] .. '\255')
end
return n
