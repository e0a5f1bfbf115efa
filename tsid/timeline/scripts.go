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
	lua := map[string]*rueidis.Lua{}
	for _, p := range scriptParts(split, retain) {
		src := assemble(spec, p.names...)
		lua[p.op] = rueidis.NewLuaScript(src)
		if p.readOnly {
			lua[p.op] = rueidis.NewLuaScriptReadOnly(src)
		}
	}
	s := &scriptSet{appendMsgs: lua["append"], trim: lua["trim"], remove: lua["remove"],
		get: lua["get"], before: lua["before"], after: lua["after"], around: lua["around"]}
	actual, _ := scriptCache.LoadOrStore(spec, s)
	return actual.(*scriptSet)
}

// scriptPart is one script: after spec and common.lua, the named files.
type scriptPart struct {
	op       string
	readOnly bool
	names    []string
}

// scriptParts lists a timeline's scripts for its strategy and retention.
// The lex strategy reads with plain commands: no get, before or after.
func scriptParts(split, retain bool) []scriptPart {
	appendNames := []string{"append"}
	if retain {
		appendNames = []string{"retain", "append"}
	}
	parts := []scriptPart{{"append", false, appendNames}, {"trim", false, []string{"retain", "trim"}}}
	if !split {
		return append(parts, scriptPart{"remove", false, []string{"remove_lex"}},
			scriptPart{"around", true, []string{"position_lex", "around"}})
	}
	return append(parts, scriptPart{"remove", false, []string{"find", "remove_split"}},
		scriptPart{"get", true, []string{"find", "get_split"}},
		scriptPart{"before", true, []string{"find", "before_split"}},
		scriptPart{"after", true, []string{"find", "after_split"}},
		scriptPart{"around", true, []string{"find", "position_split", "around"}})
}

// assemble joins spec, common.lua and the named files into one script.
func assemble(spec string, names ...string) string {
	src := spec + mustReadLua("common")
	for _, name := range names {
		src += "\n" + mustReadLua(name)
	}
	return src
}

func mustReadLua(name string) string {
	b, err := luaFiles.ReadFile("lua/" + name + ".lua")
	if err != nil {
		panic(err) // embedded at build time: cannot happen
	}
	return string(b)
}
