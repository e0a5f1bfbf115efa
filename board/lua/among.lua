-- among.lua: the entries of a set of ids (a player's friends, say), each
-- with its ranks on the whole board, from one snapshot.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]    the extras: any of 'c' (competition), 'd' (dense), 'm'
--            (modified competition) and 't' (the total)
-- ARGV[2]    '1' to return member data
-- ARGV[3..]  ids, distinct
--
-- Reply: {total (-1 when not asked for), then per id, in the order given: member, score, ordinal,
--        comp, dense, data, hasdata, modified}: ordinal 0 (and member and
--        score '') for an id not on the board; comp, dense and modified 0
--        when not asked for, dense -1 when the dense index lacks the tuple.


local flags, withdata = ARGV[1], ARGV[2] == '1'
local wantc, wantd, wantm = string.find(flags, 'c', 1, true), string.find(flags, 'd', 1, true), string.find(flags, 'm', 1, true)
local R = (wantc or wantd or wantm) and ranks()
local out, n = {string.find(flags, 't', 1, true) and redis.call('ZCARD', KEYS[KZ]) or -1}, 1
for i = 3, #ARGV do
  local id = ARGV[i]
  local m, s = find_member(id)
  if not m then
    out[n + 1], out[n + 2], out[n + 3], out[n + 4], out[n + 5], out[n + 6], out[n + 7], out[n + 8] = '', '', 0, 0, 0, '', 0, 0
  else
    local r = redis.call('ZRANK', KEYS[KZ], m)
    local data = withdata and redis.call('HGET', KEYS[KD], id)
    out[n + 1], out[n + 2], out[n + 3] = m, s, r + 1
    out[n + 4] = wantc and R.comp(s, m, r) or 0
    out[n + 5] = wantd and (R.dense(s, m) or -1) or 0
    out[n + 6], out[n + 7] = data or '', data and 1 or 0
    out[n + 8] = wantm and R.upto(s, m) or 0
  end
  n = n + 8
end
return out
