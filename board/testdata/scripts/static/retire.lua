-- board: retire
local PHASE_FROZEN = [[frozen]]
local PHASE_RETIRED = [[retired]]
local F_GEN = [[gen]]
local F_STATE = [[state]]
local F_MOVED = [[moved]]
-- fragment: moved.lua
-- moved.lua: moved(meta) stores in the meta HASH meta, field F_MOVED, the
-- server's time in Unix milliseconds: the scripts that move a migration or
-- a resharding forward call it in the same script as the step (see
-- lifecycle.go), so that an operator sees how long ago it last moved.

local function moved(meta)
  local t = redis.call('TIME')
  redis.call('HSET', meta, F_MOVED, t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)))
end
-- fragment: retire.lua
-- retire.lua: retire a frozen shard whose entries are all on the sharded
-- board's new shards: its keys are removed (UNLINK: Redis frees them in
-- the background) and the names of its entries hold tombstones, so that
-- every handle still reading or writing it fails on its first command and
-- reads the sharded board's descriptor again.
--
-- KEYS[1]      the shard's meta HASH
-- KEYS[2..9]   the generation's z, d, i, v, c, dirty, inflight, hist
-- ARGV[1]      the generation, as read from the meta HASH
--
-- Retiring stores the server's time in the field moved (moved.lua).
--
-- Reply: 'done' (also when already retired); 'stale' when the generation is
--        no longer ARGV[1] or the shard is not frozen, 'gone' when the
--        meta HASH is (dropped, or lost by the server) (nothing written).

local m = redis.call('HMGET', KEYS[1], F_GEN, F_STATE)
if not m[2] and redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
if m[2] == PHASE_RETIRED then return 'done' end
if (m[1] or '0') ~= ARGV[1] or m[2] ~= PHASE_FROZEN then return 'stale' end
redis.call('UNLINK', unpack(KEYS, 2, 9))
for _, k in ipairs({KEYS[2], KEYS[4]}) do
  redis.call('SET', k, 'tiebreak: retired')
end
redis.call('HSET', KEYS[1], F_STATE, PHASE_RETIRED)
moved(KEYS[1])
return 'done'
