-- copy.lua: one step of a migration's copy: mirror (mirror.lua) the next
-- ids of the source into the target. The ids come from SCAN (ZSCAN of the
-- entries; HSCAN of the id HASH for the first key-suffix format), which
-- returns every element that stays from the first step to the last at
-- least once, whatever is written meanwhile: an id whose member changes
-- meanwhile (a key-suffix write) was mirrored by that write, as was every
-- id written meanwhile.
--
-- KEYS: the migrating board's keys (see keys.go), then its meta HASH last
-- ARGV[1]  the target generation, as read from the meta HASH
-- ARGV[2]  the SCAN cursor ('0' to start)
-- ARGV[3]  the COUNT hint of the SCAN
--
-- Reply: {next cursor ('done' after the last step), ids mirrored}. The
--        cursor is kept in the meta HASH too, so that a copy cut short
--        resumes there.
-- Error: 'TBSTALE' when no migration to ARGV[1] is under way (nothing
--        written).

local meta = KEYS[#KEYS]
if redis.call('HGET', meta, 'tgen') ~= ARGV[1] then return redis.error_reply('TBSTALE') end
local r
if STRATEGY == 's' and not BUCKETS then
  r = redis.call('HSCAN', KEYS[KM], ARGV[2], 'COUNT', ARGV[3])
else
  r = redis.call('ZSCAN', KEYS[KZ], ARGV[2], 'COUNT', ARGV[3])
end
local got = r[2]
for i = 1, #got, 2 do
  local id = got[i]
  if STRATEGY == 's' and BUCKETS then id = string.sub(id, WIDTH + 1) end
  mirror(id)
end
local at = redis.call('PEXPIRETIME', KEYS[KZ])
if at > 0 then
  for i = 1, #KEYS - 1 do redis.call('PEXPIREAT', KEYS[i], at) end
end
local next = r[1]
if next == '0' then next = 'done' end
redis.call('HSET', meta, 'cursor', next)
return {next, #got / 2}
