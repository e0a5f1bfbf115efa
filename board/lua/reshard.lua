-- reshard.lua: begin or resume changing a sharded board's shards, or
-- switch it to its new ones.
--
-- KEYS[1]  the sharded board's meta HASH
-- ARGV[1]  'begin' or 'switch'
-- ARGV[2]  the board's descriptor, as the caller read it
-- ARGV[3]  the descriptor of the board over its new shards
--
-- Reply: 'begun', 'resumed' (the same change is under way), 'busy' (another
--        change is), 'switched', or 'stale' when the descriptor is no
--        longer ARGV[2] (nothing written).

local m = redis.call('HMGET', KEYS[1], 'desc', 'state', 'target')
if ARGV[1] == 'switch' and m[1] == ARGV[3] then return 'switched' end
if m[1] ~= ARGV[2] then return 'stale' end
if ARGV[1] == 'switch' then
  if m[2] ~= 'resharding' or m[3] ~= ARGV[3] then return 'stale' end
  redis.call('HSET', KEYS[1], 'desc', ARGV[3], 'state', 'live')
  redis.call('HDEL', KEYS[1], 'target')
  return 'switched'
end
if m[2] == 'resharding' then
  if m[3] == ARGV[3] then return 'resumed' end
  return 'busy'
end
redis.call('HSET', KEYS[1], 'state', 'resharding', 'target', ARGV[3])
return 'begun'
