-- trim.lua: apply the retention now (after retain.lua), alone or after
-- append.lua.
--
-- ARGV[1]  age bound (see retain.lua), '' for none
--
-- Reply: the number of messages removed.

return trim(ARGV[1])
