-- percentile.lua: what a board, or one shard of a sharded board, knows of
-- a member's place, from one snapshot (read-only).
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  the id: its board, or its own shard; '' for every other shard
--
-- Reply, with an id: {n, rank, bucket}: n the entries of z (ZCARD), rank
--        how many come before the id's entry (ZRANK; -1 when the id is not
--        in z: absent, or hidden), bucket the histogram bucket of its score
--        (side.lua's bucket; 0 when absent).
--        Without: {n, complete, bucket, count, bucket, count, ...}: the
--        shard's histogram (KEYS[KHIST]), complete 1 when its counts add
--        up to n, else 0 (entries written before the shard kept counts).

local n = redis.call('ZCARD', KEYS[KZ])
if ARGV[1] ~= '' then
  local m, s = find_member(ARGV[1])
  if not m then return {n, -1, 0} end
  return {n, redis.call('ZRANK', KEYS[KZ], m), bucket(s)}
end
if not HIST then return {n, 0} end
local h = redis.call('HGETALL', KEYS[KHIST])
local sum = 0
for i = 2, #h, 2 do sum = sum + tonumber(h[i]) end
local out = {n, sum == n and 1 or 0}
for i = 1, #h do out[#out + 1] = h[i] end
return out
