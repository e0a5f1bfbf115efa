-- around.lua: n messages around an anchor (stored or not), oldest first,
-- as central as the edges allow: the anchor's own message when it is
-- stored, floor(slots/2) older messages and the rest newer, where slots is
-- n less the anchor's own; the window slides inward at the edges, so it
-- holds min(n, ZCARD) messages.
--
-- ARGV: the anchor, as position() reads it (position_*.lua); ARGV[5] n,
-- at least 1
--
-- Reply: {members, older, newer}; older (newer) is 1 when older (newer)
-- messages exist beyond the window.

local n = tonumber(ARGV[5])
local p, eq = position()
local total = redis.call('ZCARD', Z)
local start = p - math.floor((n - eq) / 2)
if start + n > total then start = total - n end
if start < 0 then start = 0 end
local got = redis.call('ZRANGE', Z, start, start + n - 1)
local more_older, more_newer = 0, 0
if start > 0 then more_older = 1 end
if start + n < total then more_newer = 1 end
return {got, more_older, more_newer}
