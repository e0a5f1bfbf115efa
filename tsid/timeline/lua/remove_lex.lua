-- remove_lex.lua: remove the messages of k IDs.
--
-- ARGV     k pairs: '[' .. ID prefix, '(' .. its successor, the bounds of
--          the ID's member
--
-- Reply: the number of messages removed (an ID given twice counts once).

local removed = 0
for i = 1, #ARGV, 2 do
  local m = redis.call('ZRANGE', Z, ARGV[i], ARGV[i + 1], 'BYLEX', 'LIMIT', 0, 1)[1]
  if m then removed = removed + redis.call('ZREM', Z, m) end
end
return removed
