-- rank.lua: one id's entry and rank, from one snapshot.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  id
-- ARGV[2]  rank kind: 'o' ordinal (1,2,3,4), 'c' competition (1,2,2,4),
--          'd' dense (1,2,2,3; needs the dense option)
-- ARGV[3]  '1' to return the member data
--
-- Error: 'TBNODENSE' when the dense index lacks the entry's tuple (the board
--        was written by a handle without the dense option).
-- Reply: {} when the id is not on the board, else
--        {member, score, rank, data, hasdata} (data '' and hasdata 0 unless
--        asked for and present).


local m, s = find_member(ARGV[1])
if not m then return {} end
local kind, rank = ARGV[2], nil

-- The tuple of the member at rank r equals ours: same score and, for key
-- suffix, the same fields prefix.
local function same_tuple(r)
  local got = redis.call('ZRANGE', KEYS[KZ], r, r, 'WITHSCORES')
  if tonumber(got[2]) ~= tonumber(s) then return false end
  return STRATEGY == 'p' or string.sub(got[1], 1, WIDTH) == string.sub(m, 1, WIDTH)
end

if kind == 'd' then
  rank = redis.call('ZRANK', KEYS[KV], side().tuple_key(s, m))
  if not rank then return redis.error_reply('TBNODENSE') end
  rank = rank + 1
elseif kind == 'c' then
  -- Entries holding our tuple are contiguous and end at or after us; the
  -- first of them is found by binary search between the first entry of our
  -- score and us.
  local lo = redis.call('ZCOUNT', KEYS[KZ], '-inf', '(' .. s)
  local hi = redis.call('ZRANK', KEYS[KZ], m)
  if STRATEGY == 's' then
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      if same_tuple(mid) then hi = mid else lo = mid + 1 end
    end
  end
  rank = lo + 1
else
  rank = redis.call('ZRANK', KEYS[KZ], m) + 1
end

local d = ARGV[3] == '1' and redis.call('HGET', KEYS[KD], ARGV[1])
return {m, s, rank, d or '', d and 1 or 0}
