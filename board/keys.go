package board

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tiebreak/tiebreak/internal/hashtag"
	"github.com/tiebreak/tiebreak/internal/luascript"
)

// maxNameLen is the longest board name, in bytes.
const maxNameLen = 200

// keys are a board's Redis keys in one generation, all sharing the hash tag
// {name} so every script runs on one Redis Cluster slot:
//
//	tb:{name}:meta   HASH: the descriptor and the generation (always this name)
//	tb:{name}:z      sorted set of entries              (generation 0)
//	tb:{name}:g2:z   the same in generation 2, and so on
//	...:d  HASH id -> member data
//	...:i  HASH bucket -> ids and member prefixes (key-suffix strategy)
//	...:v  sorted set of distinct value tuples (dense ranks)
//	...:c  HASH tuple -> entries holding it (dense ranks)
//	...:x  SET of ids that do not fit the target layout (while migrating)
//	...:h  sorted set of hidden entries, as z (Options.Hiding)
//	...:top  STRING: the best entries, encoded (Options.KeepTop, cache.go)
//	...:hist  HASH score bucket -> entries (a shard of a sharded board)
//	tb:{name}:a  HASH id -> scored attempts, one per entrant of a board with
//	             Rules (in every generation: a migration keeps it)
//
// A board starts in generation 0. A migration moves the entries to new
// names (migrate.go).
type keys struct {
	meta          string
	z, d, i, v, c string
	// a is the entrants HASH of a board with Rules (the same name in
	// every generation); h the sorted set of hidden entries of a board
	// with Hiding.
	a, h string
	// top holds the best entries of a board with KeepTop (cache.go).
	top string
	// hist is the score histogram of a shard of a sharded board
	// (lua/side.lua's bucket -> entries), for Percentile.
	hist string
	// lk is the id lookup of a key-suffix board whose members have a
	// prefix: i; "" for a packed board and for a key-suffix board of one
	// field, whose member is the id (see Board.lookup).
	lk string
	// migrating only: the target generation's keys, and the misfit set.
	t *keys
	x string
	// dirty is the SET of ids written since a shard of a sharded board
	// began exporting its entries (export.go), inflight those taken from
	// it and not yet copied; in script only then.
	dirty, inflight string
	// script holds the keys a script of this board may touch, in the order
	// their K constants index them (luaIndexes): z, then lk for key suffix,
	// then v and c for dense ranks, then a for a board with Rules, h for
	// one with Hiding, top for one with KeepTop, hist for a shard, then
	// meta, then d; while migrating, the
	// target's data keys in the same order and x. Every write reads the
	// meta HASH (submit.lua: a board dropped under a handle).
	script []string
	// nlean is how many leading keys of script a submit that writes no
	// member data, sets no expiry and trims no cap needs (see lean): all
	// but d.
	nlean int
}

// genKeys returns the keys of generation n of the board whose keys start
// with prefix (see prefixOf), for the options of o and, when lookup is
// true, its id lookup (Board.lookup); a migrating generation gets its
// target's keys with withTarget.
func genKeys(prefix string, n int64, o Options, lookup bool) keys {
	k := names(prefix, n)
	if lookup {
		k.lk = k.i
	}
	if o.SharedData {
		k.d = sharedDataKey(o.Group)
	}
	data := k.data(o)
	k.script = data[: len(data)-1 : len(data)-1]
	if o.Rules.set() {
		k.script = append(k.script, k.a)
	}
	if o.Hiding {
		k.script = append(k.script, k.h)
	}
	if o.KeepTop > 0 {
		k.script = append(k.script, k.top)
	}
	if o.shard {
		k.script = append(k.script, k.hist)
	}
	k.script = append(append(k.script, k.meta), k.d)
	k.nlean = len(k.script) - 1
	return k
}

// prefixOf is how every key of board name starts: "tb:{name}:", or, in a
// group, "tb:{group}:{name}:", so that the boards of a group share the
// hash tag {group} (Redis hashes the first braces only).
func prefixOf(group, name string) string {
	if group == "" {
		return "tb:{" + name + "}:"
	}
	return "tb:{" + group + "}:{" + name + "}:"
}

// sharedDataKey is the member-data HASH the boards of group share
// (Options.SharedData).
func sharedDataKey(group string) string { return "tb:{" + group + "}:data" }

// names returns every name of generation n of the board whose keys start
// with p, without the script order.
func names(p string, n int64) keys {
	g := p
	if n > 0 {
		g = p + "g" + strconv.FormatInt(n, 10) + ":"
	}
	return keys{meta: p + "meta", a: p + "a", h: g + "h", top: g + "top", hist: g + "hist", z: g + "z", d: g + "d", i: g + "i", v: g + "v", c: g + "c", x: g + "x", dirty: g + "dirty", inflight: g + "inflight"}
}

// data returns the data keys the lookup (lk) and options of o use, in
// script order: z, [lk], [v, c], d.
func (k keys) data(o Options) []string {
	out := []string{k.z}
	if k.lk != "" {
		out = append(out, k.lk)
	}
	if o.DenseRanks {
		out = append(out, k.v, k.c)
	}
	return append(out, k.d)
}

// withTarget returns k migrating to target t (stored with options to, with
// an id lookup when lookup is true): the target's data keys and the misfit
// set follow k's in script order, and no submit is lean (every write
// mirrors into the target).
func (k keys) withTarget(t keys, to Options, lookup bool) keys {
	if to.SharedData {
		t.d = sharedDataKey(to.Group)
	}
	if lookup {
		t.lk = t.i
	}
	k.t = &t
	k.script = append(k.script[:k.nlean+1:k.nlean+1], t.data(to)...)
	k.script = append(k.script, k.x)
	if to.Rules.MaxMembers > 0 && !slices.Contains(k.script, k.a) {
		k.script = append(k.script, k.a) // mirror.lua records the entrants
	}
	k.nlean = len(k.script)
	return k
}

// lean returns the keys of a submit that writes no member data, sets no
// expiry and trims no cap.
func (k keys) lean() []string { return k.script[:k.nlean] }

// withMeta returns script with the meta HASH last (again), for the scripts
// of a migration (copy.lua, mirrorids.lua) and drain.lua, which find their
// state in KEYS[#KEYS].
func (k keys) withMeta() []string {
	return append(k.script[:len(k.script):len(k.script)], k.meta)
}

// all returns every key of the generation: data keys, and while migrating
// the target's and the misfit set.
func (k keys) all() []string {
	out := []string{k.z, k.d, k.i, k.v, k.c}
	if k.t != nil {
		out = append(out, k.t.z, k.t.d, k.t.i, k.t.v, k.t.c, k.x)
	}
	return out
}

// luaIndexes are the K constants of lua/common.lua (and, while migrating,
// the TK constants of lua/mirror.lua): each key's index in KEYS, 0 for a
// key the script cannot touch.
func (k keys) luaIndexes() []luascript.Const {
	idx := map[string]int{}
	for i, key := range k.script {
		idx[key] = i + 1
	}
	named := []struct{ name, key string }{{"KZ", k.z}, {"KD", k.d}, {"KM", k.lk}, {"KV", k.v}, {"KC", k.c}, {"KA", k.a}, {"KH", k.h}, {"KT", k.top}, {"KHIST", k.hist}, {"KMETA", k.meta}}
	if idx[k.dirty] > 0 {
		named = append(named, struct{ name, key string }{"KDIRTY", k.dirty}, struct{ name, key string }{"KINFLIGHT", k.inflight})
	}
	if k.t != nil {
		named = append(named, []struct{ name, key string }{
			{"TKZ", k.t.z}, {"TKD", k.t.d}, {"TKM", k.t.lk}, {"TKV", k.t.v}, {"TKC", k.t.c}, {"KX", k.x}}...)
	}
	consts := make([]luascript.Const, 0, len(named))
	for _, c := range named {
		consts = append(consts, luascript.Const{Name: c.name, Value: strconv.Itoa(idx[c.key])})
	}
	return consts
}

func checkName(name string) error {
	if strings.Contains(name, "/") {
		return fmt.Errorf("board: name %q holds a slash, which names a board of a group (\"group/name\"): %w", name, errName)
	}
	return hashtag.Check(name, maxNameLen, "board: name", errName)
}

// checkGroup refuses an invalid Options.Group: one that checkName would
// refuse as a name, but with ErrOptions.
func checkGroup(group string) error {
	if strings.Contains(group, "/") {
		return fmt.Errorf("board: Options.Group %q holds a slash: %w", group, ErrOptions)
	}
	return hashtag.Check(group, maxNameLen, "board: Options.Group", ErrOptions)
}
