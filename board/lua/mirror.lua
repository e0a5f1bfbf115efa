-- mirror.lua: mirror(id), kept by the scripts of a board that is
-- migrating. It makes the target keys hold id as the source keys hold it
-- now, re-encoded for the target: its entry (or none), its member data and
-- its place in the target's dense index, then trims the target to its cap.
-- Every write of a migrating board calls it for each id it touched, in the
-- same script, and the copy (copy.lua) calls it for every id of the
-- source, so the target is always the source re-encoded, whatever the
-- order of writes and copy steps.
--
-- Constants, besides the board's own (common.lua): the target's T_STRATEGY,
-- T_WIDTH, T_DENSE, T_CAP, T_RESTMAX and T_FIELDS, as the board's; T_FROM,
-- for each target field the index of the source field of the same name
-- (0: none); T_DEF, the value of each target field that has no source
-- field. KEYS[TKZ], KEYS[TKD], KEYS[TKM], KEYS[TKV], KEYS[TKC] are the
-- target's keys; KEYS[KX] the misfit set: the ids whose values do not fit
-- the target (left out of it, never masked). T_MEMBERS: the target's rules
-- bound its members (Rules.MaxMembers), which count every member already
-- on the board: each id mirrored is recorded in the entrants HASH
-- KEYS[KA], with no attempt scored.

-- The source values of a stored (score, member), as numbers.
local function mirror_values(score, member)
  local F, v = FIELDS(), {}
  local s = tonumber(score)
  local p, first = -s, 1
  if STRATEGY == 's' then
    v[1] = F[1].hi and -s or s
    p, first = 0, 2
    if #F > 1 then p = RESTMAX - tonumber(string.sub(member, 1, WIDTH)) end
  end
  for i = first, #F do
    local raw = math.floor(p / F[i].mul) % F[i].span
    v[i] = F[i].hi and F[i].min + raw or F[i].max - raw
  end
  return v
end

-- The target's score (a string) and member of id holding the source values
-- v, or false when a value does not fit its target field.
local function mirror_encode(id, v)
  local T, nv, p = T_FIELDS(), {}, 0
  for i, f in ipairs(T) do
    local x = T_DEF[i]
    if T_FROM[i] > 0 then x = v[T_FROM[i]] end
    if not (x >= f.min and x <= f.max) or (x ~= math.floor(x) and (T_STRATEGY == 'p' or i > 1)) then
      return false
    end
    nv[i] = x
  end
  local first = (T_STRATEGY == 's') and 2 or 1
  for i = first, #T do
    p = p + (T[i].hi and nv[i] - T[i].min or T[i].max - nv[i]) * T[i].mul
  end
  local s, m = -p, id
  if T_STRATEGY == 's' then
    s = T[1].hi and -nv[1] or nv[1]
    if #T > 1 then m = string.format('%0' .. T_WIDTH .. '.0f', T_RESTMAX - p) .. id end
  end
  if s == 0 then s = 0 end -- one zero: never -0
  return string.format('%.17g', s), m
end

-- Counts a target tuple in (delta 1) or out (-1) of the target's dense index.
local function mirror_dense(score, member, delta)
  if not T_DENSE then return end
  local tk = string.format('%.17g', tonumber(score))
  if T_STRATEGY == 's' then tk = string.sub(member, 1, T_WIDTH) .. tk end
  local n = redis.call('HINCRBY', KEYS[TKC], tk, delta)
  if n <= 0 then
    redis.call('HDEL', KEYS[TKC], tk)
    redis.call('ZREM', KEYS[TKV], tk)
  elseif n == 1 and delta > 0 then
    redis.call('ZADD', KEYS[TKV], score, tk)
  end
end

-- Removes the target entry of member (score s) and all kept beside it.
local function mirror_remove(member, s)
  local id = member
  if T_STRATEGY == 's' then
    id = string.sub(member, T_WIDTH + 1)
    if T_WIDTH > 0 then buckets().del(KEYS[TKM], T_WIDTH, id) end
  end
  redis.call('ZREM', KEYS[TKZ], member)
  if not T_SHARED then redis.call('HDEL', KEYS[TKD], id) end
  mirror_dense(s, member, -1)
end

-- Gives every key but the meta HASH (last) the source sorted set's expiry
-- (a window's), so that the keys a copy step made (the target's, the
-- entrants HASH) expire with the window.
local function mirror_expiry()
  local at = redis.call('PEXPIRETIME', KEYS[KZ])
  if at > 0 then
    for i = 1, #KEYS - 1 do redis.call('PEXPIREAT', KEYS[i], at) end
  end
end

local function mirror(id)
  -- The source first: its lookup may stop the script (lookup.lua's get),
  -- which must come before anything is written.
  local sm, ss = id, nil
  if STRATEGY == 'p' or WIDTH == 0 then ss = redis.call('ZSCORE', KEYS[KZ], id) else
    sm = buckets().get(KEYS[KM], WIDTH, id)
    if sm then ss = redis.call('ZSCORE', KEYS[KZ], sm) end
  end
  local tm, ts = id, nil
  if T_STRATEGY == 'p' or T_WIDTH == 0 then ts = redis.call('ZSCORE', KEYS[TKZ], id) else
    tm = buckets().get(KEYS[TKM], T_WIDTH, id)
    if tm then ts = redis.call('ZSCORE', KEYS[TKZ], tm) end
  end
  if ts then mirror_remove(tm, ts) end
  redis.call('SREM', KEYS[KX], id)
  if not ss then return end
  local nts, ntm = mirror_encode(id, mirror_values(ss, sm))
  if not nts then
    redis.call('SADD', KEYS[KX], id)
    return
  end
  redis.call('ZADD', KEYS[TKZ], nts, ntm)
  if T_MEMBERS then redis.call('HSETNX', KEYS[KA], id, 0) end -- an entrant of the target's rules
  if T_STRATEGY == 's' and T_WIDTH > 0 then buckets().set(KEYS[TKM], T_WIDTH, id, ntm) end
  local data = not T_SHARED and redis.call('HGET', KEYS[KD], id)
  if data then redis.call('HSET', KEYS[TKD], id, data) end
  mirror_dense(nts, ntm, 1)
  if T_CAP > 0 and redis.call('ZCARD', KEYS[TKZ]) > T_CAP then
    local gone = redis.call('ZRANGE', KEYS[TKZ], T_CAP, -1, 'WITHSCORES')
    for i = 1, #gone, 2 do mirror_remove(gone[i], gone[i + 1]) end
  end
end
