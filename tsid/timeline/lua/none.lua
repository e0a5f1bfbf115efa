-- none.lua: the reply of an append to a timeline without retention: no
-- message removed.

return 0
