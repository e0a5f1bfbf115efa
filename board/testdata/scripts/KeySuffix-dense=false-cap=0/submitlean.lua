-- board: submitlean
local STRATEGY = 's'
local WIDTH = 10
local DENSE = false
local CAP = 0
local RESTMAX = 8589934591
local SHARED = false
local HIDING = false
local TOPN = 0
local FIELDS = function() return {{mul = 8589934592, span = 1048576, min = 0, max = 1.7976931348623157e+308, hi = true}, {mul = 4294967296, span = 2, min = 0, max = 1, hi = true}, {mul = 1, span = 4294967296, min = 0, max = 4.294967295e+09, hi = false}, } end
local DESC = [[{"version":1,"radix":2,"fields":[{"name":"points","width":20,"dir":"HigherIsBetter"},{"name":"paid","width":1,"dir":"HigherIsBetter"},{"name":"time","width":32,"dir":"LowerIsBetter"}],"strategy":"KeySuffix","cap":0,"denseRanks":false,"lookup":"hashed-buckets"}]]
local GEN = [[0]]
local SHARD = false
local RULES = false
local BOUNDS = false
local HIST = false
local KZ = 1
local KD = 4
local KM = 2
local KV = 0
local KC = 0
local KA = 0
local KH = 0
local KT = 0
local KHIST = 0
local KMETA = 3
-- fragment: lookup.lua
-- lookup.lua: buckets(), the id lookup of a key-suffix board stored in
-- buckets (and of a migration's key-suffix target), for every script
-- that finds, writes or removes an id's member. It builds its closures on
-- its first call only (later calls return the same table, whose caches
-- every caller shares), so the other boards pay for none of it:
--
--   L.get(key, width, id)             id's member, or false; it stops
--                                     the script (TBLOOKUP and the key)
--                                     when the board's lookup lost its
--                                     ids (see get)
--   L.set(key, width, id, m)          stores id's member m (its first width
--                                     bytes are the prefix)
--   L.del(key, width, id)             forgets id
--   L.split(key, width, fresh)        splits the next bucket (set does;
--                                     fresh: read the buckets again, for
--                                     submitlean.lua, which writes them
--                                     itself)
--
-- A board of width 0 (a key-suffix board of one field) keeps no lookup:
-- its member is the id. Its scripts find it by ZSCORE of the id, as a
-- packed board's do, and never call these; should one, get returns the id
-- and set and del do nothing, touching no key (its KEYS hold no lookup).
--
-- A write finds its id (get) and then stores it (set): set reuses what get
-- found, while the bucket is as get read it, so that the id's SHA1 and
-- record are computed once per write.
--
-- The lookup is a HASH: field 'n' the number of buckets (absent: 1), fields
-- '0' .. n-1 the buckets. A bucket holds, one after the other, a record per
-- id: "\0\3", the id's hash h (below) as 8 lowercase hex digits, the id
-- with each zero byte written "\0\1", then the member's prefix (width
-- digits); the member is prefix .. id. "\0\3" starts every record and
-- occurs nowhere else, so a plain search for "\0\3" .. hex .. id finds the
-- id's record if it ends width bytes later, where the next record or the
-- bucket ends. A board of N ids keeps a bucket per LOAD = 8 ids or so:
-- one HASH field per bucket instead of one per id. The hash in each record
-- spares a split hashing the ids it moves.
--
-- The buckets grow by linear hashing: with 2^L <= n < 2^(L+1), id goes to
-- bucket h mod 2^(L+1), or h mod 2^L when that is n or more, h being the
-- first 32 bits of the id's SHA1 (its first 8 hex digits). When a new id
-- makes its bucket longer than 2 * LOAD records of its own length, bucket
-- n - 2^L splits (the next in turn, not necessarily the long one): its
-- ids whose h mod 2^(L+1) is n move to the new bucket n. So the buckets
-- grow with the board without counting its entries. They shrink only when
-- the last id goes (the HASH is deleted).

-- LOAD: a bucket splits (see above) past 2 * LOAD records. Smaller
-- buckets cost Redis less per write (every string Lua makes is hashed
-- byte by byte, and a write reads and rebuilds its bucket) and more memory
-- (a HASH field each): 8 makes a key-suffix write about 15% fewer
-- instructions than 16 did, for about 3 bytes more per member.
local LOAD = 8
local the_buckets = false
local function buckets()
  if the_buckets then return the_buckets end
  -- Few closures (locate, store and L's): building each costs every call
  -- that uses the lookup.
  local L, nof, sof = {}, {}, {}
  -- The last id located: its key, the id, its bucket (number and field
  -- name), the bucket's string, its record's start and end (false: none)
  -- and the start of its record, "\0\3" .. hex .. escaped id. It holds
  -- while the bucket holds the same string (a split moves an id only out
  -- of the bucket it changes), until set adds a record: a split may then
  -- move that record alone out, leaving the bucket the string located.
  local lkey, lid, lb, lf, ls, lp, lstop, lpat = false, false, false, false, false, false, false, false
  -- Where id's record is (see above), setting the last id. The number of
  -- buckets of key and each bucket read (number -> string, '' when empty)
  -- are kept for the script in nof and sof.
  local function locate(key, width, id)
    local c = sof[key]
    if id == lid and key == lkey and c and c[lb] == ls then return end
    if not c then
      c = {}
      sof[key] = c
      nof[key] = tonumber(redis.call('HGET', key, 'n') or '1')
    end
    local n = nof[key]
    local _, e = math.frexp(n)
    local lo = 2 ^ (e - 1)
    local hex = string.sub(redis.sha1hex(id), 1, 8)
    local h = tonumber(hex, 16)
    local b = h % (2 * lo)
    if b >= n then b = h % lo end
    local f = string.format('%d', b)
    local s = c[b]
    if not s then
      s = redis.call('HGET', key, f) or ''
      c[b] = s
    end
    local pat, from = '\0\3' .. hex .. string.gsub(id, '%z', '\0\1'), 1
    lkey, lid, lb, lf, ls, lp, lstop, lpat = key, id, b, f, s, false, false, pat
    while true do
      local p, q = string.find(s, pat, from, true)
      if not p then return end
      local stop = q + width
      if stop == #s or string.sub(s, stop + 1, stop + 2) == '\0\3' then
        lp, lstop = p, stop
        return
      end
      from = p + 1
    end
  end
  -- Stores s as bucket b (field f) of key.
  local function store(key, b, f, s)
    sof[key][b] = s
    if s == '' then redis.call('HDEL', key, f) else redis.call('HSET', key, f, s) end
  end
  function L.get(key, width, id)
    if width == 0 then return id end
    locate(key, width, id)
    if not lp then
      -- An id not in the board's own lookup, found empty (one bucket,
      -- empty), while the board holds entries (shown or hidden), every
      -- one of which has a record while the lookup lives: the lookup lost
      -- its ids (evicted, or removed by hand). The script stops (TBLOOKUP
      -- and the key), so that a write never stores a second entry for an
      -- id whose record is gone, nor a read answers that a listed id is
      -- absent. Inline, not a function: a closure costs every call.
      if key == KEYS[KM] and nof[key] == 1 and sof[key][0] == '' and (redis.call('ZCARD', KEYS[KZ]) > 0
          or (HIDING and redis.call('ZCARD', KEYS[KH]) > 0)) then
        error({err = 'TBLOOKUP ' .. key})
      end
      return false
    end
    return string.sub(ls, lstop - width + 1, lstop) .. id
  end
  function L.set(key, width, id, m)
    if width == 0 then return end
    locate(key, width, id)
    local s, p, stop, prefix = ls, lp, lstop, string.sub(m, 1, width)
    if p then
      if string.sub(s, stop - width + 1, stop) ~= prefix then
        store(key, lb, lf, string.sub(s, 1, stop - width) .. prefix .. string.sub(s, stop + 1))
      end
      return
    end
    local rec = lpat .. prefix
    store(key, lb, lf, s .. rec)
    -- The id is located afresh next time: a split may move its record
    -- alone out of its bucket, leaving the bucket the string located.
    lid = false
    if #s >= 2 * LOAD * #rec then L.split(key, width) end
  end
  -- Splits the next bucket of key (linear hashing): when an id made its
  -- bucket longer than 2 * LOAD records of its own length. fresh: the
  -- caller wrote the buckets itself (submitlean.lua), so read them again.
  function L.split(key, width, fresh)
    if fresh or not sof[key] then
      sof[key] = {}
      nof[key] = tonumber(redis.call('HGET', key, 'n') or '1')
    end
    local n, c = nof[key], sof[key]
    local _, e = math.frexp(n)
    local lo = 2 ^ (e - 1)
    local src = n - lo
    local s = c[src] or redis.call('HGET', key, src) or ''
    local keep, move, p = {}, {}, 1
    while p <= #s do
      local nextp = string.find(s, '\0\3', p + 2, true) or #s + 1
      local r = string.sub(s, p, nextp - 1)
      if tonumber(string.sub(r, 3, 10), 16) % (2 * lo) == n then
        move[#move + 1] = r
      else
        keep[#keep + 1] = r
      end
      p = nextp
    end
    nof[key] = n + 1
    redis.call('HSET', key, 'n', n + 1)
    store(key, src, string.format('%d', src), table.concat(keep))
    c[n] = table.concat(move)
    if c[n] ~= '' then redis.call('HSET', key, n, c[n]) end
  end
  function L.del(key, width, id)
    if width == 0 then return end
    locate(key, width, id)
    if not lp then return end
    local rest = string.sub(ls, 1, lp - 1) .. string.sub(ls, lstop + 1)
    store(key, lb, lf, rest)
    if rest == '' and redis.call('HLEN', key) == 1 and redis.call('HEXISTS', key, 'n') == 1 then
      redis.call('DEL', key)
      nof[key], sof[key] = nil, nil
    end
  end
  the_buckets = L
  return L
end
-- fragment: guard.lua
-- guard.lua: guard(dropped, span), the check that submit, submitlean,
-- join and hide begin with, before they write anything. It reads the
-- board's descriptor, generation and window span (one HMGET of the meta
-- HASH) and returns the stored descriptor (false for a board without one)
-- and the stored span (false for none), or nil and the error reply the
-- script returns:
--   'TBGEN'      the board is in another generation than the handle's
--                (GEN): dropped and made again by New, in generation 0,
--                since the handle read it. The handle reads it again,
--                writing nothing to keys nothing reads.
--   'TBMISMATCH' the stored descriptor is not the handle's (DESC).
--   'TBDROPPED'  the board has no descriptor and dropped is true: a
--                write that may not make the board again (a shard's, a
--                mirrored one).
--   'TBSPAN <stored span>'  a periodic window whose stored span (its
--                start and end, Unix ms, "start-end") is not span, the
--                handle's: two periods (another zone or alignment) that
--                give one label to different spans of time.
-- span is nil or '' for a board that is not a window (no check).
local function guard(dropped, span)
  local stored = redis.call('HMGET', KEYS[KMETA], 'desc', 'gen', 'span')
  local desc = stored[1]
  if desc and (stored[2] or '0') ~= GEN then return nil, redis.error_reply('TBGEN') end
  if desc and desc ~= DESC then return nil, redis.error_reply('TBMISMATCH') end
  if not desc and dropped then return nil, redis.error_reply('TBDROPPED') end
  if desc and span and span ~= '' and stored[3] and stored[3] ~= span then
    return nil, redis.error_reply('TBSPAN ' .. stored[3])
  end
  return desc, nil, stored[3]
end
-- fragment: submitlean.lua
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
