-- rank.lua: one id's entry and ranks, from one snapshot.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  id
-- ARGV[2]  the ranks to compute: any of 'o' ordinal (1,2,3,4), 'c'
--          competition (1,2,2,4), 'd' dense (1,2,2,3; needs the dense
--          option), 'm' modified competition (1,3,3,4); and 's' for a read
--          on the member's own behalf: a hidden entry (HIDING) is found,
--          ranked where it would be were it shown
-- ARGV[3]  '1' to return the member data
--
-- Error: 'TBNODENSE' when the dense index lacks the entry's tuple (its keys
--        were removed).
-- Reply: {} when the id is not on the board, else
--        {member, score, ordinal, data, hasdata, competition, dense,
--        modified competition}: a
--        rank not asked for is 0; data '' and hasdata 0 unless asked for
--        and present.


local kinds = ARGV[2]
local m, s = find_member(ARGV[1])
local hidden = false
if not m and string.find(kinds, 's', 1, true) then
  m, s = find_hidden(ARGV[1])
  hidden = m and true
end
if not m then return {} end
local o, c, d, u = 0, 0, 0, 0
local R = string.find(kinds, '[cdm]') and ranks()
if string.find(kinds, 'd', 1, true) then
  d = R.dense(s, m)
  if hidden and not d then
    -- Its tuple held by no entry shown: one more than the distinct tuples
    -- before it (the dense index orders them as the board does).
    local lo = redis.call('ZCOUNT', KEYS[KV], '-inf', '(' .. s)
    if STRATEGY == 's' and WIDTH > 0 then
      local p = tonumber(string.sub(m, 1, WIDTH))
      local hi = lo + redis.call('ZCOUNT', KEYS[KV], s, s)
      while lo < hi do
        local mid = math.floor((lo + hi) / 2)
        local got = redis.call('ZRANGE', KEYS[KV], mid, mid)[1]
        if tonumber(string.sub(got, 1, WIDTH)) < p then lo = mid + 1 else hi = mid end
      end
    end
    d = lo + 1
  end
  if not d then return redis.error_reply('TBNODENSE') end
end
if string.find(kinds, '[oc]') then
  if hidden then o = position(s, m) + 1 else o = redis.call('ZRANK', KEYS[KZ], m) + 1 end
end
if string.find(kinds, 'c', 1, true) then c = R.comp(s, m, o - 1) end
if string.find(kinds, 'm', 1, true) then u = R.upto(s, m) + (hidden and 1 or 0) end
local data = ARGV[3] == '1' and redis.call('HGET', KEYS[KD], ARGV[1])
return {m, s, o, data or '', data and 1 or 0, c, d, u}
