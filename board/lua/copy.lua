-- copy.lua: one step of a migration's copy: mirror (mirror.lua) the next
-- entries of the source into the target, walking the source's sorted set
-- in its own order (score, then member bytes) from the position kept in
-- the meta HASH: the (score, member) of the last entry copied, as data,
-- so that a copy resumed after a server restart or a failover (whose hash
-- tables differ) goes on exactly where it stopped. An entry that stays
-- put from the first step to the last is met once; an entry written
-- meanwhile was mirrored by its write, wherever it moved; racing copies
-- share the one position, so each step goes further.
--
-- KEYS: the migrating board's keys (see keys.go), then its meta HASH last
-- ARGV[1]  the target generation, as read from the meta HASH
-- ARGV[2]  how many entries to mirror
--
-- Each step that mirrors stores the server's time in the field moved
-- (moved.lua).
--
-- Reply: {'more' or 'done', entries mirrored}.
-- Error: 'TBSTALE' when no migration to ARGV[1] is under way (nothing
--        written).

local meta = KEYS[#KEYS]
local st = redis.call('HMGET', meta, F_TGEN, F_PSCORE, F_PMEMBER)
if st[1] ~= ARGV[1] then return redis.error_reply('TBSTALE') end
if st[2] == POSITION_DONE then return {'done', 0} end
local start = 0
if st[2] then
  start = position(st[2], st[3])
  local cur = redis.call('ZSCORE', KEYS[KZ], st[3])
  if cur and tonumber(cur) == tonumber(st[2]) then start = start + 1 end
end
local n = tonumber(ARGV[2])
local got = redis.call('ZRANGE', KEYS[KZ], start, start + n - 1, 'WITHSCORES')
for i = 1, #got, 2 do
  local id = got[i]
  if STRATEGY == 's' then id = string.sub(id, WIDTH + 1) end
  mirror(id)
end
mirror_expiry()
moved(meta)
if #got < 2 * n then
  redis.call('HSET', meta, F_PSCORE, POSITION_DONE)
  redis.call('HDEL', meta, F_PMEMBER)
  return {'done', #got / 2}
end
redis.call('HSET', meta, F_PSCORE, string.format('%.17g', tonumber(got[#got])), F_PMEMBER, got[#got - 1])
return {'more', #got / 2}
