-- board: export
local PHASE_LIVE = [[live]]
local PHASE_EXPORTING = [[exporting]]
local PHASE_FROZEN = [[frozen]]
local PHASE_RETIRED = [[retired]]
local THAW = [[thaw]]
local F_GEN = [[gen]]
local F_STATE = [[state]]
local F_MOVED = [[moved]]
local F_CURSOR = [[cursor]]
-- fragment: moved.lua
-- moved.lua: moved(meta) stores in the meta HASH meta, field F_MOVED, the
-- server's time in Unix milliseconds: the scripts that move a migration or
-- a resharding forward call it in the same script as the step (see
-- lifecycle.go), so that an operator sees how long ago it last moved.

local function moved(meta)
  local t = redis.call('TIME')
  redis.call('HSET', meta, F_MOVED, t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)))
end
-- fragment: export.lua
-- export.lua: move a shard of a sharded board to the next export state,
-- in the next generation of its keys: 'exporting' (its writes record the
-- ids they touch, exportmirror.lua) or 'frozen' (its writes are refused,
-- frozen.lua). As begin.lua does, the keys move by RENAME (O(1)) and the
-- names they leave hold tombstones, so that every handle still using them
-- fails on its first command, before writing anything, and reads the meta
-- HASH again. A shard that becomes exporting starts its copy from the
-- start (the position, field cursor, is cleared).
--
-- 'thaw' moves a frozen shard back to exporting, its keys and copy
-- position kept: the resharding that froze it stopped (its process died
-- and its lease was revoked, reshard.lua; or its check failed and it
-- copies again). The handles waiting on the frozen shard read its state
-- again and write on, recorded.
--
-- KEYS[1]      the shard's meta HASH
-- KEYS[2..9]   the generation's z, d, i, v, c, dirty, inflight, hist
-- KEYS[10..17] the same names in the next generation
-- ARGV[1]      the generation, as read from the meta HASH
-- ARGV[2]      'exporting', 'frozen' or 'thaw'
--
-- A move to exporting or frozen stores the server's time in the field
-- moved (moved.lua); a thaw does not (a writer may thaw a resharding
-- whose process died: nothing moved it).
--
-- Reply: 'done'; also when the shard is already in that state or a later
--        one (exporting, frozen, retired), or thawed when not frozen;
--        'stale' when the generation is no longer ARGV[1], 'gone' when
--        the meta HASH is (the board dropped, or lost by the server: a
--        resharding fences every shard, writing its meta HASH, before it
--        moves one) (nothing written).

local order = {[PHASE_LIVE] = 1, [PHASE_EXPORTING] = 2, [PHASE_FROZEN] = 3, [PHASE_RETIRED] = 4}
local m = redis.call('HMGET', KEYS[1], F_GEN, F_STATE)
if ARGV[2] == THAW then
  if m[2] == PHASE_FROZEN then redis.call('HSET', KEYS[1], F_STATE, PHASE_EXPORTING) end
  return 'done'
end
if redis.call('EXISTS', KEYS[1]) == 0 then return 'gone' end
if (order[m[2]] or 1) >= order[ARGV[2]] then return 'done' end
if (m[1] or '0') ~= ARGV[1] then return 'stale' end
for i = 2, 9 do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('RENAME', KEYS[i], KEYS[i + 8]) end
end
local next = tonumber(ARGV[1]) + 1
for _, k in ipairs({KEYS[2], KEYS[4]}) do
  redis.call('SET', k, 'tiebreak: moved to generation ' .. next)
end
redis.call('HSET', KEYS[1], F_STATE, ARGV[2], F_GEN, next)
if ARGV[2] == PHASE_EXPORTING then redis.call('HDEL', KEYS[1], F_CURSOR) end
moved(KEYS[1])
return 'done'
