-- top.lua: build the best entries' key of a board with KeepTop
-- (keeptop.lua) from its sorted set, for a cached read that found none,
-- and return them.
--
-- KEYS: the board's keys (see common.lua)
--
-- Reply: {member, score, ...}: the best TOPN entries, best first.
-- Error: 'TBNOTOP' when the board keeps no such key (a handle that read
--        the board before it migrated to a descriptor without KeepTop).

if not retop then return redis.error_reply('TBNOTOP') end
return retop()
