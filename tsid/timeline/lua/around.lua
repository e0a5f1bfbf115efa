-- around.lua: up to n messages around a cursor (stored or not), its own
-- message excluded, oldest first: floor(n/2) older and the rest newer, the
-- window filled from the other side where one side runs short.
--
-- ARGV: the cursor, as position() reads it (position_*.lua); ARGV[5] n
--
-- Reply: {members, older, newer}; older (newer) is 1 when older (newer)
-- messages exist beyond the window.

local n = tonumber(ARGV[5])
local p, eq = position()
local older, newer = p, redis.call('ZCARD', Z) - p - eq
local o = math.floor(n / 2)
local w = n - o
if older < o then w, o = w + o - older, older end
if newer < w then o, w = math.min(older, o + w - newer), newer end
local got = {}
if o > 0 then got = redis.call('ZRANGE', Z, p - o, p - 1) end
if w > 0 then
  local s = p + eq
  for _, m in ipairs(redis.call('ZRANGE', Z, s, s + w - 1)) do got[#got + 1] = m end
end
local more_older, more_newer = 0, 0
if older > o then more_older = 1 end
if newer > w then more_newer = 1 end
return {got, more_older, more_newer}
