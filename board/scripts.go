package board

import (
	"embed"
	"sync"

	"github.com/redis/rueidis"
)

//go:embed lua/*.lua
var luaFiles embed.FS

// scriptSet holds a board's scripts. Each is the board's constants as Lua
// locals, then lua/common.lua, then the operation's file: with the
// constants baked in, no call spends time parsing them.
type scriptSet struct {
	submit, remove, setData            *rueidis.Lua
	rank, rang, around, after, between *rueidis.Lua
}

// scriptCache shares one scriptSet between boards of equal spec (the
// windows of a Periodic board, say), so the SHA1 of each is computed once.
var scriptCache sync.Map // spec string -> *scriptSet

func scriptsFor(spec string) *scriptSet {
	if s, ok := scriptCache.Load(spec); ok {
		return s.(*scriptSet)
	}
	s := &scriptSet{
		submit: build(spec, "submit", false), remove: build(spec, "remove", false),
		setData: build(spec, "setdata", false), rank: build(spec, "rank", true),
		rang: build(spec, "range", true), around: build(spec, "around", true),
		after: build(spec, "after", true), between: build(spec, "between", true),
	}
	actual, _ := scriptCache.LoadOrStore(spec, s)
	return actual.(*scriptSet)
}

func build(spec, name string, readOnly bool) *rueidis.Lua {
	src := spec + mustRead("common") + "\n" + mustRead(name)
	if readOnly {
		return rueidis.NewLuaScriptReadOnly(src)
	}
	return rueidis.NewLuaScript(src)
}

func mustRead(name string) string {
	b, err := luaFiles.ReadFile("lua/" + name + ".lua")
	if err != nil {
		panic(err) // embedded at build time: cannot happen
	}
	return string(b)
}
