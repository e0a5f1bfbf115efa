-- timeline: before
local IDLEN = 17
local SUF = 6
local MAXLEN = 0
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
-- fragment: before_split.lua
-- before_split.lua: the n+1 messages just older than a cursor (stored or
-- not), oldest first; the Go side keeps the newest n and reads the extra
-- one as "more".
--
-- ARGV[1]  cursor ID prefix, ARGV[2] its score, ARGV[3] n
--
-- Reply: the members, ascending.

local p = find(ARGV[1], ARGV[2])
if p == 0 then return {} end
return redis.call('ZRANGE', Z, math.max(0, p - tonumber(ARGV[3]) - 1), p - 1)
