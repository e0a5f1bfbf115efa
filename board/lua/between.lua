-- between.lua: the entries whose stored score lies in [lo, hi] (the Go side
-- turns a range of the first field into stored-score bounds), best first.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  lo, ARGV[2] hi: stored-score bounds, inclusive, %.17g strings
-- ARGV[3]  offset, ARGV[4] count
-- ARGV[5]  '1' to return member data
-- ARGV[6]  the extras, as range.lua's
--
-- Reply: {total, first, comp, dense, modified (of the last entry), member,
--        score[, data, hasdata], ...}
--        as range.lua.


local off = tonumber(ARGV[3])
local before = redis.call('ZCOUNT', KEYS[KZ], '-inf', '(' .. ARGV[1])
local got = redis.call('ZRANGE', KEYS[KZ], ARGV[1], ARGV[2], 'BYSCORE', 'LIMIT', off, tonumber(ARGV[4]), 'WITHSCORES')
local c, d, u = 0, 0, 0
if string.find(ARGV[6], '[cdm]') then c, d, u = ranks().first(got, before + off + 1, ARGV[6]) end
local total = string.find(ARGV[6], 't', 1, true) and redis.call('ZCARD', KEYS[KZ]) or -1
return emit({total, before + off + 1, c, d, u}, got, ARGV[5] == '1')
