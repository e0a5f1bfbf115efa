-- add.lua: append values to a key, indexing the key if it is new,
-- atomically.
--
-- KEYS[1]  the keys: sorted set, every score 0, member enc(key)
-- KEYS[2]  the entries: sorted set, every score 0, one member per value,
--          enc(key) .. seq .. value, seq the value's place in its key's
--          insertion order, 16 decimal digits
-- ARGV[1]  enc(key)
-- ARGV[2]  the most values a key may hold (MaxValues)
-- ARGV[3..] the values, in order (1 to 100: MaxAddValues)
--
-- Reply: the number of values the key holds afterwards; or, when the key
-- holds c values and the new ones would take it past ARGV[2], -1 - c, and
-- nothing is written.
--
-- Both reads come before any write and fail on a key of another type, so a
-- foreign write to the map's names makes Add fail having written nothing.
-- A key's entries sort between enc(key) and enc(key) .. '\255' (encodings
-- are printable ASCII and none is a prefix of another), its newest last.

local enc = ARGV[1]
local known = redis.call('ZSCORE', KEYS[1], enc)
local count = redis.call('ZLEXCOUNT', KEYS[2], '[' .. enc, '(' .. enc .. '\255')
if count + #ARGV - 2 > tonumber(ARGV[2]) then
  return -1 - count
end
local top = redis.call('ZRANGE', KEYS[2], '(' .. enc .. '\255', '[' .. enc, 'BYLEX', 'REV', 'LIMIT', 0, 1)[1]
local seq = 0
if top then seq = tonumber(string.sub(top, #enc + 1, #enc + 16)) end
local args = {}
for i = 3, #ARGV do
  seq = seq + 1
  args[#args + 1] = '0'
  args[#args + 1] = enc .. string.format('%016d', seq) .. ARGV[i]
end
redis.call('ZADD', KEYS[2], unpack(args))
if not known then
  redis.call('ZADD', KEYS[1], 0, enc)
end
return count + #ARGV - 2
