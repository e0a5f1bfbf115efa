-- allow.lua: admit n requests to a sliding-window log, all or none.
--
-- KEYS[1]  the log: a sorted set, one entry per admitted request,
--          score  = admission time in µs by Redis's TIME,
--          member = that time in decimal (16 digits until the year 2286),
--                   followed by ':<position>' when the plain time is
--                   taken (several requests in one microsecond).
-- ARGV[1]  limit: the most requests admitted in any window (>= 1)
-- ARGV[2]  window in µs (>= 1)
-- ARGV[3]  n: requests asked for (>= 1)
-- ARGV[4]  the key's time to live after an admission, in ms: the window
--          rounded up, plus 1
--
-- An entry of time s counts at time now while now - window < s.
--
-- Reply {admitted, count, now[, retry, reset]}:
--   admitted  n or 0
--   count     entries in the window after the call
--   now       Redis's clock in µs, as a string
--   retry     refused only: µs until n fits, -1 never (n > limit)
--   reset     refused only: µs until the log is empty (0 if it is)
-- An admission replies the first three: retry is 0, reset the window.
--
-- Lean on purpose, each choice measured: arguments to redis.call are
-- strings (a Lua number is formatted with %.17g), times are read from
-- members rather than WITHSCORES (a score is formatted with %.17g), no
-- local functions (a closure costs time on every call).

local key = KEYS[1]
local limit, n = tonumber(ARGV[1]), tonumber(ARGV[3])
local t = redis.call('TIME')
local us = t[2]
if #us < 6 then us = string.rep('0', 6 - #us) .. us end
local stamp = t[1] .. us
local now = tonumber(stamp)
-- Drop the entries that left the window, then count the rest. (ZCOUNT
-- instead would decode every score of a small set's listpack.)
redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', now - ARGV[2]))
local count = redis.call('ZCARD', key)

if count + n <= limit then
  local added = 0
  if n == 1 then
    added = redis.call('ZADD', key, 'NX', stamp, stamp)
  else
    -- In chunks: unpack has a limit on the values it returns.
    local args, i = {}, 0
    for pos = count + 1, count + n do
      args[i + 1], args[i + 2] = stamp, stamp .. ':' .. pos
      i = i + 2
      if i == 2000 or pos == count + n then
        added = added + redis.call('ZADD', key, 'NX', unpack(args, 1, i))
        i = 0
      end
    end
  end
  -- A member taken in this microsecond (an earlier call, or before a step
  -- back of the clock): take the next free positions.
  local pos = count + n
  while added < n do
    pos = pos + 1
    added = added + redis.call('ZADD', key, 'NX', stamp, stamp .. ':' .. pos)
  end
  -- Expire when idle. An existing key never has its expiry moved earlier
  -- (GT), so entries logged under a longer window, or before a step back
  -- of the clock, stay counted.
  if count == 0 then
    redis.call('PEXPIRE', key, ARGV[4])
  else
    redis.call('PEXPIRE', key, ARGV[4], 'GT')
  end
  return {n, count + n, stamp}
end

-- Refused. The request fits once the j-th newest entry leaves the window,
-- j = limit - n + 1 (count >= j). An entry's time is its member up to ':'.
local retry, reset = -1, 0
if count > 0 then
  local m = redis.call('ZRANGE', key, '-1', '-1')[1]
  reset = (tonumber(m) or tonumber(string.match(m, '^%d+'))) + ARGV[2] - now
  if n <= limit then
    local j = limit - n + 1
    if j > 1 then
      local idx = string.format('%d', -j)
      m = redis.call('ZRANGE', key, idx, idx)[1]
    end
    retry = (tonumber(m) or tonumber(string.match(m, '^%d+'))) + ARGV[2] - now
  end
end
return {0, count, stamp, retry, reset}
