-- timeline: around
local IDLEN = 17
local SUF = 6
local MAXLEN = 1000
local MAXTRIM = 64
local AGECOUNT = 'ZCOUNT'
local AGEMIN = '-inf'
-- fragment: common.lua
-- common.lua: what every timeline script starts with. The Go side writes
-- the timeline's constants, then this file, then the fragments the
-- operation declares (scripts.go), each using only the constants and the
-- fragments before it (find.lua, position_*.lua, retain.lua, then the
-- operation's own):
--
--   local IDLEN = 17   local SUF = 6   local MAXLEN = 0   local MAXTRIM = 1000
--   local AGECOUNT = 'ZCOUNT'   local AGEMIN = '-inf'
--
-- IDLEN the length of a member's ID prefix; SUF the suffix length (hex
-- digits of the rest bits); MAXLEN the count limit (0: none); MAXTRIM the
-- most members one script's retention removes; AGECOUNT and AGEMIN count
-- the members below an age bound: 'ZCOUNT', '-inf' (split) or
-- 'ZLEXCOUNT', '-' (lex).
--
-- KEYS[1] is the room's sorted set, one member per message:
--   split: score = time part;  member = suffix .. time part in hex .. payload
--   lex:   score = 0;          member = time part in hex .. suffix .. payload
-- The first IDLEN bytes (the ID prefix) name the message on their own; the
-- set keeps at most one member per ID prefix, so its ascending order
-- (score, then member bytes) is the ID order.
--
-- Rules: no string ordering with < (it follows the locale): bytes are
-- compared as numbers (string.byte), strings only for equality; no bit
-- library; every key in KEYS; numbers that leave a script are ranks and
-- counts (integers), never scores.

local Z = KEYS[1]
-- fragment: find.lua
-- find.lua (split): find(id, t) looks for the ID prefix id, whose time part
-- (score) is t, by binary search over the ranks of the members of score t:
-- their ID prefixes all end with the same time part and are ordered by
-- suffix, so the first SUF bytes decide. It returns the number of members
-- below the ID and its stored member, or false when it is not stored.

local function find(id, t)
  local lo = redis.call('ZCOUNT', Z, '-inf', '(' .. t)
  local hi = lo + redis.call('ZCOUNT', Z, t, t)
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    local m = redis.call('ZRANGE', Z, mid, mid)[1]
    local c = 0
    for i = 1, SUF do
      local x, y = string.byte(m, i), string.byte(id, i)
      if x ~= y then
        if x < y then c = -1 else c = 1 end
        break
      end
    end
    if c < 0 then lo = mid + 1 elseif c > 0 then hi = mid else return mid, m end
  end
  return lo, false
end
-- fragment: position_split.lua
-- position_split.lua: position() returns the number of members below the
-- anchor (ARGV[1] ID prefix, ARGV[2] score) and 1 if it is stored, else 0.

local function position()
  local p, m = find(ARGV[1], ARGV[2])
  if m then return p, 1 end
  return p, 0
end
-- fragment: around.lua
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
