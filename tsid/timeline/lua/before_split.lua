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
