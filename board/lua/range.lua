-- range.lua: the entries at 0-based ranks start..stop, best first.
--
-- KEYS: z, m, d, v, c (see common.lua)
-- ARGV[1]  spec (see common.lua)
-- ARGV[2]  start, ARGV[3] stop (inclusive, 0-based)
-- ARGV[4]  '1' to return member data
--
-- Reply: {total, first, member, score[, data, hasdata], ...}: total is the
--        number of entries on the board, first the ordinal rank of the first
--        entry returned.

local L = parse_spec(ARGV[1])
local start = tonumber(ARGV[2])
local got = redis.call('ZRANGE', KEYS[1], start, tonumber(ARGV[3]), 'WITHSCORES')
return emit(L, {redis.call('ZCARD', KEYS[1]), start + 1}, got, ARGV[4] == '1')
