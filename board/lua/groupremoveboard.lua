-- groupremoveboard.lua: one board's part of a group remove
-- (groupremove.lua), the body of its function board_<i>(KEYS, ARGV).
-- It finds the member of each id of ARGV first, writing nothing (on a
-- board that moved to another generation, the lookup of a tombstone
-- fails with WRONGTYPE here, before any board of the group is written),
-- and returns the function that then removes them and all kept beside
-- them, as remove.lua does, mirrors every id while the board migrates,
-- and returns how many ids were on the board. An id given twice counts
-- once.

local S, found, uniq, seen = side(), {}, {}, {}
for i = 1, #ARGV do
  local id = ARGV[i]
  if not seen[id] then
    seen[id] = true
    uniq[#uniq + 1] = id
    local m, s = find_member(id)
    if m then
      found[#found + 1] = {m, s}
    else
      local hm = find_hidden(id)
      if hm then found[#found + 1] = {hm, false} end
    end
  end
end
return function()
  for _, f in ipairs(found) do
    if f[2] then S.remove(f[2], f[1]) else S.remove_hidden(f[1]) end
  end
  if mirror then
    for _, id in ipairs(uniq) do mirror(id) end
  end
  if retop and #found > 0 then retop() end
  return #found
end
