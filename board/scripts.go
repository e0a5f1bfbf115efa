package board

import (
	"embed"
	"strings"
	"sync"

	"github.com/redis/rueidis"
)

//go:embed lua/*.lua
var luaFiles embed.FS

// scriptSet holds a board's scripts. Each is the board's constants as Lua
// locals, then the operation's file with its '--#include name' lines
// replaced by lua/name.lua and the token __FIELDS__ by the fields: with
// the constants baked in, no call spends time parsing them.
type scriptSet struct {
	submit, remove, setData            *rueidis.Lua
	rank, rang, around, after, between *rueidis.Lua
}

// scriptCache shares one scriptSet between boards of equal constants (the
// windows of a Periodic board, say), so each SHA1 is computed once.
var scriptCache sync.Map // constants + fields -> *scriptSet

func scriptsFor(spec, fields string) *scriptSet {
	key := spec + fields
	if s, ok := scriptCache.Load(key); ok {
		return s.(*scriptSet)
	}
	build := func(name string, readOnly bool) *rueidis.Lua {
		src := spec + strings.ReplaceAll(expand(name), "__FIELDS__", fields)
		if readOnly {
			return rueidis.NewLuaScriptReadOnly(src)
		}
		return rueidis.NewLuaScript(src)
	}
	s := &scriptSet{
		submit: build("submit", false), remove: build("remove", false),
		setData: build("setdata", false), rank: build("rank", true),
		rang: build("range", true), around: build("around", true),
		after: build("after", true), between: build("between", true),
	}
	actual, _ := scriptCache.LoadOrStore(key, s)
	return actual.(*scriptSet)
}

// expand returns lua/name.lua with each '--#include other' line replaced by
// the expansion of lua/other.lua.
func expand(name string) string {
	b, err := luaFiles.ReadFile("lua/" + name + ".lua")
	if err != nil {
		panic(err) // embedded at build time: cannot happen
	}
	lines := strings.Split(string(b), "\n")
	for i, line := range lines {
		if inc, ok := strings.CutPrefix(strings.TrimSpace(line), "--#include "); ok {
			lines[i] = expand(strings.TrimSpace(inc))
		}
	}
	return strings.Join(lines, "\n")
}
