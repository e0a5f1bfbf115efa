-- position_lex.lua: position() returns the number of members below the
-- anchor and 1 if it is stored, else 0. ARGV[2] is '(' .. ID prefix, which
-- every member of a lower ID sorts below; ARGV[3] is '[' .. the prefix and
-- ARGV[4] '(' .. its successor, which bound the anchor's own member.

local function position()
  local below = redis.call('ZLEXCOUNT', Z, '-', ARGV[2])
  return below, redis.call('ZLEXCOUNT', Z, ARGV[3], ARGV[4])
end
