-- remove.lua: remove ids and everything kept beside them, atomically.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1..]  ids
--
-- Reply: the number of ids that were on the board (hidden or not).


local S, n = side(), 0
for i = 1, #ARGV do
  local m, s = find_member(ARGV[i])
  if m then
    S.remove(s, m)
    n = n + 1
  else
    local hm = find_hidden(ARGV[i])
    if hm then
      S.remove_hidden(hm)
      n = n + 1
    end
  end
  if mirror then mirror(ARGV[i]) end
end
if retop and n > 0 then retop() end
return n
