-- mirrorids.lua: mirror (mirror.lua) the given ids into a migration's
-- target again: the ids of the misfit set, once their entries may have
-- been fixed.
--
-- KEYS: the migrating board's keys (see keys.go), then its meta HASH last
-- ARGV[1]    the target generation, as read from the meta HASH
-- ARGV[2..]  ids
--
-- Reply: the number of ids left in the misfit set.
-- Error: 'TBSTALE' when no migration to ARGV[1] is under way (nothing
--        written).

if redis.call('HGET', KEYS[#KEYS], F_TGEN) ~= ARGV[1] then return redis.error_reply('TBSTALE') end
for i = 2, #ARGV do mirror(ARGV[i]) end
mirror_expiry()
return redis.call('SCARD', KEYS[KX])
