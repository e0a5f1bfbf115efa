-- after_split.lua: the n+1 messages just newer than a cursor (stored or
-- not), oldest first; the Go side keeps the first n and reads the extra
-- one as "more".
--
-- ARGV[1]  cursor ID prefix, ARGV[2] its score, ARGV[3] n
--
-- Reply: the members, ascending.

local p, m = find(ARGV[1], ARGV[2])
if m then p = p + 1 end
return redis.call('ZRANGE', Z, p, p + tonumber(ARGV[3]))
