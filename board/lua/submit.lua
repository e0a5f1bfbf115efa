-- submit.lua: write one entry under a policy, atomically.
--
-- KEYS: z, m, d, v, c (see common.lua)
-- ARGV[1]  id
-- ARGV[2]  policy: 'r' replace, 'b' best (keep the better whole tuple),
--          'f' per-field operators
-- ARGV[3]  operators, one char per field ('f' only): 's' set, 'a' add,
--          'x' max, 'n' min, 'k' keep. For a new id every operator sets.
-- ARGV[4]  expectation: '' none; '-' the id must be absent; '=' the id must
--          still be stored as ARGV[5] (score) and ARGV[6] (member)
-- ARGV[5]  expected score, ARGV[6] expected member
-- ARGV[7]  '1' to set member data to ARGV[8], '' to leave it
-- ARGV[8]  member data
-- ARGV[9]  expire-at in Unix ms for every key ('0': leave expiry alone)
-- ARGV[10..] one value per field, as %.17g strings
--
-- Reply: {'ok', member, score, rank, changed, trimmed}
--        rank is the new ordinal rank (1 = best), 0 when trimmed by the cap;
--        changed and trimmed are 1 or 0.
--    or  {'conflict'} when the expectation does not hold (nothing written).
-- Error: 'TBRANGE <field index> <value>' when a value would leave its
--        field's range (nothing written).

local id, policy, ops = ARGV[1], ARGV[2], ARGV[3]
local oldm, olds = find_member(L, id)
olds = oldm and tonumber(olds)

local expect = ARGV[4]
if (expect == '-' and oldm) or (expect == '=' and
    (oldm ~= ARGV[6] or olds ~= tonumber(ARGV[5]))) then
  return {'conflict'}
end

local ov = oldm and decode(L, olds, oldm)
local nv = {}
for i, f in ipairs(L.f) do
  local x = tonumber(ARGV[9 + i])
  if ov and policy == 'f' then
    local op = string.sub(ops, i, i)
    if op == 'a' then x = ov[i] + x
    elseif op == 'x' then x = math.max(ov[i], x)
    elseif op == 'n' then x = math.min(ov[i], x)
    elseif op == 'k' then x = ov[i] end
  end
  if not (x >= f.min and x <= f.max) then
    return redis.error_reply('TBRANGE ' .. i .. ' ' .. fmt(x))
  end
  nv[i] = x
end

local function better(a, b)
  for i, f in ipairs(L.f) do
    if a[i] ~= b[i] then return (a[i] > b[i]) == f.hi end
  end
  return false
end
if ov and policy == 'b' and not better(nv, ov) then nv = ov end

local ns, nm = encode(L, nv, id)
local changed = oldm ~= nm or olds ~= ns
if changed then
  if oldm then
    redis.call('ZREM', KEYS[1], oldm)
    dense_add(L, olds, oldm, -1)
  end
  redis.call('ZADD', KEYS[1], fmt(ns), nm)
  if L.strategy == 's' then redis.call('HSET', KEYS[2], id, nm) end
  dense_add(L, ns, nm, 1)
end
if ARGV[7] == '1' then redis.call('HSET', KEYS[3], id, ARGV[8]) end

local trimmed = 0
if L.cap > 0 and redis.call('ZCARD', KEYS[1]) > L.cap then
  local gone = redis.call('ZRANGE', KEYS[1], L.cap, -1, 'WITHSCORES')
  for i = 1, #gone, 2 do
    remove_entry(L, tonumber(gone[i + 1]), gone[i])
    if gone[i] == nm then trimmed = 1 end
  end
end
if ARGV[9] ~= '0' then
  for i = 1, 5 do redis.call('PEXPIREAT', KEYS[i], ARGV[9]) end
end

local rank = redis.call('ZRANK', KEYS[1], nm)
return {'ok', nm, fmt(ns), rank and rank + 1 or 0, changed and 1 or 0, trimmed}
