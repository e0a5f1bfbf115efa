-- clear.lua: empty a board, keeping its descriptor and settings,
-- atomically.
--
-- KEYS[1]   the board's meta HASH
-- KEYS[2..] the data keys of its current generation, as the caller read
--           it: z, i, v, c, the entrants a and its own member data d
--           (never a group's shared data HASH)
-- ARGV[1]   the board's descriptor, as the caller's handle holds it
-- ARGV[2]   the generation, as read from the meta HASH
-- ARGV[3]   a periodic window's span, as the handle holds it ('' for
--           none: see submit.lua)
--
-- Reply: 'cleared'; 'stale' when the stored descriptor or generation is
--        no longer ARGV[1] and ARGV[2] (nothing removed: read them
--        again); 'busy' when the board is not live: migrating, or a
--        shard whose sharded board changes its shards (nothing removed);
--        'span' when the window is stored with another span than
--        ARGV[3] (nothing removed).

local m = redis.call('HMGET', KEYS[1], F_DESC, F_GEN, F_STATE, F_SPAN)
-- A meta HASH without a generation or a state is in generation 0, live.
if m[1] ~= ARGV[1] or (m[2] or '0') ~= ARGV[2] then return 'stale' end
if ARGV[3] ~= '' and m[4] and m[4] ~= ARGV[3] then return 'span' end
if (m[3] or PHASE_LIVE) ~= PHASE_LIVE then return 'busy' end
redis.call('UNLINK', unpack(KEYS, 2))
redis.call('HDEL', KEYS[1], 'born') -- forget the request ids remembered (submit.lua)
return 'cleared'
