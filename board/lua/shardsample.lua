-- shardsample.lua: one shard's sample for a page read deep into a sharded
-- board: its entries at given positions counted from a base, from which
-- the caller bounds where the page lies in every shard.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  base score, ARGV[2] base member: a position as position.lua
--          takes it ('' and '': the start of the shard)
-- ARGV[3]  stop score, ARGV[4] stop member: the end of the range sampled
--          ('' and '': the end of the shard)
-- ARGV[5]… positions counted from the base, increasing
--
-- Reply: {total, base, stop, score, member, ...}: total is the number of
--        entries of the shard, base and stop the positions of the base and
--        stop, then one pair per position that lies before the stop.


local base, stop = 0, redis.call('ZCARD', KEYS[KZ])
local out = {stop}
if ARGV[1] ~= '' then base = position(ARGV[1], ARGV[2]) end
if ARGV[3] ~= '' then stop = position(ARGV[3], ARGV[4]) end
out[2], out[3] = base, stop
for i = 5, #ARGV do
  local p = base + tonumber(ARGV[i])
  if p >= stop then break end
  local got = redis.call('ZRANGE', KEYS[KZ], p, p, 'WITHSCORES')
  out[#out + 1] = got[2]
  out[#out + 1] = got[1]
end
return out
