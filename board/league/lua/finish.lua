-- finish.lua: mark a season rolled in one partition once every cohort of
-- it is (apply.lua): the partition then places members in the next
-- season (place.lua).
--
-- KEYS[1] the partition's meta HASH   KEYS[2] the season's cohorts HASH
-- KEYS[3] HASH of the season's rolled cohorts
-- ARGV[1] the season's label
--
-- Reply: 1 when marked (or marked already), 0 when a cohort is not
--        rolled yet (nothing written).

local c = redis.call('HGETALL', KEYS[2])
for i = 1, #c, 2 do
  if not string.find(c[i], ':', 1, true) then
    for n = 1, tonumber(c[i + 1]) do
      if redis.call('HEXISTS', KEYS[3], c[i] .. ':' .. n) == 0 then return 0 end
    end
  end
end
redis.call('HSET', KEYS[1], 'rolled:' .. ARGV[1], 1)
return 1
