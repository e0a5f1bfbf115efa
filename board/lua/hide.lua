-- hide.lua: hide members or show them again (Options.Hiding), atomically.
-- A hidden entry moves from z to h with its score and member: every read
-- of others reads z alone, so it behaves as if the entry were absent,
-- ranks of every kind included (the dense index forgets its tuple); its
-- member data and id lookup stay.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]   'h' to hide, 's' to show
-- ARGV[2..] ids
--
-- Reply: the number of ids hidden (or shown) by this call: those already
--        so, and those not on the board, do not count.
-- Error: 'TBGEN', 'TBMISMATCH' as guard.lua's (nothing written).

local _, refused = guard(false)
if refused then return refused end
local S, n, hide = side(), 0, ARGV[1] == 'h'
for i = 2, #ARGV do
  local m, s
  if hide then m, s = find_member(ARGV[i]) else m, s = find_hidden(ARGV[i]) end
  if m then
    redis.call('ZREM', hide and KEYS[KZ] or KEYS[KH], m)
    redis.call('ZADD', hide and KEYS[KH] or KEYS[KZ], s, m)
    S.dense(s, m, hide and -1 or 1)
    n = n + 1
  end
end
if retop and n > 0 then retop() end
-- A window's keys expire: those this call made again with them.
local expire = n > 0 and redis.call('HGET', KEYS[KMETA], 'expire')
if expire then
  for i = 1, #KEYS do redis.call('PEXPIREAT', KEYS[i], expire) end
end
return n
