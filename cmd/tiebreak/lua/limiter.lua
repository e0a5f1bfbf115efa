-- limiter.lua: read a rate-limited key's log, writing nothing.
--
-- KEYS[1]  the log: a sorted set, one entry per admitted request, score
--          its admission time in µs by Redis's TIME, member that time in
--          decimal, followed by ':<position>' for some (see ratelimit)
-- ARGV[1]  the window in µs (>= 1)
--
-- An entry of time s counts at time now while now - window < s, as in
-- ratelimit's allow.lua.
--
-- Reply, strings: {now, count, oldest, newest, entries, pttl}:
--   now      Redis's clock in µs
--   count    entries in the window
--   oldest   the member of the oldest entry in the window ('' if none)
--   newest   the member of the newest entry ('' if the log is empty)
--   entries  every entry of the log, those past the window included
--   pttl     the key's time to live in ms (-2: no key, -1: none)
-- Times are read from members, never through a Lua number's tostring.

local key = KEYS[1]
local t = redis.call('TIME')
local us = t[2]
if #us < 6 then us = string.rep('0', 6 - #us) .. us end
local now = tonumber(t[1] .. us)
local from = '(' .. string.format('%d', now - tonumber(ARGV[1]))
local count = redis.call('ZCOUNT', key, from, '+inf')
local oldest = redis.call('ZRANGE', key, from, '+inf', 'BYSCORE', 'LIMIT', '0', '1')[1] or ''
local newest = redis.call('ZRANGE', key, '-1', '-1')[1] or ''
return {t[1] .. us, tostring(count), oldest, newest, tostring(redis.call('ZCARD', key)), tostring(redis.call('PTTL', key))}
