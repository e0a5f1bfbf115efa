-- drain.lua: take up to n ids from the dirty set of an exporting or frozen
-- shard (exportmirror.lua), with their entries as they are now, for the
-- resharding to copy to their new shards. The ids taken stay in the
-- in-flight set until a later call acknowledges them, copied: a copy cut
-- short between the two loses none, as restore puts them back.
--
-- KEYS: the shard's keys (see common.lua), with KEYS[KDIRTY] and
--       KEYS[KINFLIGHT], then its meta HASH last
-- ARGV[1]  n, 0 or more
-- ARGV[2]  '1' to first move every id in flight back to the dirty set
-- ARGV[3]  the lease token of the resharding's process (see fence.lua)
-- ARGV[4…] ids taken before and now copied: forgotten
--
-- Acknowledging ids stores the server's time in the field moved of the
-- meta HASH (moved.lua).
--
-- Reply: {id, member, score, data, hasdata, ...}: member and score '' for
--        an id no longer on the shard (removed: the copy removes it too).
-- Error: 'TBFENCED' when the shard names another process's token,
--        'TBGONE' when its meta HASH is gone (dropped, or lost by the
--        server) (nothing written).

local fence = redis.call('HGET', KEYS[#KEYS], F_FENCE)
if fence ~= ARGV[3] then
  if not fence and redis.call('EXISTS', KEYS[#KEYS]) == 0 then return redis.error_reply('TBGONE') end
  return redis.error_reply('TBFENCED another process took the resharding over')
end

if ARGV[2] == '1' and redis.call('EXISTS', KEYS[KINFLIGHT]) == 1 then
  redis.call('SUNIONSTORE', KEYS[KDIRTY], KEYS[KDIRTY], KEYS[KINFLIGHT])
  redis.call('UNLINK', KEYS[KINFLIGHT])
end
if #ARGV > 3 then
  redis.call('SREM', KEYS[KINFLIGHT], unpack(ARGV, 4))
  moved(KEYS[#KEYS])
end
local out = {}
local n = tonumber(ARGV[1])
if n == 0 then return out end
local ids = redis.call('SPOP', KEYS[KDIRTY], n)
if #ids > 0 then redis.call('SADD', KEYS[KINFLIGHT], unpack(ids)) end
for _, id in ipairs(ids) do
  local m, s = find_member(id)
  local d = m and redis.call('HGET', KEYS[KD], id)
  out[#out + 1] = id
  out[#out + 1] = m or ''
  out[#out + 1] = s or ''
  out[#out + 1] = d or ''
  out[#out + 1] = d and 1 or 0
end
return out
