-- exportmirror.lua: mirror(id), kept by the write scripts of a shard
-- whose sharded board is changing its number of shards. It records id in
-- the dirty set KEYS[KDIRTY], in the same script as the write, so that the
-- resharding copies the id to its new shard again (drain.lua): a write
-- acknowledged after the copy passed its id is never lost.

local function mirror(id) redis.call('SADD', KEYS[KDIRTY], id) end
