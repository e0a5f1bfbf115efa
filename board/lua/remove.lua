-- remove.lua: remove ids and everything kept beside them, atomically.
--
-- KEYS: z, m, d, v, c (see common.lua)
-- ARGV[1]    spec (see common.lua)
-- ARGV[2..]  ids
--
-- Reply: the number of ids that were on the board.

local L = parse_spec(ARGV[1])
local n = 0
for i = 2, #ARGV do
  local m = find_member(L, ARGV[i])
  if m then
    remove_entry(L, tonumber(redis.call('ZSCORE', KEYS[1], m)), m)
    n = n + 1
  end
end
return n
