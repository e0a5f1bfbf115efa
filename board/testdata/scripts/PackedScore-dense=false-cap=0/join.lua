-- board: join
local STRATEGY = 'p'
local WIDTH = 10
local DENSE = false
local CAP = 0
local RESTMAX = 8589934591
local SHARED = false
local HIDING = false
local TOPN = 0
local FIELDS = function() return {{mul = 8589934592, span = 1048576, min = 0, max = 1.048575e+06, hi = true}, {mul = 4294967296, span = 2, min = 0, max = 1, hi = true}, {mul = 1, span = 4294967296, min = 0, max = 4.294967295e+09, hi = false}, } end
local DESC = [[{"version":1,"radix":2,"fields":[{"name":"points","width":20,"dir":"HigherIsBetter"},{"name":"paid","width":1,"dir":"HigherIsBetter"},{"name":"time","width":32,"dir":"LowerIsBetter"}],"strategy":"PackedScore","cap":0,"denseRanks":false}]]
local GEN = [[0]]
local SHARD = false
local RULES = false
local BOUNDS = false
local HIST = false
local KZ = 1
local KD = 3
local KM = 0
local KV = 0
local KC = 0
local KA = 0
local KH = 0
local KT = 0
local KHIST = 0
local KMETA = 2
-- fragment: guard.lua
-- guard.lua: guard(dropped, span), the check that submit, submitlean,
-- join and hide begin with, before they write anything. It reads the
-- board's descriptor, generation and window span (one HMGET of the meta
-- HASH) and returns the stored descriptor (false for a board without one)
-- and the stored span (false for none), or nil and the error reply the
-- script returns:
--   'TBGEN'      the board is in another generation than the handle's
--                (GEN): dropped and made again by New, in generation 0,
--                since the handle read it. The handle reads it again,
--                writing nothing to keys nothing reads.
--   'TBMISMATCH' the stored descriptor is not the handle's (DESC).
--   'TBDROPPED'  the board has no descriptor and dropped is true: a
--                write that may not make the board again (a shard's, a
--                mirrored one).
--   'TBSPAN <stored span>'  a periodic window whose stored span (its
--                start and end, Unix ms, "start-end") is not span, the
--                handle's: two periods (another zone or alignment) that
--                give one label to different spans of time.
-- span is nil or '' for a board that is not a window (no check).
local function guard(dropped, span)
  local stored = redis.call('HMGET', KEYS[KMETA], 'desc', 'gen', 'span')
  local desc = stored[1]
  if desc and (stored[2] or '0') ~= GEN then return nil, redis.error_reply('TBGEN') end
  if desc and desc ~= DESC then return nil, redis.error_reply('TBMISMATCH') end
  if not desc and dropped then return nil, redis.error_reply('TBDROPPED') end
  if desc and span and span ~= '' and stored[3] and stored[3] ~= span then
    return nil, redis.error_reply('TBSPAN ' .. stored[3])
  end
  return desc, nil, stored[3]
end
-- fragment: rules.lua
-- rules.lua: closed(joining), whether a tournament's time (RULES) refuses
-- a write now, by the server's clock: before RULES.start (unless joining:
-- a Join is taken before the start) or at or after RULES.stop. Every
-- script that writes for a member calls it before it writes anything.
local function closed(joining)
  if not RULES or ((joining or RULES.start == 0) and RULES.stop == 0) then return false end
  local t = redis.call('TIME')
  local now = t[1] * 1000 + math.floor(t[2] / 1000)
  return (not joining and now < RULES.start) or (RULES.stop > 0 and now >= RULES.stop)
end
-- fragment: join.lua
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
