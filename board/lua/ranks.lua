-- ranks.lua: ranks(), the competition and dense ranks of stored entries,
-- for the reads that return them. Uses common.lua's constants; builds its
-- closures only when called, so a read that asks for no such rank pays
-- for none:
--
--   R.comp(s, m, r)   the competition rank of member m (score s), whose
--                     0-based ordinal index is r
--   R.dense(s, m)     its dense rank, from the dense index (the board keeps
--                     DENSE); false when the index lacks its tuple
--   R.upto(s, m)      its modified competition rank: how many entries hold
--                     its tuple or a better one
--   R.first(got, first, flags)
--                     the competition and dense ranks (0 unless flags has
--                     'c' or 'd'; dense -1 when the index lacks the tuple)
--                     of the first entry of got, a ZRANGE ... WITHSCORES
--                     reply starting at ordinal rank first, and the
--                     modified competition rank of its last (0 unless
--                     flags has 'm'); 0, 0, 0 when got is empty

local function ranks()
  local R = {}
  -- Whether the member at index r holds the tuple of (s, m): the same
  -- score and, for key suffix, the same fields prefix.
  local function tuple_at(r, s, m)
    local got = redis.call('ZRANGE', KEYS[KZ], r, r, 'WITHSCORES')
    if tonumber(got[2]) ~= tonumber(s) then return false end
    return STRATEGY == 'p' or string.sub(got[1], 1, WIDTH) == string.sub(m, 1, WIDTH)
  end
  -- Entries holding one tuple are contiguous; the first of them is found
  -- by binary search between the first entry of the score and r.
  function R.comp(s, m, r)
    local lo = redis.call('ZCOUNT', KEYS[KZ], '-inf', '(' .. s)
    if STRATEGY == 's' then
      local hi = r
      while lo < hi do
        local mid = math.floor((lo + hi) / 2)
        if tuple_at(mid, s, m) then hi = mid else lo = mid + 1 end
      end
    end
    return lo + 1
  end
  function R.dense(s, m)
    local tk = string.format('%.17g', tonumber(s))
    if STRATEGY == 's' then tk = string.sub(m, 1, WIDTH) .. tk end
    local r = redis.call('ZRANK', KEYS[KV], tk)
    return r and r + 1
  end
  -- The entries of a score holding a prefix up to p are contiguous and
  -- first: binary search for the first with a greater prefix.
  function R.upto(s, m)
    local all = redis.call('ZCOUNT', KEYS[KZ], '-inf', s)
    if STRATEGY == 'p' or WIDTH == 0 then return all end
    local p = tonumber(string.sub(m, 1, WIDTH))
    local lo, hi = redis.call('ZCOUNT', KEYS[KZ], '-inf', '(' .. s), all
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      local got = redis.call('ZRANGE', KEYS[KZ], mid, mid)
      if tonumber(string.sub(got[1], 1, WIDTH)) <= p then lo = mid + 1 else hi = mid end
    end
    return lo
  end
  function R.first(got, first, flags)
    if #got == 0 then return 0, 0, 0 end
    local c, d, u = 0, 0, 0
    if string.find(flags, 'c', 1, true) then c = R.comp(got[2], got[1], first - 1) end
    if string.find(flags, 'd', 1, true) then d = R.dense(got[2], got[1]) or -1 end
    if string.find(flags, 'm', 1, true) then u = R.upto(got[#got], got[#got - 1]) end
    return c, d, u
  end
  return R
end
