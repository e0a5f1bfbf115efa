package board

import (
	"cmp"
	"embed"
	"fmt"
	"slices"
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
	submit, remove, setData, join, hide, top *luascript.Script
	submitLean                               *luascript.Script // nil but where submitsLean may hold
	rank, get, rang, around, after, between  *luascript.Script
	among, percentile                        *luascript.Script
	shardRun, shardSample, shardProbe        *luascript.Script
	copy, mirrorIDs                          *luascript.Script
	drain                                    *luascript.Script
}

// scriptCache shares one scriptSet between boards of equal constants (the
// windows of a Periodic board, say), so each SHA1 is computed once.
var scriptCache sync.Map // constants -> *scriptSet

// scriptFragments declares each script's fragments, in order; the
// read-only ones may run on replicas. "mirror" stands for mirror.lua in a
// migrating board's scripts and nomirror.lua in the others; the scripts
// marked migrating exist only in a migrating board's set, drain only in an
// exporting or frozen shard's, submitlean only in a live generation of a
// key-suffix board that keeps an id lookup (see leanSuffix).
var scriptFragments = []struct {
	name                string
	readOnly, migrating bool
	fragments           []string
}{
	{"submit", false, false, []string{"lookup", "side", "keeptop", "mirror", "nocheck", "guard", "rules", "submit"}},
	{"submitlean", false, false, []string{"lookup", "guard", "submitlean"}},
	{"remove", false, false, []string{"lookup", "side", "common", "keeptop", "mirror", "remove"}},
	{"setdata", false, false, []string{"lookup", "common", "mirror", "rules", "setdata"}},
	{"join", false, false, []string{"guard", "rules", "join"}},
	{"hide", false, false, []string{"lookup", "side", "common", "keeptop", "guard", "hide"}},
	{"top", false, false, []string{"keeptop", "top"}},
	{"rank", true, false, []string{"lookup", "common", "ranks", "position", "rank"}},
	{"get", true, false, []string{"lookup", "get"}},
	{"range", true, false, []string{"lookup", "common", "ranks", "range"}},
	{"around", true, false, []string{"lookup", "common", "ranks", "around"}},
	{"after", true, false, []string{"lookup", "common", "ranks", "after"}},
	{"between", true, false, []string{"lookup", "common", "ranks", "between"}},
	{"among", true, false, []string{"lookup", "common", "ranks", "among"}},
	{"percentile", true, false, []string{"lookup", "common", "side", "percentile"}},
	{"copy", false, true, []string{"lookup", "mirror", "position", "moved", "copy"}},
	{"mirrorids", false, true, []string{"lookup", "mirror", "mirrorids"}},
	{"shardrun", true, false, []string{"lookup", "common", "position", "shardrun"}},
	{"shardsample", true, false, []string{"lookup", "common", "position", "shardsample"}},
	{"shardprobe", true, false, []string{"lookup", "common", "ranks", "position", "shardprobe"}},
	{"drain", false, false, []string{"lookup", "common", "moved", "drain"}},
}

// Modes of a generation's scripts: what the writes do beside their own
// keys. modeMigrating mirrors each write into a migration's target
// (mirror.lua), modeExporting records each written id in the dirty set of
// a shard whose entries move to other shards (exportmirror.lua), and
// modeFrozen refuses every write (frozen.lua). modeFenced is a
// resharding's own handle on a new shard: its writes run only while the
// shard's meta HASH names its lease (fence.lua).
const (
	modeLive      = ""
	modeMigrating = "migrating"
	modeExporting = "exporting"
	modeFrozen    = "frozen"
	modeFenced    = "fenced"
)

// modeOf is the mode of a generation that is migrating or not, in a
// shard's export phase (phaseExporting, phaseFrozen or "").
func modeOf(migrating bool, state phase) string {
	switch {
	case migrating:
		return modeMigrating
	case state == phaseExporting:
		return modeExporting
	case state == phaseFrozen:
		return modeFrozen
	}
	return modeLive
}

func scriptsFor(consts []luascript.Const, mode string) *scriptSet {
	key := fmt.Sprint(mode, consts)
	if s, ok := scriptCache.Load(key); ok {
		return s.(*scriptSet)
	}
	src := scriptSources(consts, mode)
	lua := make(map[string]*luascript.Script, len(scriptFragments))
	for _, f := range scriptFragments {
		if text, ok := src[f.name]; ok && f.readOnly {
			lua[f.name] = luascript.NewReadOnly(text)
		} else if ok {
			lua[f.name] = luascript.New(text)
		}
	}
	s := &scriptSet{
		submit: lua["submit"], submitLean: lua["submitlean"], remove: lua["remove"], setData: lua["setdata"], join: lua["join"], hide: lua["hide"], top: lua["top"],
		rank: lua["rank"], get: lua["get"], rang: lua["range"], around: lua["around"],
		after: lua["after"], between: lua["between"], among: lua["among"], percentile: lua["percentile"],
		shardRun: lua["shardrun"], shardSample: lua["shardsample"], shardProbe: lua["shardprobe"],
		copy: lua["copy"], mirrorIDs: lua["mirrorids"], drain: lua["drain"],
	}
	if mode == modeFrozen {
		s.submit, s.remove, s.setData, s.join, s.hide = frozenScript, frozenScript, frozenScript, frozenScript, frozenScript
	}
	actual, _ := scriptCache.LoadOrStore(key, s)
	return actual.(*scriptSet)
}

// scriptSources returns the text Redis runs for each script, by name: the
// constants, those of the lifecycle its fragments name, then the fragments.
func scriptSources(consts []luascript.Const, mode string) map[string]string {
	src := make(map[string]string, len(scriptFragments))
	mirror := map[string]string{modeMigrating: "mirror", modeExporting: "exportmirror"}[mode]
	for _, f := range scriptFragments {
		if f.migrating && mode != modeMigrating || f.name == "drain" && mode != modeExporting && mode != modeFrozen ||
			f.name == "submitlean" && !(mode == modeLive && leanSuffix(consts)) {
			continue
		}
		var frags []string
		if mode == modeFenced && !f.readOnly {
			frags = append(frags, "fence")
		}
		for _, name := range f.fragments {
			if name == "mirror" {
				name = cmp.Or(mirror, "nomirror")
			}
			frags = append(frags, name)
		}
		all := append(consts[:len(consts):len(consts)], lifecycleConsts(frags...)...)
		src[f.name] = luascript.MustAssemble(luaFiles, "lua", "board: "+f.name, all, frags...)
	}
	return src
}

// leanSuffix reports whether the constants consts are those of a
// key-suffix board with an id lookup (WIDTH > 0) and nothing beside it
// that a write keeps (dense ranks, a cap, rules, hiding, the best entries'
// key, a shard's histogram): the board
// whose plain writes submitlean.lua makes.
func leanSuffix(consts []luascript.Const) bool {
	want := map[string]string{"STRATEGY": "'s'", "DENSE": "false", "CAP": "0", "RULES": "false", "HIDING": "false", "TOPN": "0", "HIST": "false"}
	lean := true
	for _, c := range consts {
		if v, ok := want[c.Name]; ok && c.Value != v || c.Name == "WIDTH" && c.Value == "0" {
			lean = false
		}
	}
	return lean
}

// The scripts that work on a board's meta HASH and generations, the same
// for every board: their only constants are the lifecycle's.
var (
	metaScript = staticScript("meta")
	// metaReadScript is meta.lua sent as a read (it writes nothing when
	// its descriptor argument is empty).
	metaReadScript = luascript.NewReadOnly(staticSource("meta"))
	dropScript     = staticScript("drop")
	clearScript    = staticScript("clear")
	beginScript    = staticScript("begin")
	switchScript   = staticScript("switch")
	archiveScript  = staticScript("archive")
	exportScript   = staticScript("export")
	retireScript   = staticScript("retire")
	reshardScript  = staticScript("reshard")
	frozenScript   = staticScript("frozen")
	shardPos       = staticScript("shardpos")
)

// staticNames lists the scripts without constants, for the golden test.
var staticNames = []string{"meta", "drop", "clear", "begin", "switch", "archive", "export", "retire", "reshard", "frozen", "shardpos"}

func staticScript(name string) *luascript.Script {
	return luascript.New(staticSource(name))
}

// staticFragments lists the fragments a static script runs before its
// own: moved.lua for those that move a migration or a resharding.
var staticFragments = map[string][]string{
	"begin": {"moved"}, "switch": {"moved"}, "export": {"moved"},
	"retire": {"moved"}, "reshard": {"moved"}, "shardpos": {"moved"},
}

func staticSource(name string) string {
	frags := append(slices.Clone(staticFragments[name]), name)
	return luascript.MustAssemble(luaFiles, "lua", "board: "+name, lifecycleConsts(frags...), frags...)
}

// fragmentTexts returns the text of each fragment (lua/<name>.lua).
func fragmentTexts(names []string) []string {
	out := make([]string, len(names))
	for i, name := range names {
		b, err := luaFiles.ReadFile("lua/" + name + ".lua")
		if err != nil {
			panic(fmt.Sprintf("board: fragment %s: %v", name, err)) // embedded: missing is a bug
		}
		out[i] = string(b)
	}
	return out
}
