-- setdata.lua: set the member data of an id that is on the board.
--
-- KEYS: z, m, d, v, c (see common.lua)
-- ARGV[1]  spec (see common.lua)
-- ARGV[2]  id
-- ARGV[3]  data
--
-- Reply: 1 when written, 0 when the id is not on the board (nothing written).

local L = parse_spec(ARGV[1])
if not find_member(L, ARGV[2]) then return 0 end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
return 1
