-- setdata.lua: set the member data of an id that is on the board.
--
-- KEYS: z, m, d, v, c (see common.lua)
-- ARGV[1]  id
-- ARGV[2]  data
-- ARGV[3]  expire-at in Unix ms for every key ('0': leave expiry alone)
--
-- Reply: 1 when written, 0 when the id is not on the board (nothing written).

if not find_member(L, ARGV[1]) then return 0 end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
if ARGV[3] ~= '0' then
  for i = 1, 5 do redis.call('PEXPIREAT', KEYS[i], ARGV[3]) end
end
return 1
