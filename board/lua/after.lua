-- after.lua: keyset paging. The n entries that come strictly after the
-- position (score, member), best first, whether or not that member is
-- still stored there.
--
-- KEYS: z, m, d, v, c (see common.lua)
-- ARGV[1]  cursor score, ARGV[2] cursor member ('' with score '' = start)
-- ARGV[3]  n, at least 1
-- ARGV[4]  '1' to return member data
--
-- Reply: {total, first, member, score[, data, hasdata], ...} as range.lua;
--        at most n + 1 entries (the extra one tells the caller there is more).

local cs, cm = ARGV[1], ARGV[2]
local start = 0
if cs ~= '' then
  local s = redis.call('ZSCORE', KEYS[1], cm)
  if s and tonumber(s) == tonumber(cs) then
    start = redis.call('ZRANK', KEYS[1], cm) + 1
  else
    -- Binary search the entries of the cursor's score for the first member
    -- above the cursor's, comparing bytes.
    local lo = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. cs)
    local hi = lo + redis.call('ZCOUNT', KEYS[1], cs, cs)
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      local got = redis.call('ZRANGE', KEYS[1], mid, mid)
      if bytes_lt(cm, got[1]) then hi = mid else lo = mid + 1 end
    end
    start = lo
  end
end
local n = tonumber(ARGV[3])
local got = redis.call('ZRANGE', KEYS[1], start, start + n, 'WITHSCORES')
return emit(L, {redis.call('ZCARD', KEYS[1]), start + 1}, got, ARGV[4] == '1')
