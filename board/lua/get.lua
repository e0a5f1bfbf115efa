-- get.lua: one id's score and ordinal rank, from one snapshot: the lean
-- form of rank.lua for a read that asks for nothing more (Get without
-- extras, the ordinal Rank of a key-suffix board).
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  id
--
-- Reply: {} when the id is not on the board (or hidden), else {member,
--        score, ordinal}.

local m = ARGV[1]
if STRATEGY == 's' and WIDTH > 0 then m = buckets().get(KEYS[KM], WIDTH, m) end
local r = m and redis.call('ZRANK', KEYS[KZ], m)
if not r then return {} end
return {m, redis.call('ZSCORE', KEYS[KZ], m), r + 1}
