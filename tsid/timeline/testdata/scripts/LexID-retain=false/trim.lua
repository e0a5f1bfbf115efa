-- timeline: trim
local IDLEN = 17
local SUF = 6
local MAXLEN = 0
local MAXTRIM = 64
local AGECOUNT = 'ZLEXCOUNT'
local AGEMIN = '-'
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
-- fragment: retain.lua
-- retain.lua: trim(bound) applies the retention and returns how many
-- messages it removed, at most MAXTRIM (a longer backlog goes over the
-- next calls). bound is '' (no age limit) or the exclusive bound below
-- which messages are too old: '(' .. time part (split) or '(' .. its hex
-- (lex, compared with the ID prefix), or '+inf' / '+' when every message
-- is. The too old are the lowest ranks: AGECOUNT counts them, and they
-- go by rank. Then MAXLEN keeps the newest.

local function trim(bound)
  local removed = 0
  if bound ~= '' then
    local k = math.min(redis.call(AGECOUNT, Z, AGEMIN, bound), MAXTRIM)
    if k > 0 then
      removed = redis.call('ZREMRANGEBYRANK', Z, 0, k - 1)
    end
  end
  if MAXLEN > 0 then
    local k = math.min(redis.call('ZCARD', Z) - MAXLEN, MAXTRIM - removed)
    if k > 0 then
      removed = removed + redis.call('ZREMRANGEBYRANK', Z, 0, k - 1)
    end
  end
  return removed
end
-- fragment: trim.lua
-- trim.lua: apply the retention now (after retain.lua), alone or after
-- append.lua.
--
-- ARGV[1]  age bound (see retain.lua), '' for none
--
-- Reply: the number of messages removed.

return trim(ARGV[1])
