-- guard.lua: guard(dropped), the check that submit, submitlean, join
-- and hide begin with, before they write anything. It reads the board's
-- descriptor and generation (one HMGET of the meta HASH) and returns the
-- stored descriptor (false for a board without one), or nil and the error
-- reply the script returns:
--   'TBGEN'      the board is in another generation than the handle's
--                (GEN): dropped and made again by New, in generation 0,
--                since the handle read it. The handle reads it again,
--                writing nothing to keys nothing reads.
--   'TBMISMATCH' the stored descriptor is not the handle's (DESC).
--   'TBDROPPED'  the board has no descriptor and dropped is true: a
--                write that may not make the board again (a shard's, a
--                mirrored one).
local function guard(dropped)
  local stored = redis.call('HMGET', KEYS[KMETA], 'desc', 'gen')
  local desc = stored[1]
  if desc and (stored[2] or '0') ~= GEN then return nil, redis.error_reply('TBGEN') end
  if desc and desc ~= DESC then return nil, redis.error_reply('TBMISMATCH') end
  if not desc and dropped then return nil, redis.error_reply('TBDROPPED') end
  return desc
end
