package decimalmap

import (
	_ "embed"

	"github.com/redis/rueidis"
)

// The scripts, one per operation; each file starts with its KEYS, ARGV and
// reply contract.
var (
	//go:embed lua/add.lua
	addSrc string
	//go:embed lua/delete.lua
	deleteSrc string
	//go:embed lua/remove.lua
	removeSrc string
	//go:embed lua/range.lua
	rangeSrc string
	//go:embed lua/clear.lua
	clearSrc string

	addScript    = rueidis.NewLuaScript(addSrc)
	deleteScript = rueidis.NewLuaScript(deleteSrc)
	removeScript = rueidis.NewLuaScript(removeSrc)
	rangeScript  = rueidis.NewLuaScriptReadOnly(rangeSrc)
	clearScript  = rueidis.NewLuaScript(clearSrc)
)
