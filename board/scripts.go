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

// scriptNames are a board's scripts; the read-only ones may run on
// replicas.
var scriptNames = []struct {
	name     string
	readOnly bool
}{
	{"submit", false}, {"remove", false}, {"setdata", false},
	{"rank", true}, {"range", true}, {"around", true}, {"after", true}, {"between", true},
}

func scriptsFor(spec, fields string) *scriptSet {
	key := spec + fields
	if s, ok := scriptCache.Load(key); ok {
		return s.(*scriptSet)
	}
	src := scriptSources(spec, fields)
	build := func(name string, readOnly bool) *rueidis.Lua {
		if readOnly {
			return rueidis.NewLuaScriptReadOnly(src[name])
		}
		return rueidis.NewLuaScript(src[name])
	}
	lua := map[string]*rueidis.Lua{}
	for _, n := range scriptNames {
		lua[n.name] = build(n.name, n.readOnly)
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
func scriptSources(spec, fields string) map[string]string {
	src := make(map[string]string, len(scriptNames))
	for _, n := range scriptNames {
		src[n.name] = spec + strings.ReplaceAll(expand(n.name), "__FIELDS__", fields)
	}
	return src
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
