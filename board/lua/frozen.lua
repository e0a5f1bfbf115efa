-- frozen.lua: every write to a frozen shard (a shard whose sharded board
-- is switching to other shards) is refused, writing nothing; the handle
-- reads the sharded board's descriptor again and writes to its new shard.
--
-- Reply: the error 'TBFROZEN'.

return redis.error_reply('TBFROZEN the shard is frozen while its board changes its shards')
