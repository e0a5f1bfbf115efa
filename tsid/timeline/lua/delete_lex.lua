-- delete_lex.lua: remove the message of one ID.
--
-- ARGV[1]  '[' .. ID prefix, ARGV[2] '(' .. its successor: the bounds of
--          its member
--
-- Reply: 1 if it was stored, else 0.

local m = redis.call('ZRANGE', Z, ARGV[1], ARGV[2], 'BYLEX', 'LIMIT', 0, 1)[1]
if not m then return 0 end
return redis.call('ZREM', Z, m)
