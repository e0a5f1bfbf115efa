-- delete_split.lua: remove the message of one ID.
--
-- ARGV[1]  ID prefix, ARGV[2] its score
--
-- Reply: 1 if it was stored, else 0.

local _, m = find(ARGV[1], ARGV[2])
if not m then return 0 end
return redis.call('ZREM', Z, m)
