-- board: top
local STRATEGY = 'p'
local WIDTH = 10
local DENSE = false
local CAP = 0
local RESTMAX = 8589934591
local SHARED = false
local HIDING = false
local TOPN = 0
local FIELDS = function() return {{mul = 8589934592, span = 1048576, min = 0, max = 1.048575e+06, hi = true}, {mul = 4294967296, span = 2, min = 0, max = 1, hi = true}, {mul = 1, span = 4294967296, min = 0, max = 4.294967295e+09, hi = false}, } end
local DESC = [[{"version":1,"radix":2,"fields":[{"name":"points","width":20,"dir":"HigherIsBetter"},{"name":"paid","width":1,"dir":"HigherIsBetter"},{"name":"time","width":32,"dir":"LowerIsBetter"}],"strategy":"PackedScore","cap":0,"denseRanks":false}]]
local GEN = [[1]]
local SHARD = false
local RULES = false
local BOUNDS = false
local HIST = false
local KZ = 1
local KD = 3
local KM = 0
local KV = 0
local KC = 0
local KA = 10
local KH = 0
local KT = 0
local KHIST = 0
local KMETA = 2
local TKZ = 4
local TKD = 8
local TKM = 5
local TKV = 6
local TKC = 7
local KX = 9
local T_STRATEGY = 's'
local T_WIDTH = 9
local T_DENSE = true
local T_CAP = 100
local T_RESTMAX = 536870911
local T_SHARED = false
local T_HIDING = false
local T_TOPN = 0
local T_FIELDS = function() return {{mul = 536870912, span = 16777216, min = 0, max = 1.7976931348623157e+308, hi = true}, {mul = 268435456, span = 2, min = 0, max = 1, hi = true}, {mul = 256, span = 1048576, min = 0, max = 1.048575e+06, hi = false}, {mul = 1, span = 256, min = 0, max = 255, hi = true}, } end
local T_FROM = {1, 2, 3, 0}
local T_DEF = {0, 0, 0, 3}
local T_MEMBERS = true
-- fragment: keeptop.lua
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
-- fragment: top.lua
-- top.lua: build the best entries' key of a board with KeepTop
-- (keeptop.lua) from its sorted set, for a cached read that found none,
-- and return them.
--
-- KEYS: the board's keys (see common.lua)
--
-- Reply: {member, score, ...}: the best TOPN entries, best first.
-- Error: 'TBNOTOP' when the board keeps no such key (a handle that read
--        the board before it migrated to a descriptor without KeepTop).

if not retop then return redis.error_reply('TBNOTOP') end
return retop()
