package timeline

import (
	"embed"
	"fmt"
	"strconv"
	"sync"

	"github.com/tiebreak/tiebreak/internal/luascript"
)

//go:embed lua/*.lua
var luaFiles embed.FS

// scriptSet holds a timeline's scripts. Each is the timeline's constants,
// then lua/common.lua, then the fragments scriptParts declares: one
// straight path per strategy, with nothing parsed or built per call that
// the call does not use. The lex strategy reads with plain commands and has
// no get, before or after script.
type scriptSet struct {
	appendMsgs, trim, remove   *luascript.Script
	get, before, after, around *luascript.Script
}

// scriptCache shares one scriptSet between timelines of equal constants
// and retention (every room of an application, typically), so each SHA1 is
// computed once.
var scriptCache sync.Map // constants, retain -> *scriptSet

// scriptConsts are the constants every script of a timeline starts with
// (see lua/common.lua).
func scriptConsts(split bool, idLen, sufLen int, o Options) []luascript.Const {
	count, min := "'ZCOUNT'", "'-inf'"
	if !split {
		count, min = "'ZLEXCOUNT'", "'-'"
	}
	return []luascript.Const{
		{Name: "IDLEN", Value: strconv.Itoa(idLen)}, {Name: "SUF", Value: strconv.Itoa(sufLen)},
		{Name: "MAXLEN", Value: strconv.FormatInt(o.MaxLen, 10)}, {Name: "MAXTRIM", Value: strconv.Itoa(MaxTrim)},
		{Name: "AGECOUNT", Value: count}, {Name: "AGEMIN", Value: min},
	}
}

func scriptsFor(consts []luascript.Const, split, retain bool) *scriptSet {
	key := fmt.Sprint(consts, retain)
	if s, ok := scriptCache.Load(key); ok {
		return s.(*scriptSet)
	}
	lua := map[string]*luascript.Script{}
	for _, p := range scriptParts(split, retain) {
		src := assemble(consts, p)
		lua[p.op] = luascript.New(src)
		if p.readOnly {
			lua[p.op] = luascript.NewReadOnly(src)
		}
	}
	s := &scriptSet{appendMsgs: lua["append"], trim: lua["trim"], remove: lua["remove"],
		get: lua["get"], before: lua["before"], after: lua["after"], around: lua["around"]}
	actual, _ := scriptCache.LoadOrStore(key, s)
	return actual.(*scriptSet)
}

// scriptPart is one script: after the constants and common.lua, the named
// fragments.
type scriptPart struct {
	op       string
	readOnly bool
	names    []string
}

// scriptParts lists a timeline's scripts for its strategy and retention.
// An append ends with trim.lua (after retain.lua) when the timeline
// retains, else with none.lua.
func scriptParts(split, retain bool) []scriptPart {
	appendNames := []string{"append", "none"}
	if retain {
		appendNames = []string{"retain", "append", "trim"}
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

// assemble is the text Redis runs for part.
func assemble(consts []luascript.Const, part scriptPart) string {
	return luascript.MustAssemble(luaFiles, "lua", "timeline: "+part.op, consts, append([]string{"common"}, part.names...)...)
}
