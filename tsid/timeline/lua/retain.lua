-- retain.lua: trim(bound) applies the retention and returns how many
-- messages it removed. bound is '' (no age limit) or the exclusive bound
-- below which messages are too old: '(' .. time part (split) or '(' .. its
-- hex (lex, compared with the ID prefix), or '+inf' / '+' when every
-- message is. Then MAXLEN keeps the newest.

local function trim(bound)
  local removed = 0
  if bound ~= '' then
    removed = redis.call(AGEREM, Z, AGEMIN, bound)
  end
  if MAXLEN > 0 then
    local k = redis.call('ZCARD', Z) - MAXLEN
    if k > 0 then
      removed = removed + redis.call('ZREMRANGEBYRANK', Z, 0, k - 1)
    end
  end
  return removed
end
