-- position_split.lua: position() returns the number of members below the
-- anchor (ARGV[1] ID prefix, ARGV[2] score) and 1 if it is stored, else 0.

local function position()
  local p, m = find(ARGV[1], ARGV[2])
  if m then return p, 1 end
  return p, 0
end
