-- allow.lua: admit n requests to a sliding-window log, all or none.
--
-- KEYS[1]  the log: a sorted set, one entry per admitted request,
--          score  = admission time in µs by Redis's TIME,
--          member = that time in decimal (16 digits until the year 2286),
--                   followed by ':<position>' when the plain time is
--                   taken (several requests in one microsecond).
-- ARGV[1]  limit: the most requests admitted in any window (>= 1)
-- ARGV[2]  window in µs (>= 1)
-- ARGV[3]  n: requests asked for, 1 <= n <= min(limit, 1000) (AllowN
--          refuses a larger n before calling: ErrExceedsLimit when no
--          window admits it, ErrArgument over MaxAllowN)
-- ARGV[4]  the shortest time to live an admission leaves the key, in ms:
--          the window rounded up, plus 1
-- ARGV[5]  the time to live an admission sets when the key's is shorter
--          than ARGV[4] (or the key is new), in ms: ARGV[4] plus the
--          window rounded up
--
-- An entry of time s counts at time now while now - window < s.
--
-- Bounded work: a call adds at most 1000 entries (MaxAllowN) and removes
-- at most DROP entries that left the window; a longer backlog of them (a
-- log of more than DROP entries that aged out at once) goes over the next
-- admissions, DROP each. Entries past the window that are still stored
-- never count: count comes from ZCOUNT.
--
-- Reply, integers: {remaining, now} for an admission,
--                  {remaining, now, retry, reset} for a refusal:
--   remaining  requests the window admits after the call
--   now        Redis's clock in µs
--   retry      µs until n fits (> 0; -1 only for an n > limit, which the
--              caller never sends and reads as a bad reply)
--   reset      µs until the log is empty (0 if it is)
-- Error: 'TBFOREIGN <member>' when the entry a call reads is not one of
--        this script's (digits, then ':' and digits or nothing; Lua's
--        tonumber would also read 'nan', '0x10' or '1e999'), so the key
--        was written by another
--        program. Nothing is added; entries past the window may have been
--        dropped.
--
-- Lean on purpose, each choice measured: entries that left the window are
-- dropped by admissions only (a refusal of one request reads two entries
-- and writes nothing); the expiry is extended only when it runs short
-- (PTTL is a cheap read, PEXPIRE a write that is propagated); arguments to
-- redis.call are strings (a Lua number is formatted with %.17g); times are
-- read from members rather than WITHSCORES; no local functions (a closure
-- costs time on every call).

local DROP = 1000 -- MaxAllowN
local key = KEYS[1]
local limit, w, n = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local t = redis.call('TIME')
local us = t[2]
if #us < 6 then us = string.rep('0', 6 - #us) .. us end
local stamp = t[1] .. us
local now = tonumber(stamp)

-- card may still count entries that left the window, so card + n <= limit
-- admits for sure. Otherwise the j-th newest entry decides, j = limit - n
-- + 1 <= card: n fits once it has left the window, at tj + w.
local card = redis.call('ZCARD', key)
local fits, tj = card + n <= limit, nil
if not fits and n <= limit then
  local idx = string.format('%d', n - limit - 1)
  local m = redis.call('ZRANGE', key, idx, idx)[1]
  tj = tonumber(string.match(m, '^%d+$') or string.match(m, '^(%d+):%d+$'))
  if not tj then return redis.error_reply('TBFOREIGN ' .. m) end
  fits = tj <= now - w
end

-- Drop what left the window (at most DROP entries), so count is exact. A
-- refusal of one request needs no count: j = limit entries are in the
-- window, none remains.
local count = card
if card > 0 and (fits or n > 1) then
  local old = string.format('%d', now - w)
  if card <= DROP then
    count = card - redis.call('ZREMRANGEBYSCORE', key, '-inf', old)
  else
    local stale = redis.call('ZCOUNT', key, '-inf', old)
    if stale > 0 then
      redis.call('ZREMRANGEBYRANK', key, '0', string.format('%d', math.min(stale, DROP) - 1))
    end
    count = card - stale
  end
end

if fits then
  local added = 0
  if n == 1 then
    added = redis.call('ZADD', key, 'NX', stamp, stamp)
  else
    local args = {}
    for pos = count + 1, count + n do
      args[#args + 1], args[#args + 2] = stamp, stamp .. ':' .. pos
    end
    added = redis.call('ZADD', key, 'NX', unpack(args))
  end
  -- A member taken in this microsecond (an earlier call, or before a step
  -- back of the clock): take the next free positions.
  local pos = count + n
  while added < n do
    pos = pos + 1
    added = added + redis.call('ZADD', key, 'NX', stamp, stamp .. ':' .. pos)
  end
  -- Expire when idle, between one and two windows after the last
  -- admission. The expiry is only ever extended: it is touched when the
  -- key is new, or when less than ARGV[4] is left (or none is set), and
  -- ARGV[5] is longer than that. So entries logged under a longer window,
  -- or before a step back of the clock, keep the expiry they were given.
  if count == 0 then
    redis.call('PEXPIRE', key, ARGV[5])
  elseif redis.call('PTTL', key) < tonumber(ARGV[4]) then
    redis.call('PEXPIRE', key, ARGV[5])
  end
  return {limit - count - n, now}
end

-- Refused. An entry's time is its member up to ':'.
local remaining, retry, reset = 0, -1, 0
if count < limit then remaining = limit - count end
if tj then retry = tj + w - now end
if tj and n == limit then
  reset = retry -- j = 1: the newest entry was read already
elseif count > 0 then
  local m = redis.call('ZRANGE', key, '-1', '-1')[1]
  local tm = tonumber(string.match(m, '^%d+$') or string.match(m, '^(%d+):%d+$'))
  if not tm then return redis.error_reply('TBFOREIGN ' .. m) end
  reset = tm + w - now
end
return {remaining, now, retry, reset}
