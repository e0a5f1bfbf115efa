-- group.lua: one result written to several boards of a group, atomically.
-- Before it, the Go side writes one function per board, board_1 ...
-- board_n, each the board's constants and its submit fragments (side,
-- mirror, submit) taking (KEYS, ARGV, CHECK), and the constants
--   local BOARDS = {board_1, ..., board_n}
--   local NKEYS = {keys of board 1, ..., keys of board n}
--
-- KEYS: every board's keys (see common.lua), board after board
-- ARGV[1..n]  how many of the arguments that follow are each board's
-- then every board's submit.lua arguments, board after board, then the
-- entry's id, the key remembering the write's request id ('' for none),
-- how long it remembers it (ms), and the index in KEYS of every board's
-- meta HASH: a write made already under the request id returns that
-- write's reply and writes nothing, unless a board was cleared or
-- dropped since (its 'born' mark, as submit.lua's).
--
-- Reply: {reply of board 1, ..., reply of board n}, each as submit.lua's;
--        or, nothing written, the first refusal of any board: the error
--        'TBBOARD <i> <its error>'. Every board's submit first runs
--        checking only (CHECK), then every board's runs writing.

local parts, k, a = {}, 1, #BOARDS + 1
for i = 1, #BOARDS do
  local keys, args = {}, {}
  for j = 1, NKEYS[i] do keys[j] = KEYS[k]; k = k + 1 end
  for j = 1, tonumber(ARGV[i]) do args[j] = ARGV[a]; a = a + 1 end
  parts[i] = {keys, args}
end
local id, req, ttl = ARGV[a], ARGV[a + 1], ARGV[a + 2]
local function borns()
  local out = {}
  for i = a + 3, #ARGV do out[#out + 1] = redis.call('HGET', KEYS[tonumber(ARGV[i])], 'born') or '' end
  return table.concat(out, ' ')
end
if req ~= '' then
  local done = redis.call('GET', req)
  if done then
    local d = cmsgpack.unpack(done)
    if d[3] == borns() then
      if d[1] ~= id then return redis.error_reply('TBBOARD 1 TBREQUEST ' .. d[1]) end
      return d[2]
    end
  end
end
for i = 1, #BOARDS do
  local r = BOARDS[i](parts[i][1], parts[i][2], true)
  if r ~= 'ok' then
    return redis.error_reply('TBBOARD ' .. i .. ' ' .. (type(r) == 'table' and r.err or tostring(r)))
  end
end
local out = {}
for i = 1, #BOARDS do out[i] = BOARDS[i](parts[i][1], parts[i][2], false) end
if req ~= '' then
  local t = redis.call('TIME')
  for i = a + 3, #ARGV do
    redis.call('HSETNX', KEYS[tonumber(ARGV[i])], 'born', t[1] .. '.' .. t[2])
  end
  -- Remembered in full: a short reply stored the member and score sent
  -- (submit.lua's ARGV[4] and ARGV[3]), which a retry may send otherwise.
  local full = {}
  for i, r in ipairs(out) do
    full[i] = r
    if #r == 3 then full[i] = {r[1], r[2], r[3], parts[i][2][4], parts[i][2][3]} end
  end
  redis.call('SET', req, cmsgpack.pack({id, full, borns()}), 'PX', ttl)
end
return out
