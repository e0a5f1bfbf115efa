-- retain.lua: trim(bound) applies the retention and returns how many
-- messages it removed, at most MAXTRIM (a longer backlog goes over the
-- next calls). bound is '' (no age limit) or the exclusive bound below
-- which messages are too old: '(' .. time part (split) or '(' .. its hex
-- (lex, compared with the ID prefix), or '+inf' / '+' when every message
-- is. The too old are the lowest ranks: AGECOUNT counts them, and they
-- go by rank. Then MAXLEN keeps the newest.

local function trim(bound)
  local removed = 0
  if bound ~= '' then
    local k = math.min(redis.call(AGECOUNT, Z, AGEMIN, bound), MAXTRIM)
    if k > 0 then
      removed = redis.call('ZREMRANGEBYRANK', Z, 0, k - 1)
    end
  end
  if MAXLEN > 0 then
    local k = math.min(redis.call('ZCARD', Z) - MAXLEN, MAXTRIM - removed)
    if k > 0 then
      removed = removed + redis.call('ZREMRANGEBYRANK', Z, 0, k - 1)
    end
  end
  return removed
end
