-- reshard.lua: begin or resume changing a sharded board's shards, keep
-- the lease of the process doing it, or switch the board to its new
-- shards.
--
-- KEYS[1]  the sharded board's meta HASH
-- ARGV[1]  'begin', 'renew', 'moved', 'release', 'switch', 'revoke' or
--          'retired'
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
-- so a process that lost it stops before its next step (moved is renew
-- that also stores the time in the field moved: a step of a shard moved
-- the resharding since the last renew); release frees it
-- (a Reshard cut short). revoke, sent by any handle whose writes wait on
-- a frozen shard, ends a lease that ran out (its process died): the
-- handle then thaws the frozen shards (export.lua), so that writes go on,
-- and since switch needs the lease, the process that held it can no
-- longer switch to shards that miss those writes, nor renew (the lease
-- field says 'revoked' until the next Reshard takes it).
--
-- begin (when it begins), moved, switch and retired (when it clears the
-- field retiring: every old shard retired) store the server's time in the
-- field moved (moved.lua).
--
-- Reply: 'begun', 'resumed' (the same change is under way, the lease
--        taken), 'busy' (another change is, or another process holds the
--        lease), 'renewed', 'lost' (the lease is another's), 'released',
--        'switched', or 'stale' when the descriptor is no longer ARGV[2]
--        and 'gone' when the board stores none (dropped, or lost by the
--        server) (nothing written); revoke: 'revoked', 'held' (the lease runs) or
--        'live' (no resharding under way); retired: 'retired'.

local m = redis.call('HMGET', KEYS[1], F_DESC, F_STATE, F_TARGET, F_LEASE, F_LEASEUNTIL)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function take()
  redis.call('HSET', KEYS[1], F_LEASE, ARGV[4], F_LEASEUNTIL, now + tonumber(ARGV[5]))
end
if ARGV[1] == 'retired' then
  if redis.call('HDEL', KEYS[1], F_RETIRING) == 1 then moved(KEYS[1]) end
  return 'retired'
end
if ARGV[1] == 'revoke' then
  if m[2] ~= PHASE_RESHARDING then return 'live' end
  if m[4] and m[4] ~= LEASE_REVOKED and tonumber(m[5] or '0') >= now then return 'held' end
  redis.call('HSET', KEYS[1], F_LEASE, LEASE_REVOKED, F_LEASEUNTIL, 0)
  return 'revoked'
end
if ARGV[1] == 'switch' and m[1] == ARGV[3] then return 'switched' end
if not m[1] then return 'gone' end
if m[1] ~= ARGV[2] then return 'stale' end
local mine = m[4] == ARGV[4]
local free = mine or not m[4] or tonumber(m[5] or '0') < now
if ARGV[1] == 'release' then
  if mine then redis.call('HDEL', KEYS[1], F_LEASE, F_LEASEUNTIL) end
  return 'released'
end
if ARGV[1] == 'renew' or ARGV[1] == 'moved' then
  if m[2] ~= PHASE_RESHARDING or m[3] ~= ARGV[3] or not mine then return 'lost' end
  take()
  if ARGV[1] == 'moved' then moved(KEYS[1]) end
  return 'renewed'
end
if ARGV[1] == 'switch' then
  if m[2] ~= PHASE_RESHARDING or m[3] ~= ARGV[3] or not mine then return 'stale' end
  redis.call('HSET', KEYS[1], F_DESC, ARGV[3], F_STATE, PHASE_LIVE)
  local old = {}
  for i = 6, #ARGV do
    redis.call('HSET', KEYS[1], F_RETIRED .. ARGV[i], '1')
    old[#old + 1] = ARGV[i]
  end
  redis.call('HSET', KEYS[1], F_RETIRING, cjson.encode(old))
  redis.call('HDEL', KEYS[1], F_TARGET, F_LEASE, F_LEASEUNTIL)
  moved(KEYS[1])
  return 'switched'
end
if m[2] == PHASE_RESHARDING then
  if m[3] ~= ARGV[3] or not free then return 'busy' end
  take()
  return 'resumed'
end
redis.call('HSET', KEYS[1], F_STATE, PHASE_RESHARDING, F_TARGET, ARGV[3])
take()
moved(KEYS[1])
return 'begun'
