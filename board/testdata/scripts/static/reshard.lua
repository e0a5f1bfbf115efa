-- board: reshard
-- fragment: reshard.lua
-- reshard.lua: begin or resume changing a sharded board's shards, keep
-- the lease of the process doing it, or switch the board to its new
-- shards.
--
-- KEYS[1]  the sharded board's meta HASH
-- ARGV[1]  'begin', 'renew', 'release', 'switch' or 'revoke'
-- ARGV[2]  the board's descriptor, as the caller read it
-- ARGV[3]  the descriptor of the board over its new shards
-- ARGV[4]  the caller's lease token
-- ARGV[5]  the lease's length in milliseconds
-- ARGV[6…] switch: the names of the shards retired, kept (a field
--          'retired:<name>' each) so that Drop removes their tombstones,
--          and in the field retiring (a JSON list) until they are
--
-- One process at a time holds the lease (fields lease and leaseuntil, in
-- ms of the server's clock): begin takes it when it is free or expired,
-- renew extends it for its holder (even past its end, unless another
-- process took it or it was revoked), and every step of the copy renews it,
-- so a process that lost it stops before its next step; release frees it
-- (a Reshard cut short). revoke, sent by any handle whose writes wait on
-- a frozen shard, ends a lease that ran out (its process died): the
-- handle then thaws the frozen shards (export.lua), so that writes go on,
-- and since switch needs the lease, the process that held it can no
-- longer switch to shards that miss those writes, nor renew (the lease
-- field says 'revoked' until the next Reshard takes it).
--
-- Reply: 'begun', 'resumed' (the same change is under way, the lease
--        taken), 'busy' (another change is, or another process holds the
--        lease), 'renewed', 'lost' (the lease is another's), 'released',
--        'switched', or 'stale' when the descriptor is no longer ARGV[2]
--        (nothing written); revoke: 'revoked', 'held' (the lease runs) or
--        'live' (no resharding under way).

local m = redis.call('HMGET', KEYS[1], 'desc', 'state', 'target', 'lease', 'leaseuntil')
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function take()
  redis.call('HSET', KEYS[1], 'lease', ARGV[4], 'leaseuntil', now + tonumber(ARGV[5]))
end
if ARGV[1] == 'revoke' then
  if m[2] ~= 'resharding' then return 'live' end
  if m[4] and m[4] ~= 'revoked' and tonumber(m[5] or '0') >= now then return 'held' end
  redis.call('HSET', KEYS[1], 'lease', 'revoked', 'leaseuntil', 0)
  return 'revoked'
end
if ARGV[1] == 'switch' and m[1] == ARGV[3] then return 'switched' end
if m[1] ~= ARGV[2] then return 'stale' end
local mine = m[4] == ARGV[4]
local free = mine or not m[4] or tonumber(m[5] or '0') < now
if ARGV[1] == 'release' then
  if mine then redis.call('HDEL', KEYS[1], 'lease', 'leaseuntil') end
  return 'released'
end
if ARGV[1] == 'renew' then
  if m[2] ~= 'resharding' or m[3] ~= ARGV[3] or not mine then return 'lost' end
  take()
  return 'renewed'
end
if ARGV[1] == 'switch' then
  if m[2] ~= 'resharding' or m[3] ~= ARGV[3] or not mine then return 'stale' end
  redis.call('HSET', KEYS[1], 'desc', ARGV[3], 'state', 'live')
  local old = {}
  for i = 6, #ARGV do
    redis.call('HSET', KEYS[1], 'retired:' .. ARGV[i], '1')
    old[#old + 1] = ARGV[i]
  end
  redis.call('HSET', KEYS[1], 'retiring', cjson.encode(old))
  redis.call('HDEL', KEYS[1], 'target', 'lease', 'leaseuntil')
  return 'switched'
end
if m[2] == 'resharding' then
  if m[3] ~= ARGV[3] or not free then return 'busy' end
  take()
  return 'resumed'
end
redis.call('HSET', KEYS[1], 'state', 'resharding', 'target', ARGV[3])
take()
return 'begun'
