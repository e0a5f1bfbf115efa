package board

import (
	"embed"
	"fmt"
	"sync"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/luascript"
)

//go:embed lua/*.lua
var luaFiles embed.FS

// scriptSet holds a board's scripts. Each is the board's constants, then
// its fragments (lua/*.lua) in the order scriptFragments declares: with the
// constants baked in, no call spends time parsing them.
type scriptSet struct {
	submit, remove, setData            *rueidis.Lua
	rank, rang, around, after, between *rueidis.Lua
}

// scriptCache shares one scriptSet between boards of equal constants (the
// windows of a Periodic board, say), so each SHA1 is computed once.
var scriptCache sync.Map // constants -> *scriptSet

// scriptFragments declares each script's fragments, in order; the
// read-only ones may run on replicas.
var scriptFragments = []struct {
	name      string
	readOnly  bool
	fragments []string
}{
	{"submit", false, []string{"side", "submit"}},
	{"remove", false, []string{"side", "common", "remove"}},
	{"setdata", false, []string{"common", "setdata"}},
	{"rank", true, []string{"side", "common", "rank"}},
	{"range", true, []string{"common", "range"}},
	{"around", true, []string{"common", "around"}},
	{"after", true, []string{"common", "after"}},
	{"between", true, []string{"common", "between"}},
}

func scriptsFor(consts []luascript.Const) *scriptSet {
	key := fmt.Sprint(consts)
	if s, ok := scriptCache.Load(key); ok {
		return s.(*scriptSet)
	}
	src := scriptSources(consts)
	lua := make(map[string]*rueidis.Lua, len(scriptFragments))
	for _, f := range scriptFragments {
		lua[f.name] = rueidis.NewLuaScript(src[f.name])
		if f.readOnly {
			lua[f.name] = rueidis.NewLuaScriptReadOnly(src[f.name])
		}
	}
	s := &scriptSet{
		submit: lua["submit"], remove: lua["remove"], setData: lua["setdata"],
		rank: lua["rank"], rang: lua["range"], around: lua["around"],
		after: lua["after"], between: lua["between"],
	}
	actual, _ := scriptCache.LoadOrStore(key, s)
	return actual.(*scriptSet)
}

// scriptSources returns the text Redis runs for each script, by name.
func scriptSources(consts []luascript.Const) map[string]string {
	src := make(map[string]string, len(scriptFragments))
	for _, f := range scriptFragments {
		src[f.name] = luascript.MustAssemble(luaFiles, "lua", "board: "+f.name, consts, f.fragments...)
	}
	return src
}
