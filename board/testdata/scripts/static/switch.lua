-- board: switch
local PHASE_LIVE = [[live]]
local PHASE_MIGRATING = [[migrating]]
local POSITION_DONE = [[done]]
local F_DESC = [[desc]]
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
-- fragment: switch.lua
-- switch.lua: end a board's migration: the target becomes the board, once
-- the copy has reached the end of the source and a check finds that the
-- target holds as many entries as the source holds that fit it (at most
-- its cap): a target short of entries (a copy step lost with a failover,
-- say) is never switched to; the copy starts again from the start instead
-- (every write is mirrored meanwhile, so a second pass converges).
--
-- KEYS[1]     the board's meta HASH
-- KEYS[2..6]  the source generation's z, d, v, c, i
-- KEYS[7]     the source generation's misfit set
-- KEYS[8]     the target's sorted set
-- KEYS[9]     the source generation's best entries (Options.KeepTop): a
--             cached read of the source then finds its tombstone
-- ARGV[1]     the target generation, as read from the meta HASH
-- ARGV[2]     the target's cap ('0': none)
--
-- A switch and a recopy store the server's time in the field moved
-- (moved.lua); it stays after the switch.
--
-- Reply: 'switched'; or, the board left as it was: 'stale' when no
--        migration to ARGV[1] is under way, 'copying' when the copy has
--        not reached the end, 'misfits' when some entries do not fit the
--        target; or 'recopy' when the check failed: the copy's position
--        went back to the start.

local m = redis.call('HMGET', KEYS[1], F_STATE, F_TGEN, F_PSCORE, F_TARGET)
if m[1] ~= PHASE_MIGRATING or m[2] ~= ARGV[1] then return 'stale' end
if m[3] ~= POSITION_DONE then return 'copying' end
local misfits = redis.call('SCARD', KEYS[7])
if misfits > 0 then return 'misfits' end
local want = redis.call('ZCARD', KEYS[2])
local cap = tonumber(ARGV[2])
if cap > 0 and want > cap then want = cap end
if redis.call('ZCARD', KEYS[8]) ~= want then
  redis.call('HDEL', KEYS[1], F_PSCORE, F_PMEMBER)
  redis.call('HINCRBY', KEYS[1], F_RECOPIES, 1)
  moved(KEYS[1])
  return 'recopy'
end
local at = redis.call('PEXPIRETIME', KEYS[2])
redis.call('UNLINK', KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[9])
for _, k in ipairs({KEYS[2], KEYS[6]}) do
  redis.call('SET', k, 'tiebreak: moved to generation ' .. m[2])
  if at > 0 then redis.call('PEXPIREAT', k, at) end
end
redis.call('HSET', KEYS[1], F_DESC, m[4], F_GEN, m[2], F_STATE, PHASE_LIVE)
redis.call('HDEL', KEYS[1], F_TARGET, F_TGEN, F_DEFAULTS, F_PSCORE, F_PMEMBER, F_RECOPIES)
-- The request ids remembered hold replies in the old encoding: forget them.
redis.call('HDEL', KEYS[1], 'born')
moved(KEYS[1])
return 'switched'
