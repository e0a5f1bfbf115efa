-- place.lua: write a member's result in its cohort of the season, placing
-- the member there first if the result is its first of the season:
-- in the last cohort of its tier that still has room, else in the next
-- (opened), exactly once however many results race, in the same script as
-- the write.
--
-- Before it, package board writes board_1(KEYS, ARGV, CHECK), the cohort
-- boards' submit (as a group's write has it), board_keys(prefix), a
-- cohort board's keys from its key prefix, and the constants
--   local SIZE = 50                          members a cohort holds
--   local TIERS = {'bronze', 'silver', ...}  the tiers, lowest first
--
-- KEYS[1] the partition's meta HASH: last, laststart (the latest season
--         placed in and its start), closed:<season>, rolled:<season>
-- KEYS[2] HASH id -> tier (1 = lowest) of the member's next placement
-- KEYS[3] ZSET of the partition's seasons, scored by start (Unix ms)
-- KEYS[4] HASH id -> 'tier:n': the season's placements
-- KEYS[5] HASH tier -> n, its last cohort; 'tier:n' -> members placed in it
-- ARGV[1] id   ARGV[2] the season's label   ARGV[3] its start, Unix ms
-- ARGV[4] the partition's group (the cohort boards' hash tag)
-- ARGV[5] the key remembering the write's request id ('' for none), of
--         the season; ARGV[6] how long it remembers it (ms)
-- ARGV[7..] the cohort board's submit arguments (see board's submit.lua)
--
-- The cohort boards' keys are not in KEYS: the script names them once it
-- has placed the member. They share the partition's hash tag, so its slot.
--
-- A write made already under its request id returns that write's reply
-- and writes nothing, closed season or not; the id must be the same
-- ('TBLEAGUE request <id>' otherwise). The request id is remembered with
-- the partition's 'born' mark, which League.Drop removes.
--
-- Reply: {'tier:n', the submit's reply...}
-- Error: 'TBLEAGUE closed <season>' when the season was rolled, or a
--        later one began in the partition; 'TBLEAGUE unrolled <season>'
--        when a member's first result of a season comes while the
--        partition's previous season is not rolled (roll it, then write
--        again); the board's refusals (submit.lua). Nothing written.

local id, label, start, group = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local req, born = ARGV[5], false
if req ~= '' then
  born = redis.call('HGET', KEYS[1], 'born')
  local done = born and redis.call('GET', req)
  if done then
    local d = cmsgpack.unpack(done)
    if d[3] == born then
      if d[1] ~= id then return redis.error_reply('TBLEAGUE request ' .. d[1]) end
      return d[2]
    end
  end
end
if redis.call('HEXISTS', KEYS[1], 'closed:' .. label) == 1 then
  return redis.error_reply('TBLEAGUE closed ' .. label)
end
local where = redis.call('HGET', KEYS[4], id)
local tier, n, fill, newSeason
if where then
  tier, n = string.match(where, '^(%d+):(%d+)$')
  tier = tonumber(tier)
else
  local m = redis.call('HMGET', KEYS[1], 'last', 'laststart')
  if m[1] and m[1] ~= label then
    if start < tonumber(m[2]) then return redis.error_reply('TBLEAGUE closed ' .. label) end
    if redis.call('HEXISTS', KEYS[1], 'rolled:' .. m[1]) == 0 then
      return redis.error_reply('TBLEAGUE unrolled ' .. m[1])
    end
  end
  newSeason = m[1] ~= label
  tier = tonumber(redis.call('HGET', KEYS[2], id) or '1')
  n = tonumber(redis.call('HGET', KEYS[5], tier) or '0')
  fill = SIZE
  if n > 0 then fill = tonumber(redis.call('HGET', KEYS[5], tier .. ':' .. n)) end
  if fill >= SIZE then n, fill = n + 1, 0 end
  where = tier .. ':' .. n
end

local keys = board_keys('tb:{' .. group .. '}:{' .. label .. ':' .. TIERS[tier] .. ':' .. n .. '}:')
local args = {}
for i = 7, #ARGV do args[#args + 1] = ARGV[i] end
local r = board_1(keys, args, true)
if r ~= 'ok' then return r end
if fill then
  redis.call('HSET', KEYS[5], tier, n, where, fill + 1)
  redis.call('HSET', KEYS[4], id, where)
  if newSeason then
    redis.call('HSET', KEYS[1], 'last', label, 'laststart', ARGV[3])
    redis.call('ZADD', KEYS[3], start, label)
  end
end
r = board_1(keys, args, false)
local full = r
if #r == 3 then
  full = {where, r[1], r[2], r[3], args[4], args[3]} -- the member and score sent
end
table.insert(r, 1, where)
if req ~= '' then
  if not born then
    local t = redis.call('TIME')
    born = t[1] .. '.' .. t[2]
    redis.call('HSET', KEYS[1], 'born', born)
  end
  redis.call('SET', req, cmsgpack.pack({id, full, born}), 'PX', ARGV[6])
end
return r
