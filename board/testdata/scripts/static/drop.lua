-- board: drop
local F_GEN = [[gen]]
local F_TGEN = [[tgen]]
-- fragment: drop.lua
-- drop.lua: remove a whole board, in every generation it has, atomically.
--
-- KEYS[1]   the board's meta HASH
-- KEYS[2..] every other key of the board, as the caller read its
--           generations
-- ARGV[1]   those generations: gen .. ' ' .. tgen as read from the meta
--           HASH ('' for either field absent)
--
-- Reply: 1 when removed, 0 when the generations changed since they were
--        read (nothing removed: read them again).

local g = redis.call('HMGET', KEYS[1], F_GEN, F_TGEN)
if not g[1] and redis.call('EXISTS', KEYS[1]) == 1 then
  g[1] = '0' -- a meta HASH without a generation is in generation 0
end
if (g[1] or '') .. ' ' .. (g[2] or '') ~= ARGV[1] then return 0 end
redis.call('UNLINK', unpack(KEYS))
return 1
