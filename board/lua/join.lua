-- join.lua: make ids entrants of a tournament (RULES), all or none,
-- atomically.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  expire-at in Unix ms for the entrants HASH and the meta HASH
--          ('0': leave expiry alone)
-- ARGV[2..] the ids
--
-- Like a write, it refuses a board whose stored descriptor is not DESC
-- and makes whole one with none (a window not yet written): see
-- submit.lua.
--
-- Reply: the number of ids that were not entrants yet.
-- Error: 'TBRULE closed <id>' at or after RULES.stop, 'TBRULE full <id>'
--        when the new entrants would be more than RULES.members;
--        'TBGEN', 'TBMISMATCH', 'TBDROPPED' as guard.lua's (nothing
--        written).

local desc, refused = guard(SHARD)
if refused then return refused end
if closed(true) then return redis.error_reply('TBRULE closed ' .. ARGV[2]) end
local new, seen = {}, {}
for i = 2, #ARGV do
  local id = ARGV[i]
  if not seen[id] and redis.call('HEXISTS', KEYS[KA], id) == 0 then
    new[#new + 1] = id
  end
  seen[id] = true
end
if RULES.members > 0 and redis.call('HLEN', KEYS[KA]) + #new > RULES.members then
  return redis.error_reply('TBRULE full ' .. new[1])
end
for _, id in ipairs(new) do redis.call('HSET', KEYS[KA], id, 0) end
if not desc then
  redis.call('HSET', KEYS[KMETA], 'desc', DESC, 'gen', GEN, 'state', 'live')
  if ARGV[1] ~= '0' then redis.call('HSET', KEYS[KMETA], 'expire', ARGV[1]) end
end
if ARGV[1] ~= '0' and #new > 0 then
  redis.call('PEXPIREAT', KEYS[KA], ARGV[1])
  redis.call('PEXPIREAT', KEYS[KMETA], ARGV[1])
end
return #new
