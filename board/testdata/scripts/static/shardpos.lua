-- board: shardpos
local F_MOVED = [[moved]]
local F_CURSOR = [[cursor]]
local F_FENCE = [[fence]]
-- fragment: moved.lua
-- moved.lua: moved(meta) stores in the meta HASH meta, field F_MOVED, the
-- server's time in Unix milliseconds: the scripts that move a migration or
-- a resharding forward call it in the same script as the step (see
-- lifecycle.go), so that an operator sees how long ago it last moved.

local function moved(meta)
  local t = redis.call('TIME')
  redis.call('HSET', meta, F_MOVED, t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)))
end
-- fragment: shardpos.lua
-- shardpos.lua: keep the copy position of a shard whose sharded board
-- changes its shards: the cursor of the last entry copied (as the board's
-- Scan writes it: its score and member, data that survives a restart or
-- a failover), 'done' at the end, or '' to start again. Only the process
-- holding the resharding's lease writes it (see fence.lua).
--
-- KEYS[1]  the shard's meta HASH
-- ARGV[1]  the lease token of the resharding's process
-- ARGV[2]  the position
--
-- Each position kept stores the server's time in the field moved
-- (moved.lua).
--
-- Reply: 'ok'. Error: 'TBFENCED' when the shard names another token,
-- 'TBGONE' when its meta HASH is gone (dropped, or lost by the server).

local fence = redis.call('HGET', KEYS[1], F_FENCE)
if fence ~= ARGV[1] then
  if not fence and redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('TBGONE') end
  return redis.error_reply('TBFENCED another process took the resharding over')
end
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], F_CURSOR) else redis.call('HSET', KEYS[1], F_CURSOR, ARGV[2]) end
moved(KEYS[1])
return 'ok'
