-- archive.lua: the claim and progress of a periodic window's archive, so
-- that it is made exactly once however many callers ask at once, and
-- resumed by another caller when the one making it stops (its lease
-- runs out).
--
-- KEYS[1]  the archive's state HASH: state ('copying' or 'done'), owner,
--          lease (Unix ms, server time), cursor (of the window's Scan),
--          count (entries copied), claims (how many callers made it),
--          opts (the options it is made with, as the first claim gave
--          them)
-- KEYS[2]  the archive board's meta HASH: a claim names the caller's token
--          in its field fence, and the caller's writes to the archive run
--          only while it does (fence.lua): a caller that lost its claim
--          writes nothing more
-- ARGV[1]  'claim' or 'step'
-- ARGV[2]  the caller's token
-- ARGV[3]  the lease, in ms
-- 'claim' only:
-- ARGV[4]  the caller's options (Top and the expiry, as text)
-- 'step' only:
-- ARGV[4]  the cursor after the entries just copied
-- ARGV[5]  how many entries were just copied
-- ARGV[6]  '1' when the copy is complete
-- ARGV[7]  expire-at of the state, Unix ms ('0': never), set when complete
--
-- Reply: 'claim': {'done'}; {'busy'} while another caller's lease runs;
--        {'claimed', cursor, count} when the caller now makes it;
--        {'mismatch', opts} when the archive is made, or being made, with
--        other options than ARGV[4] (nothing written).
--        'step': 1, 0 when the caller no longer holds the claim, -1
--        when the state HASH is gone (flushed, or lost by the server)
--        (nothing written).

local st = redis.call('HMGET', KEYS[1], 'state', 'owner', 'lease', 'cursor', 'count', 'opts')
if ARGV[1] == 'claim' and st[6] and st[6] ~= ARGV[4] then return {'mismatch', st[6]} end
if st[1] == 'done' then
  if ARGV[1] == 'claim' then return {'done'} end
  return 0
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local held = st[1] == 'copying' and tonumber(st[3]) > now
if ARGV[1] == 'claim' then
  if held and st[2] ~= ARGV[2] then return {'busy'} end
  redis.call('HSET', KEYS[1], 'state', 'copying', 'owner', ARGV[2], 'lease', now + tonumber(ARGV[3]), 'opts', ARGV[4])
  redis.call('HSET', KEYS[2], 'fence', ARGV[2])
  redis.call('HINCRBY', KEYS[1], 'claims', 1)
  return {'claimed', st[4] or '', st[5] or '0'}
end
if not st[1] and redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if st[2] ~= ARGV[2] then return 0 end
redis.call('HINCRBY', KEYS[1], 'count', ARGV[5])
redis.call('HSET', KEYS[1], 'cursor', ARGV[4], 'lease', now + tonumber(ARGV[3]))
if ARGV[6] == '1' then
  redis.call('HSET', KEYS[1], 'state', 'done')
  redis.call('HDEL', KEYS[1], 'owner', 'lease')
  redis.call('HDEL', KEYS[2], 'fence')
  if ARGV[7] ~= '0' then redis.call('PEXPIREAT', KEYS[1], ARGV[7]) end
end
return 1
