-- nomirror.lua: a board that is not migrating mirrors nothing (see
-- mirror.lua).

local mirror = false
