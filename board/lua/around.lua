-- around.lua: n entries around an id, the id among them, filled from the
-- other side at the edges (around rank 1 gives ranks 1..n).
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  id
-- ARGV[2]  n, at least 1
-- ARGV[3]  '1' to return member data
-- ARGV[4]  the extra ranks, as range.lua's
--
-- Reply: {} when the id is not on the board, else
--        {total, first, comp, dense, modified (of the last entry), member,
--        score[, data, hasdata], ...}
--        as range.lua.


local m = find_member(ARGV[1])
if not m then return {} end
local n = tonumber(ARGV[2])
local r = redis.call('ZRANK', KEYS[KZ], m)
local total = redis.call('ZCARD', KEYS[KZ])
local start = r - math.floor((n - 1) / 2)
if start + n > total then start = total - n end
if start < 0 then start = 0 end
local got = redis.call('ZRANGE', KEYS[KZ], start, start + n - 1, 'WITHSCORES')
local c, d, u = 0, 0, 0
if ARGV[4] ~= '' then c, d, u = ranks().first(got, start + 1, ARGV[4]) end
return emit({total, start + 1, c, d, u}, got, ARGV[3] == '1')
