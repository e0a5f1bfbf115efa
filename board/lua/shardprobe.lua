-- shardprobe.lua: one shard's counts for entries stored on other shards
-- of a sharded board (Get, Rank, a ranked write, Among): how many of its
-- entries come before each.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  '1' to count the entries of better tuples too
-- ARGV[2], ARGV[3], …  score and member of each entry, by pairs
--
-- Reply: {total, position, tupleposition, ...}: total is the number of
--        entries of the shard, then two counts per pair (position.lua;
--        the second 0 unless asked for).


local out = {redis.call('ZCARD', KEYS[KZ])}
local withtuple = ARGV[1] == '1'
for i = 2, #ARGV, 2 do
  out[#out + 1] = position(ARGV[i], ARGV[i + 1])
  out[#out + 1] = withtuple and tuple_position(ARGV[i], ARGV[i + 1]) or 0
end
return out
