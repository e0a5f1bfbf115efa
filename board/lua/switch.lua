-- switch.lua: end a board's migration: the target becomes the board.
--
-- KEYS[1]     the board's meta HASH
-- KEYS[2..7]  the source generation's z, d, m, v, c, i
-- KEYS[8]     the source generation's misfit set
-- ARGV[1]     the target generation, as read from the meta HASH
--
-- Reply: 'switched'; or, nothing written: 'stale' when no migration to
--        ARGV[1] is under way, 'copying' when the copy has not reached
--        the end, 'misfits' when some entries do not fit the target.

local m = redis.call('HMGET', KEYS[1], 'state', 'tgen', 'cursor', 'target')
if m[1] ~= 'migrating' or m[2] ~= ARGV[1] then return 'stale' end
if m[3] ~= 'done' then return 'copying' end
if redis.call('SCARD', KEYS[8]) > 0 then return 'misfits' end
local at = redis.call('PEXPIRETIME', KEYS[2])
redis.call('UNLINK', KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
for _, k in ipairs({KEYS[2], KEYS[4], KEYS[7]}) do
  redis.call('SET', k, 'tiebreak: moved to generation ' .. m[2])
  if at > 0 then redis.call('PEXPIREAT', k, at) end
end
redis.call('HSET', KEYS[1], 'desc', m[4], 'gen', m[2], 'state', 'live')
redis.call('HDEL', KEYS[1], 'target', 'tgen', 'defaults', 'cursor')
return 'switched'
