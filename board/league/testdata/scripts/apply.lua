-- league: apply
-- fragment: apply.lua
-- apply.lua: record the next tier of the members one cohort moves, once:
-- the cohort is marked rolled in the same script, and a cohort already
-- marked is left as it is.
--
-- KEYS[1] HASH id -> tier of the next placement
-- KEYS[2] HASH of the season's rolled cohorts: 'tier:n' -> 1
-- KEYS[3] the partition's meta HASH
-- ARGV[1] the season's label   ARGV[2] the cohort, 'tier:n'
-- ARGV[3..] pairs: id, its next tier
--
-- Reply: 1 when applied, 0 when the cohort was rolled already.
-- Error: 'TBLEAGUE open <season>' when the season is not closed (its
--        standings may still change; nothing written).

if redis.call('HEXISTS', KEYS[3], 'closed:' .. ARGV[1]) == 0 then
  return redis.error_reply('TBLEAGUE open ' .. ARGV[1])
end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 0 end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[2], ARGV[2], 1)
return 1
