-- setdata.lua: set the member data of an id that is on the board.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  id
-- ARGV[2]  data
-- ARGV[3]  expire-at in Unix ms for every key ('0': leave expiry alone)
--
-- Reply: 1 when written, 0 when the id is not on the board (nothing written).
-- Error: 'TBRULE closed <id>' outside a tournament's time (RULES), as a
--        write's (nothing written).


if closed(false) then return redis.error_reply('TBRULE closed ' .. ARGV[1]) end
if not find_member(ARGV[1]) and not find_hidden(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[KD], ARGV[1], ARGV[2])
if mirror then mirror(ARGV[1]) end
if ARGV[3] ~= '0' then
  for i = 1, #KEYS do redis.call('PEXPIREAT', KEYS[i], ARGV[3]) end
end
return 1
