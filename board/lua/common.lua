-- common.lua: helpers every board script starts with (the Go side writes
-- L, then this file, then the operation's file). Contract shared by all scripts:
--
-- KEYS[1] z  sorted set: score = stored score, member = stored member
-- KEYS[2] m  HASH id -> member (key-suffix strategy only)
-- KEYS[3] d  HASH id -> member data
-- KEYS[4] v  sorted set of distinct value tuples (dense ranks only)
-- KEYS[5] c  HASH tuple -> number of entries holding it (dense ranks only)
-- L        the board's layout and options, written by the Go side as a
--          Lua table in front of this file (so no script parses them):
--          {strategy = 'p' (packed) or 's' (key suffix), width = digits of
--          the member prefix, dense = bool, cap = 0 or N,
--          restmax = largest packed value of fields 2..n,
--          f = {{mul=, span=, min=, max=, hi=bool}, ...} one per field}
--
-- Storage: ascending order is best first.
--   packed: score = -(sum of raw(field) * mul), member = id
--   suffix: score = -f1 (higher is better) or f1; member = the fields 2..n
--           packed, written as restmax - packed in `width` zero-padded
--           digits, then the id.
-- Numbers never leave a script as Lua numbers: scores go out as strings
-- formatted with %.17g (exact for every double), ranks as integers.

local function fmt(n) return string.format('%.17g', n) end

local function fromraw(f, raw)
  if f.hi then return f.min + raw end
  return f.max - raw
end

local function toraw(f, v)
  if f.hi then return v - f.min end
  return f.max - v
end

-- The id stored in a member.
local function member_id(L, member)
  if L.strategy == 'p' then return member end
  return string.sub(member, L.width + 1)
end

-- The current member of id and its score (a string), or false.
local function find_member(L, id)
  if L.strategy == 'p' then
    local s = redis.call('ZSCORE', KEYS[1], id)
    if s then return id, s end
    return false
  end
  local m = redis.call('HGET', KEYS[2], id)
  if m then return m, redis.call('ZSCORE', KEYS[1], m) end
  return false
end

-- The field values held by (score, member).
local function decode(L, score, member)
  local v = {}
  if L.strategy == 'p' then
    local p = -score
    for i, f in ipairs(L.f) do v[i] = fromraw(f, math.floor(p / f.mul) % f.span) end
    return v
  end
  v[1] = score
  if L.f[1].hi then v[1] = -score end
  if #L.f > 1 then
    local rest = L.restmax - tonumber(string.sub(member, 1, L.width))
    for i = 2, #L.f do
      local f = L.f[i]
      v[i] = fromraw(f, math.floor(rest / f.mul) % f.span)
    end
  end
  return v
end

-- The (score, member) that stores values v for id.
local function encode(L, v, id)
  local s
  if L.strategy == 'p' then
    local p = 0
    for i, f in ipairs(L.f) do p = p + toraw(f, v[i]) * f.mul end
    s = -p
  else
    s = v[1]
    if L.f[1].hi then s = -s end
    if #L.f > 1 then
      local rest = 0
      for i = 2, #L.f do rest = rest + toraw(L.f[i], v[i]) * L.f[i].mul end
      id = string.format('%0' .. L.width .. '.0f', L.restmax - rest) .. id
    end
  end
  if s == 0 then s = 0 end -- one zero: never -0
  return s, id
end

-- The dense-rank tuple key of (score, member): equal for equal value tuples.
local function tuple_key(L, score, member)
  if L.strategy == 'p' then return fmt(score) end
  return string.sub(member, 1, L.width) .. fmt(score)
end

local function dense_add(L, score, member, delta)
  if not L.dense then return end
  local tk = tuple_key(L, score, member)
  local n = redis.call('HINCRBY', KEYS[5], tk, delta)
  if n <= 0 then
    redis.call('HDEL', KEYS[5], tk)
    redis.call('ZREM', KEYS[4], tk)
  elseif n == 1 and delta > 0 then
    redis.call('ZADD', KEYS[4], fmt(score), tk)
  end
end

-- Removes one stored entry and everything kept beside it.
local function remove_entry(L, score, member)
  local id = member_id(L, member)
  redis.call('ZREM', KEYS[1], member)
  if L.strategy == 's' then redis.call('HDEL', KEYS[2], id) end
  redis.call('HDEL', KEYS[3], id)
  dense_add(L, score, member, -1)
end

-- a < b comparing bytes (Lua's < follows the server's locale).
local function bytes_lt(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

-- Appends member, score (as a string) and, if withdata, the member data of
-- each pair in a ZRANGE ... WITHSCORES reply to out.
local function emit(L, out, pairs_, withdata)
  for i = 1, #pairs_, 2 do
    out[#out + 1] = pairs_[i]
    out[#out + 1] = pairs_[i + 1]
    if withdata then
      local d = redis.call('HGET', KEYS[3], member_id(L, pairs_[i]))
      out[#out + 1] = d or ''
      out[#out + 1] = d and 1 or 0
    end
  end
  return out
end
