-- remove.lua: remove ids and everything kept beside them, atomically.
--
-- KEYS: z, m, d, v, c (see common.lua)
-- ARGV[1..]  ids
--
-- Reply: the number of ids that were on the board.

local n = 0
for i = 1, #ARGV do
  local m, s = find_member(L, ARGV[i])
  if m then
    remove_entry(L, tonumber(s), m)
    n = n + 1
  end
end
return n
