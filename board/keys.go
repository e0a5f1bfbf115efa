package board

import (
	"strconv"

	"github.com/tiebreak/tiebreak/internal/hashtag"
	"github.com/tiebreak/tiebreak/internal/luascript"
)

// MaxNameLen is the longest board name, in bytes.
const MaxNameLen = 200

// keys are a board's Redis keys, all sharing the hash tag {name} so every
// script runs on one Redis Cluster slot:
//
//	tb:{name}:z  sorted set of entries
//	tb:{name}:d  HASH id -> member data
//	tb:{name}:m  HASH id -> member (key-suffix strategy)
//	tb:{name}:v  sorted set of distinct value tuples (dense ranks)
//	tb:{name}:c  HASH tuple -> entries holding it (dense ranks)
type keys struct {
	z, d, m, v, c string
	// script holds the keys a script of this board may touch, in the order
	// lua/common.lua's K constants index them: z, then m for key suffix,
	// then v and c for dense ranks, then d last, so that a submit that
	// touches no member data can leave it out (see lean).
	script []string
}

// lean returns the keys of a submit that writes no member data, sets no
// expiry and trims no cap: all but d.
func (k keys) lean() []string { return k.script[:len(k.script)-1] }

func makeKeys(name string, suffix, dense bool) keys {
	p := "tb:{" + name + "}:"
	k := keys{z: p + "z", d: p + "d", m: p + "m", v: p + "v", c: p + "c"}
	k.script = []string{k.z}
	if suffix {
		k.script = append(k.script, k.m)
	}
	if dense {
		k.script = append(k.script, k.v, k.c)
	}
	k.script = append(k.script, k.d)
	return k
}

// all returns every key a board may have.
func (k keys) all() []string { return []string{k.z, k.d, k.m, k.v, k.c} }

// luaIndexes are the K constants of lua/common.lua: each key's index in
// KEYS, 0 for a key the board does not keep.
func (k keys) luaIndexes() []luascript.Const {
	idx := map[string]int{}
	for i, key := range k.script {
		idx[key] = i + 1
	}
	consts := make([]luascript.Const, 0, 5)
	for _, c := range []struct{ name, key string }{{"KZ", k.z}, {"KD", k.d}, {"KM", k.m}, {"KV", k.v}, {"KC", k.c}} {
		consts = append(consts, luascript.Const{Name: c.name, Value: strconv.Itoa(idx[c.key])})
	}
	return consts
}

func checkName(name string) error {
	return hashtag.Check(name, MaxNameLen, "board: name", ErrName)
}
