-- submit.lua: write one entry under a policy, atomically.
--
-- KEYS: z, m, d, v, c (see common.lua)
-- ARGV[1]  spec (see common.lua)
-- ARGV[2]  id
-- ARGV[3]  policy: 'r' replace, 'b' best (keep the better whole tuple),
--          'f' per-field operators
-- ARGV[4]  operators, one char per field ('f' only): 's' set, 'a' add,
--          'x' max, 'n' min, 'k' keep. For a new id every operator sets.
-- ARGV[5]  expectation: '' none; '-' the id must be absent; '=' the id must
--          still be stored as ARGV[6] (score) and ARGV[7] (member)
-- ARGV[6]  expected score, ARGV[7] expected member
-- ARGV[8]  '1' to set member data to ARGV[9], '' to leave it
-- ARGV[9]  member data
-- ARGV[10..] one value per field, as %.17g strings
--
-- Reply: {'ok', member, score, rank, changed, trimmed}
--        rank is the new ordinal rank (1 = best), 0 when trimmed by the cap;
--        changed and trimmed are 1 or 0.
--    or  {'conflict'} when the expectation does not hold (nothing written).
-- Error: 'TBRANGE <field index> <value>' when a value would leave its
--        field's range (nothing written).

local L = parse_spec(ARGV[1])
local id, policy, ops = ARGV[2], ARGV[3], ARGV[4]
local oldm = find_member(L, id)
local olds = oldm and tonumber(redis.call('ZSCORE', KEYS[1], oldm))

local expect = ARGV[5]
if (expect == '-' and oldm) or (expect == '=' and
    (oldm ~= ARGV[7] or olds ~= tonumber(ARGV[6]))) then
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
if ARGV[8] == '1' then redis.call('HSET', KEYS[3], id, ARGV[9]) end

local trimmed = 0
if L.cap > 0 and redis.call('ZCARD', KEYS[1]) > L.cap then
  local gone = redis.call('ZRANGE', KEYS[1], L.cap, -1, 'WITHSCORES')
  for i = 1, #gone, 2 do
    remove_entry(L, tonumber(gone[i + 1]), gone[i])
    if gone[i] == nm then trimmed = 1 end
  end
end
if L.expireat > 0 then
  for i = 1, 5 do redis.call('PEXPIREAT', KEYS[i], L.expireat) end
end

local rank = redis.call('ZRANK', KEYS[1], nm)
return {'ok', nm, fmt(ns), rank and rank + 1 or 0, changed and 1 or 0, trimmed}
