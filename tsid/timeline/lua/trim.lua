-- trim.lua: apply the retention now (retain.lua is always included).
--
-- ARGV[1]  age bound (see retain.lua), '' for none
--
-- Reply: the number of messages removed.

return trim(ARGV[1])
