-- between.lua: the entries whose stored score lies in [lo, hi] (the Go side
-- turns a range of the first field into stored-score bounds), best first.
--
-- KEYS: z, m, d, v, c (see common.lua)
-- ARGV[1]  spec (see common.lua)
-- ARGV[2]  lo, ARGV[3] hi: stored-score bounds, inclusive, %.17g strings
-- ARGV[4]  offset, ARGV[5] count
-- ARGV[6]  '1' to return member data
--
-- Reply: {total, first, member, score[, data, hasdata], ...} as range.lua.

local L = parse_spec(ARGV[1])
local off = tonumber(ARGV[4])
local before = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. ARGV[2])
local got = redis.call('ZRANGE', KEYS[1], ARGV[2], ARGV[3], 'BYSCORE', 'LIMIT', off, tonumber(ARGV[5]), 'WITHSCORES')
return emit(L, {redis.call('ZCARD', KEYS[1]), before + off + 1}, got, ARGV[6] == '1')
