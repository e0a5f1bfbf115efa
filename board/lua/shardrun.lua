-- shardrun.lua: one shard's part of a list read of a sharded board (top,
-- page, between, around, scan): a run of consecutive entries around an
-- anchor position, with the counts that place them on the whole board.
--
-- KEYS: the board's keys (see common.lua)
-- ARGV[1]  anchor score, ARGV[2] anchor member: a position as position.lua
--          takes it ('' and '': the start of the shard)
-- ARGV[3]  how many entries to return before the anchor
-- ARGV[4]  how many entries to return from the anchor on
-- ARGV[5]  stop score, ARGV[6] stop member: no entry at or after this
--          position is returned ('' and '': no stop)
-- ARGV[7]  '1' to return member data
-- ARGV[8]  '1' to return each entry's tuple position
--
-- Reply: {total, start, anchor, anchortuple, member, score[, data,
--        hasdata][, tuplepos], ...}: total is the number of entries of the
--        shard, start the 0-based position of the first entry returned,
--        anchor the anchor's position and anchortuple its tuple position
--        (0 for the start, and when tuple positions are not asked for).


local anchor = 0
if ARGV[1] ~= '' then anchor = position(ARGV[1], ARGV[2]) end
local start = math.max(0, anchor - tonumber(ARGV[3]))
local stop = anchor + tonumber(ARGV[4])
if ARGV[5] ~= '' then stop = math.min(stop, position(ARGV[5], ARGV[6])) end
local withdata, withtuple = ARGV[7] == '1', ARGV[8] == '1'
local at = 0
if withtuple and ARGV[1] ~= '' then at = tuple_position(ARGV[1], ARGV[2]) end
local out = {redis.call('ZCARD', KEYS[KZ]), start, anchor, at}
if stop <= start then return out end
local got = redis.call('ZRANGE', KEYS[KZ], start, stop - 1, 'WITHSCORES')
local tp
for i = 1, #got, 2 do
  local m, s = got[i], got[i + 1]
  out[#out + 1] = m
  out[#out + 1] = s
  if withdata then
    local d = redis.call('HGET', KEYS[KD], member_id(m))
    out[#out + 1] = d or ''
    out[#out + 1] = d and 1 or 0
  end
  if withtuple then
    -- Entries of one tuple are consecutive: count once per tuple.
    local same = tp and tonumber(got[i - 1]) == tonumber(s)
      and (STRATEGY == 'p' or string.sub(got[i - 2], 1, WIDTH) == string.sub(m, 1, WIDTH))
    if not same then tp = tuple_position(s, m) end
    out[#out + 1] = tp
  end
end
return out
