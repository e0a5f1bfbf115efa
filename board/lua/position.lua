-- position.lua: where a (score, member) pair stands in the board's order,
-- whether or not it is stored: the counts that place one shard's entries
-- among a sharded board's. Uses common.lua's constants.
--
--   position(s, m)        how many entries come strictly before (s, m): a
--                         stored score below s, or equal with a member
--                         below m in bytes; O(log N), and O(log N * log T)
--                         for a pair not stored among T entries of score s
--   tuple_position(s, m)  how many entries hold a better tuple than the
--                         entry stored as (s, m) would: its competition
--                         rank minus one

-- a < b comparing bytes (Lua's < follows the server's locale).
local function bytes_lt(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local function position(s, m)
  local lo = redis.call('ZCOUNT', KEYS[KZ], '-inf', '(' .. s)
  if m == '' then return lo end
  local cur = redis.call('ZSCORE', KEYS[KZ], m)
  if cur and tonumber(cur) == tonumber(s) then return redis.call('ZRANK', KEYS[KZ], m) end
  local hi = lo + redis.call('ZCOUNT', KEYS[KZ], s, s)
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    local got = redis.call('ZRANGE', KEYS[KZ], mid, mid)
    if bytes_lt(got[1], m) then lo = mid + 1 else hi = mid end
  end
  return lo
end

local function tuple_position(s, m)
  if STRATEGY == 'p' then return position(s, '') end
  return position(s, string.sub(m, 1, WIDTH))
end
