-- range.lua: the entries at 0-based ranks start..stop, best first.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  start, ARGV[2] stop (inclusive, 0-based)
-- ARGV[3]  '1' to return member data
--
-- Reply: {total, first, member, score[, data, hasdata], ...}: total is the
--        number of entries on the board, first the ordinal rank of the first
--        entry returned.


local start = tonumber(ARGV[1])
local got = redis.call('ZRANGE', KEYS[KZ], start, tonumber(ARGV[2]), 'WITHSCORES')
return emit({redis.call('ZCARD', KEYS[KZ]), start + 1}, got, ARGV[3] == '1')
