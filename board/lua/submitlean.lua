-- submitlean.lua: submit.lua's write on a key-suffix board with an id
-- lookup (WIDTH > 0) when it writes nothing but the entry: policy 'r' or
-- 'b', no expectation, member data, expiry, request id or ids passed
-- asked, on a board without dense ranks, cap, rules or hiding, in a live
-- generation (not migrating or exporting), not fenced (Board.submitsLean).
-- Most writes of a key-suffix board are these. The script makes one or
-- more of them, in order, each as submit.lua would, without its closures
-- and branches: it finds each id once, reads the descriptor, the number
-- of buckets and the buckets of all its writes in three calls, stores the
-- buckets it changed in one, and a write that changes nothing writes
-- nothing. The buckets are lookup.lua's, read and written here the same
-- way; only a split goes through lookup.lua.
--
-- KEYS: z, i, meta (KEYS[KZ], KEYS[KM], KEYS[KMETA])
-- ARGV: per write, five: id, policy, the new stored score, the new stored
--       member (submit.lua's first four), and the first 32 bits of the
--       id's SHA1 as 8 lowercase hex digits (lookup.lua's h, as its
--       records hold it), which the caller computes so that Redis does not.
-- Reply: one flat array, per write: its rank (as submit.lua's), then 0
--        or 1, changed, when the stored member and score are those sent,
--        else 2 or 3 (2 + changed) followed by the stored member and
--        score. Nothing is ever trimmed.
-- Error: TBGEN, TBMISMATCH, TBDROPPED as guard.lua's, TBLOOKUP as
--        lookup.lua's get; nothing written.

local desc, refused = guard(SHARD)
if refused then return refused end

local z, key, out = KEYS[KZ], KEYS[KM], {}
-- The number of buckets n, 2^L <= n, the buckets read or written (number
-- -> string, '' when empty; nil: to read), and those written but not yet
-- stored (number -> true): a call stores them all in one HSET, at its end
-- or before a split, which reads them. hs holds each write's hash as a
-- number (by its first ARGV index).
local n, lo, c, dirty, hs = 1, 1, {}, {}, {}
local function setn(m)
  n = m
  local _, e = math.frexp(n)
  lo = 2 ^ (e - 1)
end
local function bucket(h)
  local b = h % (2 * lo)
  if b >= n then b = h % lo end
  return b
end
local function flush()
  local args = {}
  for b in pairs(dirty) do
    args[#args + 1] = string.format('%d', b)
    args[#args + 1] = c[b]
  end
  if #args > 0 then redis.call('HSET', key, unpack(args)) end
  dirty = {}
end
-- Reads the number of buckets and, in one HMGET, the buckets of all the
-- writes.
local function load()
  setn(tonumber(redis.call('HGET', key, 'n') or '1'))
  local fields, nums, seen = {}, {}, {}
  for v = 1, #ARGV, 5 do
    hs[v] = tonumber(ARGV[v + 4], 16)
    local b = bucket(hs[v])
    if not seen[b] then
      seen[b] = true
      nums[#nums + 1] = b
      fields[#fields + 1] = string.format('%d', b)
    end
  end
  local got = redis.call('HMGET', key, unpack(fields))
  for i, b in ipairs(nums) do c[b] = got[i] or '' end
end

load()
-- An empty lookup beside a sorted set that holds entries has lost its ids
-- (lookup.lua's get): nothing is written. (A lean write's board hides
-- nothing.)
if n == 1 and c[0] == '' and redis.call('ZCARD', z) > 0 then error({err = 'TBLOOKUP ' .. key}) end
for w = 1, #ARGV, 5 do
  local id, ns, nm = ARGV[w], ARGV[w + 2], ARGV[w + 3]
  -- id's record in its bucket b (string s): from p to stop, its prefix
  -- the last WIDTH bytes; or p is nil.
  local b = bucket(hs[w])
  local s = c[b]
  if not s then
    s = redis.call('HGET', key, string.format('%d', b)) or ''
    c[b] = s
  end
  local esc = id
  if string.find(id, '\0', 1, true) then esc = string.gsub(id, '%z', '\0\1') end
  local pat, from, p, stop = '\0\3' .. ARGV[w + 4] .. esc, 1, nil, nil
  while true do
    local q
    p, q = string.find(s, pat, from, true)
    if not p then break end
    stop = q + WIDTH
    if stop == #s or string.sub(s, stop + 1, stop + 2) == '\0\3' then break end
    from = p + 1
  end

  local oldm, olds = false, false
  if p then
    oldm = string.sub(s, stop - WIDTH + 1, stop) .. id
    olds = redis.call('ZSCORE', z, oldm)
  end
  -- Best keeps the stored entry unless the new one sorts strictly before
  -- it: a lower score, or an equal score and a lower prefix.
  if ARGV[w + 1] == 'b' and olds then
    local x, y = tonumber(ns), tonumber(olds)
    if x > y or (x == y and tonumber(string.sub(nm, 1, WIDTH)) >= tonumber(string.sub(oldm, 1, WIDTH))) then
      ns, nm = olds, oldm
    end
  end

  local changed = not olds or oldm ~= nm or tonumber(olds) ~= tonumber(ns)
  if changed then
    if oldm and oldm ~= nm then redis.call('ZREM', z, oldm) end
    redis.call('ZADD', z, ns, nm)
    if oldm ~= nm then
      local prefix = string.sub(nm, 1, WIDTH)
      dirty[b] = true
      if p then
        c[b] = string.sub(s, 1, stop - WIDTH) .. prefix .. string.sub(s, stop + 1)
      else
        local rec = pat .. prefix
        c[b] = s .. rec
        if #s >= 2 * LOAD * #rec then -- lookup.lua's LOAD
          -- The split changes two buckets, the one it splits and the one
          -- it makes, and their number: forget those two, read again when
          -- a later write needs them.
          flush()
          buckets().split(key, WIDTH, true)
          c[n - lo], c[n] = nil, nil
          setn(n + 1)
        end
      end
    end
  end

  local rank = redis.call('ZRANK', z, nm)
  out[#out + 1] = rank and rank + 1 or 0
  if nm == ARGV[w + 3] and ns == ARGV[w + 2] then
    out[#out + 1] = changed and 1 or 0
  else
    out[#out + 1] = changed and 3 or 2
    out[#out + 1] = nm
    out[#out + 1] = ns
  end
end
flush()
if not desc then
  redis.call('HSET', KEYS[KMETA], 'desc', DESC, 'gen', GEN, 'state', 'live')
end
return out
