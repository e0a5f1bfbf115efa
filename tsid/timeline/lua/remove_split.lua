-- remove_split.lua: remove the messages of k IDs.
--
-- ARGV     k pairs: ID prefix, its score
--
-- Reply: the number of messages removed (an ID given twice counts once).

local removed = 0
for i = 1, #ARGV, 2 do
  local _, m = find(ARGV[i], ARGV[i + 1])
  if m then removed = removed + redis.call('ZREM', Z, m) end
end
return removed
