package decimalmap

import (
	_ "embed"

	"github.com/redis/rueidis"
)

// The scripts, one per operation; each file starts with its KEYS, ARGV and
// reply contract, and each declares both of the map's keys in KEYS (Get
// and Drop are one command, Range and Scan one MULTI/EXEC).
var (
	//go:embed lua/add.lua
	addSrc string
	//go:embed lua/remove.lua
	removeSrc string
	//go:embed lua/remove_value.lua
	removeValueSrc string

	addScript         = rueidis.NewLuaScript(addSrc)
	removeScript      = rueidis.NewLuaScript(removeSrc)
	removeValueScript = rueidis.NewLuaScript(removeValueSrc)
)
