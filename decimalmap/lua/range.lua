-- range.lua: the keys between two bounds with their value lists, read in
-- one snapshot.
--
-- KEYS[1]  the index
-- ARGV[1]  the prefix of list names: the list of member m is ARGV[1] .. m.
--          The lists are not in KEYS, as they are known only once the index
--          is read; they share KEYS[1]'s hash tag, so on Redis Cluster they
--          are on KEYS[1]'s slot and node.
-- ARGV[2], ARGV[3]  ZRANGE BYLEX bounds in reading order ('[' or '(' and a
--          member, or '-' / '+'): min then max, or max then min with REV
-- ARGV[4]  '1' for REV (largest key first)
-- ARGV[5]  the most keys to return; -1 for all
-- ARGV[6]  the most members to read: ARGV[5] + 1 (to learn whether more
--          follow), or -1; passed as text, so ZRANGE gets it exactly
--
-- Reply: {more, member, {values...}, member, {values...}, ...}; more is 1
--        when a further key lies in range beyond those returned, else 0.

local n = tonumber(ARGV[5])
local got
if ARGV[4] == '1' then
  got = redis.call('ZRANGE', KEYS[1], ARGV[2], ARGV[3], 'BYLEX', 'REV', 'LIMIT', 0, ARGV[6])
else
  got = redis.call('ZRANGE', KEYS[1], ARGV[2], ARGV[3], 'BYLEX', 'LIMIT', 0, ARGV[6])
end
local out, last, p = {0}, #got, ARGV[1]
if n >= 0 and last > n then
  out[1], last = 1, n
end
for i = 1, last do
  out[2 * i] = got[i]
  out[2 * i + 1] = redis.call('LRANGE', p .. got[i], 0, -1)
end
return out
