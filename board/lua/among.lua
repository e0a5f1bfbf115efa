-- among.lua: the entries of a set of ids (a player's friends, say), each
-- with its ranks on the whole board, from one snapshot.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]    the extra ranks: any of 'c' (competition) and 'd' (dense)
-- ARGV[2]    '1' to return member data
-- ARGV[3..]  ids, distinct
--
-- Reply: {total, then per id, in the order given: member, score, ordinal,
--        comp, dense, data, hasdata}: ordinal 0 (and member and score '')
--        for an id not on the board; comp and dense 0 when not asked for,
--        dense -1 when the dense index lacks the tuple.


local flags, withdata = ARGV[1], ARGV[2] == '1'
local wantc, wantd = string.find(flags, 'c', 1, true), string.find(flags, 'd', 1, true)
local R = (wantc or wantd) and ranks()
local out = {redis.call('ZCARD', KEYS[KZ])}
for i = 3, #ARGV do
  local m, s = find_member(ARGV[i])
  if not m then
    for _, v in ipairs({'', '', 0, 0, 0, '', 0}) do out[#out + 1] = v end
  else
    local r = redis.call('ZRANK', KEYS[KZ], m)
    local c = wantc and R.comp(s, m, r) or 0
    local d = wantd and (R.dense(s, m) or -1) or 0
    local data = withdata and redis.call('HGET', KEYS[KD], ARGV[i])
    for _, v in ipairs({m, s, r + 1, c, d, data or '', data and 1 or 0}) do out[#out + 1] = v end
  end
end
return out
