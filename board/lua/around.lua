-- around.lua: n entries around an id, the id among them, filled from the
-- other side at the edges (around rank 1 gives ranks 1..n).
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  id
-- ARGV[2]  n, at least 1
-- ARGV[3]  '1' to return member data
-- ARGV[4]  the extras, as range.lua's
--
-- Reply: {} when the id is not on the board, else
--        {total, first, comp, dense, modified (of the last entry), member,
--        score[, data, hasdata], ...}
--        as range.lua.


-- The member of a packed board is its id: ZRANK alone finds it (nil when
-- absent or hidden). The total is counted only when asked for: a window
-- that runs past the last entry tells how many there are.
local m = ARGV[1]
if STRATEGY == 's' and WIDTH > 0 then m = buckets().get(KEYS[KM], WIDTH, m) end
local r = m and redis.call('ZRANK', KEYS[KZ], m)
if not r then return {} end
local n = tonumber(ARGV[2])
local start = math.max(r - math.floor((n - 1) / 2), 0)
local got = redis.call('ZRANGE', KEYS[KZ], start, start + n - 1, 'WITHSCORES')
local size = -1
if #got < 2 * n and start > 0 then
  size = start + #got / 2
  start = math.max(size - n, 0)
  got = redis.call('ZRANGE', KEYS[KZ], start, start + n - 1, 'WITHSCORES')
end
local total = -1
if string.find(ARGV[4], 't', 1, true) then
  total = size >= 0 and size or redis.call('ZCARD', KEYS[KZ])
end
local c, d, u = 0, 0, 0
if string.find(ARGV[4], '[cdm]') then c, d, u = ranks().first(got, start + 1, ARGV[4]) end
return emit({total, start + 1, c, d, u}, got, ARGV[3] == '1')
