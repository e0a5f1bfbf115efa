-- range.lua: the entries at 0-based ranks start..stop, best first.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  start, ARGV[2] stop (inclusive, 0-based)
-- ARGV[3]  '1' to return member data
-- ARGV[4]  the extras: any of 'c' (competition) and 'd' (dense) of the
--          first entry, 'm' (modified competition) of the last, 't' the
--          total; '' for none
--
-- Reply: {total, first, comp, dense, modified (of the last entry), member,
--        score[, data, hasdata], ...}:
--        total is the number of entries on the board (-1 when not asked
--        for), first the ordinal
--        rank of the first entry returned, comp and dense its competition
--        and dense ranks, modified the last entry's modified competition
--        rank (0 when not asked for, or no entry; dense -1 when the dense
--        index lacks its tuple). The ranks of the others follow
--        from the first's and the tuples (the Go side).


local start = tonumber(ARGV[1])
local got = redis.call('ZRANGE', KEYS[KZ], start, tonumber(ARGV[2]), 'WITHSCORES')
local c, d, u = 0, 0, 0
if string.find(ARGV[4], '[cdm]') then c, d, u = ranks().first(got, start + 1, ARGV[4]) end
local total = string.find(ARGV[4], 't', 1, true) and redis.call('ZCARD', KEYS[KZ]) or -1
return emit({total, start + 1, c, d, u}, got, ARGV[3] == '1')
