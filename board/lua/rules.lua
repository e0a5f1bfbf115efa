-- rules.lua: closed(joining), whether a tournament's time (RULES) refuses
-- a write now, by the server's clock: before RULES.start (unless joining:
-- a Join is taken before the start) or at or after RULES.stop. Every
-- script that writes for a member calls it before it writes anything.
local function closed(joining)
  if not RULES or ((joining or RULES.start == 0) and RULES.stop == 0) then return false end
  local t = redis.call('TIME')
  local now = t[1] * 1000 + math.floor(t[2] / 1000)
  return (not joining and now < RULES.start) or (RULES.stop > 0 and now >= RULES.stop)
end
