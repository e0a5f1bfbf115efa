-- remove_value.lua: remove the first occurrence of a value from a key, and
-- the key itself when that was its last value, atomically.
--
-- KEYS[1]  the keys (see add.lua)
-- KEYS[2]  the entries (see add.lua)
-- ARGV[1]  enc(key)
-- ARGV[2]  the value
--
-- Reply: 1 if the value was removed, else 0.
--
-- The key's entries are read oldest first; the first whose value (what
-- follows enc(key) and the 16 digits of seq) is ARGV[2] goes.

local enc, value = ARGV[1], ARGV[2]
local from, to = '[' .. enc, '(' .. enc .. '\255'
local skip = #enc + 16
for _, m in ipairs(redis.call('ZRANGE', KEYS[2], from, to, 'BYLEX')) do
  if #m == skip + #value and string.sub(m, skip + 1) == value then
    redis.call('ZREM', KEYS[2], m)
    if redis.call('ZLEXCOUNT', KEYS[2], from, to) == 0 then
      redis.call('ZREM', KEYS[1], enc)
    end
    return 1
  end
end
return 0
