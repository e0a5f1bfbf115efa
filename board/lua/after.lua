-- after.lua: keyset paging. The n entries that come strictly after the
-- position (score, member), best first, whether or not that member is
-- still stored there.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  cursor score, ARGV[2] cursor member ('' with score '' = start)
-- ARGV[3]  n, at least 1
-- ARGV[4]  '1' to return member data
-- ARGV[5]  the extras, as range.lua's
--
-- Reply: {total, first, comp, dense, modified (of the last entry), member,
--        score[, data, hasdata], ...}
--        as range.lua;
--        at most n + 1 entries (the extra one tells the caller there is more).


-- a < b comparing bytes (Lua's < follows the server's locale).
local function bytes_lt(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local cs, cm = ARGV[1], ARGV[2]
local start = 0
if cs ~= '' then
  local s = redis.call('ZSCORE', KEYS[KZ], cm)
  if s and tonumber(s) == tonumber(cs) then
    start = redis.call('ZRANK', KEYS[KZ], cm) + 1
  else
    -- Binary search the entries of the cursor's score for the first member
    -- above the cursor's, comparing bytes.
    local lo = redis.call('ZCOUNT', KEYS[KZ], '-inf', '(' .. cs)
    local hi = lo + redis.call('ZCOUNT', KEYS[KZ], cs, cs)
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      local got = redis.call('ZRANGE', KEYS[KZ], mid, mid)
      if bytes_lt(cm, got[1]) then hi = mid else lo = mid + 1 end
    end
    start = lo
  end
end
local n = tonumber(ARGV[3])
local got = redis.call('ZRANGE', KEYS[KZ], start, start + n, 'WITHSCORES')
local c, d, u = 0, 0, 0
if string.find(ARGV[5], '[cdm]') then c, d, u = ranks().first(got, start + 1, ARGV[5]) end
local total = string.find(ARGV[5], 't', 1, true) and redis.call('ZCARD', KEYS[KZ]) or -1
return emit({total, start + 1, c, d, u}, got, ARGV[4] == '1')
