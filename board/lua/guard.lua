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
