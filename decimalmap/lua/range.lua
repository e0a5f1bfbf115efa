-- range.lua: the keys between two bounds with their values, read in one
-- snapshot.
--
-- KEYS[1]  the keys (see add.lua)
-- KEYS[2]  the entries (see add.lua)
-- ARGV[1], ARGV[2]  ZRANGE BYLEX bounds on the keys in reading order ('['
--          or '(' and enc(key), or '-' / '+'): min then max, or max then
--          min with REV
-- ARGV[3]  '1' for REV (largest key first)
-- ARGV[4]  the most keys to return; -1 for all
-- ARGV[5]  the most keys to read: ARGV[4] + 1 (to learn whether more
--          follow), or -1; passed as text, so ZRANGE gets it exactly
--
-- Reply: {more, keys, entries}; more is 1 when a further key lies in range
-- beyond those returned, else 0; keys is how many are returned; entries
-- are the members of the entries set of those keys, ascending (key, then
-- insertion order), whatever the direction: one ZRANGE from the smallest
-- key's first entry to the largest key's last.

local n = tonumber(ARGV[4])
local got
if ARGV[3] == '1' then
  got = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2], 'BYLEX', 'REV', 'LIMIT', 0, ARGV[5])
else
  got = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2], 'BYLEX', 'LIMIT', 0, ARGV[5])
end
local more, last = 0, #got
if n >= 0 and last > n then
  more, last = 1, n
end
if last == 0 then
  return {more, 0, {}}
end
local lo, hi = got[1], got[last]
if ARGV[3] == '1' then
  lo, hi = hi, lo
end
return {more, last, redis.call('ZRANGE', KEYS[2], '[' .. lo, '(' .. hi .. '\255', 'BYLEX')}
