-- append.lua: store k messages, each new or replacing the stored message
-- of its ID, then apply the retention, atomically.
--
-- ARGV[1]         age bound for trim (see retain.lua), '' for none
-- ARGV[2]         k, the number of messages
-- ARGV[3..2+2k]   score, member pairs (lex: every score '0')
--
-- Reply: the next fragment's: trim.lua (the number of messages the
-- retention removed) when the timeline retains, else none.lua (0).
--
-- A stored message of the same ID has the same ID prefix, so once the new
-- member is in, the old one is its neighbour by rank: it is removed there.

for i = 3, 2 + 2 * tonumber(ARGV[2]), 2 do
  local member = ARGV[i + 1]
  if redis.call('ZADD', Z, ARGV[i], member) == 1 then
    local r = redis.call('ZRANK', Z, member)
    local id = string.sub(member, 1, IDLEN)
    for _, m in ipairs(redis.call('ZRANGE', Z, math.max(r - 1, 0), r + 1)) do
      if m ~= member and string.sub(m, 1, IDLEN) == id then
        redis.call('ZREM', Z, m)
      end
    end
  end
end
