-- keeptop.lua: retop(), the writes' upkeep of the best entries of a board
-- with KeepTop (TOPN > 0), kept in KEYS[KT] so that handles with CacheTop
-- serve them from client memory (cache.go): a string holding, for each
-- of the best TOPN entries, best first, "<length of member>:<member>
-- <score>\n" (the score as ZRANGE ... WITHSCORES gives it). An empty
-- board has no such key. The key expires with the sorted set.
--
-- A write calls retop() when it changed the best TOPN entries (submit.lua
-- knows from the ranks before and after; the rarer writes, whenever they
-- changed the board), so that a busy board rewrites the key, and tells
-- the clients that cache it, only when its best entries change. A
-- function only when TOPN > 0: the other boards build no closure.

local retop = TOPN > 0 and function()
  local got = redis.call('ZRANGE', KEYS[KZ], 0, TOPN - 1, 'WITHSCORES')
  if #got == 0 then
    redis.call('DEL', KEYS[KT])
    return got
  end
  local parts = {}
  for i = 1, #got, 2 do
    parts[#parts + 1] = #got[i] .. ':' .. got[i] .. ' ' .. got[i + 1] .. '\n'
  end
  redis.call('SET', KEYS[KT], table.concat(parts))
  local ttl = redis.call('PTTL', KEYS[KZ])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[KT], ttl) end
  return got
end
