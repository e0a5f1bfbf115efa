package timeline

import (
	"embed"
	"fmt"
	"sync"

	"github.com/redis/rueidis"
)

//go:embed lua/*.lua
var luaFiles embed.FS

// scriptSet holds a timeline's scripts. Each is the timeline's
// constants as Lua locals, then lua/common.lua, then the helpers it needs,
// then the operation's file: one straight path per strategy, with nothing
// parsed or built per call that the call does not use. The lex strategy
// reads with plain commands and has no get, before or after script.
type scriptSet struct {
	appendMsgs, trim, remove   *rueidis.Lua
	get, before, after, around *rueidis.Lua
}

// scriptCache shares one scriptSet between timelines of equal spec
// (every room of an application, typically), so each SHA1 is computed once.
var scriptCache sync.Map // spec -> *scriptSet

// scriptSpec writes the constants every script of a timeline starts with
// (see lua/common.lua).
func scriptSpec(split bool, idLen, sufLen int, o Options) string {
	name, rem := "split", "'ZREMRANGEBYSCORE', '-inf'"
	if !split {
		name, rem = "lex", "'ZREMRANGEBYLEX', '-'"
	}
	retain := o.MaxLen > 0 || o.MaxAge > 0
	return fmt.Sprintf("-- timeline, %s\nlocal IDLEN, SUF, MAXLEN, RETAIN = %d, %d, %d, %t\nlocal AGEREM, AGEMIN = %s\n",
		name, idLen, sufLen, o.MaxLen, retain, rem)
}

func scriptsFor(spec string, split, retain bool) *scriptSet {
	if s, ok := scriptCache.Load(spec); ok {
		return s.(*scriptSet)
	}
	appendParts := []string{"append"}
	if retain {
		appendParts = []string{"retain", "append"}
	}
	s := &scriptSet{
		appendMsgs: build(spec, false, appendParts...),
		trim:       build(spec, false, "retain", "trim"),
	}
	if split {
		s.remove = build(spec, false, "find", "remove_split")
		s.get = build(spec, true, "find", "get_split")
		s.before = build(spec, true, "find", "before_split")
		s.after = build(spec, true, "find", "after_split")
		s.around = build(spec, true, "find", "position_split", "around")
	} else {
		s.remove = build(spec, false, "remove_lex")
		s.around = build(spec, true, "position_lex", "around")
	}
	actual, _ := scriptCache.LoadOrStore(spec, s)
	return actual.(*scriptSet)
}

// build joins spec, common.lua and the named files into one script.
func build(spec string, readOnly bool, names ...string) *rueidis.Lua {
	src := spec + mustReadLua("common")
	for _, name := range names {
		src += "\n" + mustReadLua(name)
	}
	if readOnly {
		return rueidis.NewLuaScriptReadOnly(src)
	}
	return rueidis.NewLuaScript(src)
}

func mustReadLua(name string) string {
	b, err := luaFiles.ReadFile("lua/" + name + ".lua")
	if err != nil {
		panic(err) // embedded at build time: cannot happen
	}
	return string(b)
}
