-- groupremove.lua: remove ids from every board of a group, and from the
-- group's shared member data, atomically. Before it, the Go side writes
-- one function per board, board_1 ... board_n, each the board's constants
-- and its fragments (lookup, side, common, mirror, groupremoveboard)
-- taking (KEYS, ARGV), and the constants
--   local BOARDS = {board_1, ..., board_n}
--   local NKEYS = {keys of board 1, ..., keys of board n}
--   local GROUPDATA = true when a board shares the group's member data
--
-- KEYS: every board's keys (see common.lua), board after board, then,
--       when GROUPDATA, the group's shared member-data HASH
-- ARGV: the ids
--
-- Reply: {ids removed from board 1, ..., from board n}. Every board finds
--        its ids before any board is written: a board that moved to
--        another generation fails the script (WRONGTYPE) with nothing
--        written.

local writes, k = {}, 1
for i = 1, #BOARDS do
  local keys = {}
  for j = 1, NKEYS[i] do keys[j] = KEYS[k]; k = k + 1 end
  writes[i] = BOARDS[i](keys, ARGV)
end
local out = {}
for i = 1, #BOARDS do out[i] = writes[i]() end
if GROUPDATA then redis.call('HDEL', KEYS[k], unpack(ARGV)) end
return out
