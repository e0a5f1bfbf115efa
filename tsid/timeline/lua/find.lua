-- find.lua (split): find(id, t) looks for the ID prefix id, whose time part
-- (score) is t, by binary search over the ranks of the members of score t:
-- their ID prefixes all end with the same time part and are ordered by
-- suffix, so the first SUF bytes decide. It returns the number of members
-- below the ID and its stored member, or false when it is not stored.

local function find(id, t)
  local lo = redis.call('ZCOUNT', Z, '-inf', '(' .. t)
  local hi = lo + redis.call('ZCOUNT', Z, t, t)
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    local m = redis.call('ZRANGE', Z, mid, mid)[1]
    local c = 0
    for i = 1, SUF do
      local x, y = string.byte(m, i), string.byte(id, i)
      if x ~= y then
        if x < y then c = -1 else c = 1 end
        break
      end
    end
    if c < 0 then lo = mid + 1 elseif c > 0 then hi = mid else return mid, m end
  end
  return lo, false
end
