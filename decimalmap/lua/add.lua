-- add.lua: append values to a key's list and index the key, atomically.
--
-- KEYS[1]  the index: sorted set, every score 0, members the encoded keys
-- KEYS[2]  the key's list
-- ARGV[1]  the encoded key (the index member)
-- ARGV[2..] the values, in order (at least one)
--
-- Reply: the number of values the key holds afterwards.
--
-- The list is written first: RPUSH on a key of another type fails before
-- anything is written. Should the ZADD fail (an index of another type), the
-- values just pushed are trimmed off again, so the list never outlives its
-- index entry. unpack takes at most 1000 values at a time (Lua's C stack).

local n
for i = 2, #ARGV, 1000 do
  n = redis.call('RPUSH', KEYS[2], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
local ok = redis.pcall('ZADD', KEYS[1], 0, ARGV[1])
if type(ok) == 'table' and ok.err then
  redis.call('LTRIM', KEYS[2], 0, -#ARGV)
  return ok
end
return n
