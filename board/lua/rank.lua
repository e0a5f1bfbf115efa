-- rank.lua: one id's entry and ranks, from one snapshot.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  id
-- ARGV[2]  the ranks to compute: any of 'o' ordinal (1,2,3,4), 'c'
--          competition (1,2,2,4), 'd' dense (1,2,2,3; needs the dense
--          option), 'm' modified competition (1,3,3,4)
-- ARGV[3]  '1' to return the member data
--
-- Error: 'TBNODENSE' when the dense index lacks the entry's tuple (its keys
--        were removed).
-- Reply: {} when the id is not on the board, else
--        {member, score, ordinal, data, hasdata, competition, dense,
--        modified competition}: a
--        rank not asked for is 0; data '' and hasdata 0 unless asked for
--        and present.


local m, s = find_member(ARGV[1])
if not m then return {} end
local kinds, o, c, d, u = ARGV[2], 0, 0, 0, 0
local R = string.find(kinds, '[cdm]') and ranks()
if string.find(kinds, 'd', 1, true) then
  d = R.dense(s, m)
  if not d then return redis.error_reply('TBNODENSE') end
end
if string.find(kinds, '[oc]') then o = redis.call('ZRANK', KEYS[KZ], m) + 1 end
if string.find(kinds, 'c', 1, true) then c = R.comp(s, m, o - 1) end
if string.find(kinds, 'm', 1, true) then u = R.upto(s, m) end
local data = ARGV[3] == '1' and redis.call('HGET', KEYS[KD], ARGV[1])
return {m, s, o, data or '', data and 1 or 0, c, d, u}
