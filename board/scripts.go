package board

import (
	"embed"
	"fmt"
	"sync"

	"github.com/tiebreak/tiebreak/internal/luascript"
)

//go:embed lua/*.lua
var luaFiles embed.FS

// scriptSet holds the scripts of one board configuration in one
// generation. Each is the board's constants, then its fragments (lua/*.lua)
// in the order scriptFragments declares: with the constants baked in, no
// call spends time parsing them. copy and mirrorIDs are set only while the
// board migrates.
type scriptSet struct {
	submit, remove, setData            *luascript.Script
	rank, rang, around, after, between *luascript.Script
	among                              *luascript.Script
	copy, mirrorIDs                    *luascript.Script
}

// scriptCache shares one scriptSet between boards of equal constants (the
// windows of a Periodic board, say), so each SHA1 is computed once.
var scriptCache sync.Map // constants -> *scriptSet

// scriptFragments declares each script's fragments, in order; the
// read-only ones may run on replicas. "mirror" stands for mirror.lua in a
// migrating board's scripts and nomirror.lua in the others; the scripts
// marked migrating exist only in a migrating board's set.
var scriptFragments = []struct {
	name                string
	readOnly, migrating bool
	fragments           []string
}{
	{"submit", false, false, []string{"lookup", "side", "mirror", "nocheck", "submit"}},
	{"remove", false, false, []string{"lookup", "side", "common", "mirror", "remove"}},
	{"setdata", false, false, []string{"lookup", "common", "mirror", "setdata"}},
	{"rank", true, false, []string{"lookup", "common", "ranks", "rank"}},
	{"range", true, false, []string{"lookup", "common", "ranks", "range"}},
	{"around", true, false, []string{"lookup", "common", "ranks", "around"}},
	{"after", true, false, []string{"lookup", "common", "ranks", "after"}},
	{"between", true, false, []string{"lookup", "common", "ranks", "between"}},
	{"among", true, false, []string{"lookup", "common", "ranks", "among"}},
	{"copy", false, true, []string{"lookup", "mirror", "copy"}},
	{"mirrorids", false, true, []string{"lookup", "mirror", "mirrorids"}},
}

func scriptsFor(consts []luascript.Const, migrating bool) *scriptSet {
	key := fmt.Sprint(migrating, consts)
	if s, ok := scriptCache.Load(key); ok {
		return s.(*scriptSet)
	}
	src := scriptSources(consts, migrating)
	lua := make(map[string]*luascript.Script, len(scriptFragments))
	for _, f := range scriptFragments {
		if text, ok := src[f.name]; ok && f.readOnly {
			lua[f.name] = luascript.NewReadOnly(text)
		} else if ok {
			lua[f.name] = luascript.New(text)
		}
	}
	s := &scriptSet{
		submit: lua["submit"], remove: lua["remove"], setData: lua["setdata"],
		rank: lua["rank"], rang: lua["range"], around: lua["around"],
		after: lua["after"], between: lua["between"], among: lua["among"],
		copy: lua["copy"], mirrorIDs: lua["mirrorids"],
	}
	actual, _ := scriptCache.LoadOrStore(key, s)
	return actual.(*scriptSet)
}

// scriptSources returns the text Redis runs for each script, by name.
func scriptSources(consts []luascript.Const, migrating bool) map[string]string {
	src := make(map[string]string, len(scriptFragments))
	for _, f := range scriptFragments {
		if f.migrating && !migrating {
			continue
		}
		frags := make([]string, len(f.fragments))
		for i, name := range f.fragments {
			if name == "mirror" && !migrating {
				name = "nomirror"
			}
			frags[i] = name
		}
		src[f.name] = luascript.MustAssemble(luaFiles, "lua", "board: "+f.name, consts, frags...)
	}
	return src
}

// The scripts that work on a board's meta HASH and generations, the same
// for every board: they have no constants.
var (
	metaScript    = staticScript("meta")
	dropScript    = staticScript("drop")
	beginScript   = staticScript("begin")
	switchScript  = staticScript("switch")
	archiveScript = staticScript("archive")
)

// staticNames lists the scripts without constants, for the golden test.
var staticNames = []string{"meta", "drop", "begin", "switch", "archive"}

func staticScript(name string) *luascript.Script {
	return luascript.New(staticSource(name))
}

func staticSource(name string) string {
	return luascript.MustAssemble(luaFiles, "lua", "board: "+name, nil, name)
}
