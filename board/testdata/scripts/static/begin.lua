-- board: begin
local PHASE_MIGRATING = [[migrating]]
local F_GEN = [[gen]]
local F_STATE = [[state]]
local F_MOVED = [[moved]]
local F_TARGET = [[target]]
local F_TGEN = [[tgen]]
local F_DEFAULTS = [[defaults]]
local F_PSCORE = [[pscore]]
local F_PMEMBER = [[pmember]]
local F_RECOPIES = [[recopies]]
-- fragment: moved.lua
-- moved.lua: moved(meta) stores in the meta HASH meta, field F_MOVED, the
-- server's time in Unix milliseconds: the scripts that move a migration or
-- a resharding forward call it in the same script as the step (see
-- lifecycle.go), so that an operator sees how long ago it last moved.

local function moved(meta)
  local t = redis.call('TIME')
  redis.call('HSET', meta, F_MOVED, t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)))
end
-- fragment: begin.lua
-- begin.lua: start a board's migration to another descriptor.
--
-- The source entries move to the next generation's names (RENAME, O(1))
-- and the names they leave hold tombstones (strings), so that every handle
-- still writing the old names fails on its first command (WRONGTYPE),
-- before it writes anything, reads the meta HASH again and from then on
-- mirrors each of its writes into the target (mirror.lua).
--
-- KEYS[1]      the board's meta HASH
-- KEYS[2..6]   the source generation's z, d, v, c, i
-- KEYS[7..11]  the same names in the next generation
-- KEYS[12]     the source generation's best entries (Options.KeepTop): not
--              moved but removed, so that a cached read of the old name
--              finds none, builds none (its sorted set is a tombstone) and
--              reads the meta HASH again; the next generation's is built
--              from its own entries by the first cached read there
-- ARGV[1]      the source generation, as read from the meta HASH
-- ARGV[2]      the target descriptor
-- ARGV[3]      the defaults of the target's new fields (JSON)
-- ARGV[4]      '1' when the source keeps an id lookup (a key-suffix board
--              of more than one field), else '0'
--
-- A migration begun stores the server's time in the field moved (moved.lua).
--
-- Reply: 'begun'; 'resumed' when this migration is already under way;
--        'busy' when another one is; 'stale' when the generation is no
--        longer ARGV[1]; 'lookup' when the source's id lookup is gone
--        while its sorted set holds entries (lookup.lua's get), which
--        no copy could find (nothing written).

local m = redis.call('HMGET', KEYS[1], F_GEN, F_STATE, F_TARGET, F_DEFAULTS)
-- No generation is 0, and no state live: a board that a native write
-- made whole again after a Drop stores its descriptor alone.
local gen = m[1] or '0'
if gen ~= ARGV[1] then return 'stale' end
if m[2] == PHASE_MIGRATING then
  if m[3] == ARGV[2] and m[4] == ARGV[3] then return 'resumed' end
  return 'busy'
end
if ARGV[4] == '1' and redis.call('EXISTS', KEYS[6]) == 0 and redis.call('ZCARD', KEYS[2]) > 0 then
  return 'lookup'
end
local at = redis.call('PEXPIRETIME', KEYS[2])
for i = 2, 6 do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('RENAME', KEYS[i], KEYS[i + 5]) end
end
redis.call('UNLINK', KEYS[12])
for _, k in ipairs({KEYS[2], KEYS[6]}) do
  redis.call('SET', k, 'tiebreak: moved to generation ' .. (tonumber(gen) + 1))
  if at > 0 then redis.call('PEXPIREAT', k, at) end
end
local next = tonumber(gen) + 1
redis.call('HSET', KEYS[1], F_STATE, PHASE_MIGRATING, F_GEN, next, F_TGEN, next + 1,
  F_TARGET, ARGV[2], F_DEFAULTS, ARGV[3])
redis.call('HDEL', KEYS[1], F_PSCORE, F_PMEMBER, F_RECOPIES)
moved(KEYS[1])
return 'begun'
