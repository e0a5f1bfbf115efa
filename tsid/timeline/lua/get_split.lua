-- get_split.lua: the stored member of one ID.
--
-- ARGV[1]  ID prefix, ARGV[2] its score
--
-- Reply: the member, or nil when the ID is not stored.

local _, m = find(ARGV[1], ARGV[2])
return m
