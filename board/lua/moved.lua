-- moved.lua: moved(meta) stores in the meta HASH meta, field F_MOVED, the
-- server's time in Unix milliseconds: the scripts that move a migration or
-- a resharding forward call it in the same script as the step (see
-- lifecycle.go), so that an operator sees how long ago it last moved.

local function moved(meta)
  local t = redis.call('TIME')
  redis.call('HSET', meta, F_MOVED, t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)))
end
