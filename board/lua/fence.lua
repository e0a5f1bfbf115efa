-- fence.lua: the writes of a resharding's copy into the board's new shards
-- run only for the process that holds the resharding's lease: each shard's
-- meta HASH names that process's token (field fence), set when it took
-- the lease, and the process's scripts carry it (FENCE). A process that
-- lost its lease (it stalled, another took over) writes nothing more.
--
-- Error: 'TBFENCED' when the shard names another token, 'TBGONE' when
-- the shard's meta HASH is gone (dropped, or lost by the server)
-- (nothing written).

local fence = redis.call('HGET', KEYS[KMETA], F_FENCE)
if fence ~= FENCE then
  if not fence and redis.call('EXISTS', KEYS[KMETA]) == 0 then return redis.error_reply('TBGONE') end
  return redis.error_reply('TBFENCED another process took the resharding over')
end
