-- timeline: remove
local IDLEN = 17
local SUF = 6
local MAXLEN = 1000
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
-- fragment: remove_lex.lua
-- remove_lex.lua: remove the messages of k IDs.
--
-- ARGV     k pairs: '[' .. ID prefix, '(' .. its successor, the bounds of
--          the ID's member
--
-- Reply: the number of messages removed (an ID given twice counts once).

local removed = 0
for i = 1, #ARGV, 2 do
  local m = redis.call('ZRANGE', Z, ARGV[i], ARGV[i + 1], 'BYLEX', 'LIMIT', 0, 1)[1]
  if m then removed = removed + redis.call('ZREM', Z, m) end
end
return removed
