-- shardprobe.lua: one shard's counts for entries stored on other shards
-- of a sharded board (Get, Rank, a ranked write, Among, a list's
-- modified competition ranks): how many of its entries come before each.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  the counts asked beside the position: 'c' the entries of
--          better tuples, 'm' the entries of better or equal tuples
-- ARGV[2], ARGV[3], …  score and member of each entry, by pairs
--
-- Reply: {total, position, tupleposition, upto, ...}: total is the number
--        of entries of the shard, then three counts per pair (position.lua,
--        ranks.lua's upto; the last two 0 unless asked for).


local out = {redis.call('ZCARD', KEYS[KZ])}
local flags = ARGV[1]
local withtuple, withupto = string.find(flags, 'c', 1, true), string.find(flags, 'm', 1, true)
local R = withupto and ranks()
for i = 2, #ARGV, 2 do
  out[#out + 1] = position(ARGV[i], ARGV[i + 1])
  out[#out + 1] = withtuple and tuple_position(ARGV[i], ARGV[i + 1]) or 0
  out[#out + 1] = withupto and R.upto(ARGV[i], ARGV[i + 1]) or 0
end
return out
