-- drain.lua: take up to n ids from the dirty set of an exporting or frozen
-- shard (exportmirror.lua), with their entries as they are now, for the
-- resharding to copy to their new shards.
--
-- KEYS: the shard's keys (see common.lua), with KEYS[KDIRTY]
-- ARGV[1]  n, at least 1
--
-- Reply: {id, member, score, data, hasdata, ...}: member and score '' for
--        an id no longer on the shard (removed: the copy removes it too).


local out = {}
for _, id in ipairs(redis.call('SPOP', KEYS[KDIRTY], tonumber(ARGV[1]))) do
  local m, s = find_member(id)
  local d = m and redis.call('HGET', KEYS[KD], id)
  out[#out + 1] = id
  out[#out + 1] = m or ''
  out[#out + 1] = s or ''
  out[#out + 1] = d or ''
  out[#out + 1] = d and 1 or 0
end
return out
