package decimalmap

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// keyPool holds awkward keys: one number in several spellings, zero in
// several forms, negatives, exponents, neighbours that differ only far
// after the point, integers beyond 2^53.
var keyPool = []string{
	"0", "-0", "0.000", "+0e7", "1", "1.0", "001", "-1", "-1.5", "1.5", "-0.5", ".5", "5.",
	"25500.1", "25500.10", "2.55001E4", "25500.12345", "25500.12346", "25505.05443",
	"25505.233", "25506.12345", "25505.2", "-25500.12346", "-25500.1234",
	"1E+30", "1e30", "1E+31", "-1E+30", "0.00001", "-0.00001", "1E-40", "-1E-40",
	"9007199254740993", "9007199254740992.5", "-9007199254740993",
	"123456789012345678901234567890.123456789", "123456789012345678901234567890.12345679",
	"10", "9.99", "99.9", "100", "1E+2",
}

var valuePool = []string{"user1", "user2", "user3", "", "a b", "x\x00y", "é"}

// workload drives random operations through maps and a model, failing on
// the first answer that differs.
type workload struct {
	t     *testing.T
	rng   *rand.Rand
	model *model
	maps  []*Map
}

func newWorkload(t *testing.T, maps ...*Map) *workload {
	seed := rand.Uint64()
	t.Logf("random seed %d", seed)
	return &workload{t: t, rng: rand.New(rand.NewPCG(seed, 5)), model: newModel(t), maps: maps}
}

func TestDifferential(t *testing.T) {
	env := redistest.New(t)
	newWorkload(t, newMap(t, env.Client, env.Prefix, "a"), newMap(t, env.Client, env.Prefix, "b")).run(1500)
}

func (w *workload) run(steps int) {
	for step := range steps {
		switch n := w.rng.IntN(20); {
		case n < 8:
			w.add(step)
		case n < 11:
			w.removeValue(step)
		case n < 12:
			w.remove(step)
		default:
			w.read(step)
		}
	}
}

// key returns a key from the pool, an existing key in another spelling,
// or a random small decimal (so keys recur and collide).
func (w *workload) key() string {
	switch w.rng.IntN(3) {
	case 0:
		return keyPool[w.rng.IntN(len(keyPool))]
	case 1:
		if ks := w.model.sorted(); len(ks) > 0 {
			return respell(ks[w.rng.IntN(len(ks))].rat.FloatString(12), w.rng)
		}
	}
	s := strconv.Itoa(w.rng.IntN(30))
	if w.rng.IntN(2) == 0 {
		s += "." + strconv.Itoa(w.rng.IntN(100))
	}
	if w.rng.IntN(3) == 0 {
		s = "-" + s
	}
	return s
}

// respell writes the decimal s (as big.Rat.FloatString writes it) another
// way: trailing zeros, a leading '+', or an exponent.
func respell(s string, rng *rand.Rand) string {
	switch rng.IntN(3) {
	case 0:
		return s + "000"
	case 1:
		if s[0] != '-' {
			return "+" + s
		}
	}
	return s + "0e0"
}

func (w *workload) values() []string {
	vals := make([]string, 1+w.rng.IntN(3))
	for i := range vals {
		vals[i] = valuePool[w.rng.IntN(len(valuePool))]
	}
	return vals
}

func (w *workload) add(step int) {
	key, vals := w.key(), w.values()
	want := w.model.add(key, vals)
	for _, m := range w.maps {
		got, err := m.Add(context.Background(), key, vals...)
		if err != nil || got != want {
			w.t.Fatalf("step %d %s: Add(%q, %q) = %d, %v; want %d", step, m.Name(), key, vals, got, err, want)
		}
	}
}

func (w *workload) removeValue(step int) {
	key, val := w.key(), valuePool[w.rng.IntN(len(valuePool))]
	want := w.model.removeValue(key, val)
	for _, m := range w.maps {
		got, err := m.RemoveValue(context.Background(), key, val)
		if err != nil || got != want {
			w.t.Fatalf("step %d %s: RemoveValue(%q, %q) = %v, %v; want %v", step, m.Name(), key, val, got, err, want)
		}
	}
}

// remove removes one to three keys, at times two spellings of one number.
func (w *workload) remove(step int) {
	keys := make([]string, 1+w.rng.IntN(3))
	for i := range keys {
		keys[i] = w.key()
	}
	want := w.model.remove(keys)
	for _, m := range w.maps {
		got, err := m.Remove(context.Background(), keys...)
		if err != nil || got != want {
			w.t.Fatalf("step %d %s: Remove(%q) = %d, %v; want %d", step, m.Name(), keys, got, err, want)
		}
	}
}

func (w *workload) bound() Bound {
	switch w.rng.IntN(5) {
	case 0:
		return Unbounded()
	case 1, 2:
		return Inclusive(w.key())
	}
	return Exclusive(w.key())
}

func (w *workload) query() Query {
	q := Query{Min: w.bound(), Max: w.bound(), Reverse: w.rng.IntN(2) == 0}
	if w.rng.IntN(2) == 0 {
		q.Limit = 1 + w.rng.IntN(6)
	}
	return q
}

// read compares one randomly chosen read on every map with the model.
func (w *workload) read(step int) {
	ctx := context.Background()
	key, q, n := w.key(), w.query(), 1+w.rng.IntN(7)
	op := w.rng.IntN(10)
	var want any
	switch {
	case op < 2:
		want = w.model.get(key)
	case op < 3:
		want = int64(len(w.model.keys))
	case op < 9:
		want = w.model.query(q)
	default:
		want = w.model.query(Query{})
	}
	for _, m := range w.maps {
		var got any
		var err error
		switch {
		case op < 2:
			got, err = m.Get(ctx, key)
		case op < 3:
			got, err = m.Len(ctx)
		case op < 9:
			got, err = m.Range(ctx, q)
		default:
			got, err = scanAll(ctx, m, n)
		}
		if err != nil {
			w.t.Fatalf("step %d %s: read %d: %v", step, m.Name(), op, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			w.t.Fatalf("step %d %s: read %d %s (-want +got):\n%s", step, m.Name(), op, fmt.Sprint(key, q, n), diff)
		}
	}
}

// scanAll pages through the whole map with Scan, n keys a page, checking
// that every page but the last is full.
func scanAll(ctx context.Context, m *Map, n int) ([]Entry, error) {
	out := []Entry{}
	var c Cursor
	for {
		p, err := m.Scan(ctx, c, n)
		if err != nil {
			return out, err
		}
		out = append(out, p.Entries...)
		if !p.HasMore {
			return out, nil
		}
		if len(p.Entries) != n || p.Next == "" {
			return out, fmt.Errorf("page of %d entries, cursor %q, with more to come", len(p.Entries), p.Next)
		}
		c = p.Next
	}
}

// TestDifferentialCluster runs the workload on a 3-master Redis Cluster,
// on maps whose hash tags land on different masters, so the scripts that
// reach list keys not in KEYS (Range, Scan, Drop) run on every node; then
// Drop removes every map.
func TestDifferentialCluster(t *testing.T) {
	env := redistest.NewCluster(t, 3)
	maps := mapsOnEveryNode(t, env.Client, env.Prefix)
	newWorkload(t, maps...).run(400)
	for _, m := range maps {
		if err := m.Drop(context.Background()); err != nil {
			t.Fatalf("Drop on the cluster: %v", err)
		}
	}
	if snap := snapshot(t, env.Client, env.Prefix); len(snap) != 0 {
		t.Errorf("Redis keys left after Drop: %d, first %q", len(snap), snap[0])
	}
}

// mapsOnEveryNode returns one map per master of a cluster.
func mapsOnEveryNode(t *testing.T, client rueidis.Client, prefix string) []*Map {
	t.Helper()
	nodes := client.Nodes()
	byNode := map[string]*Map{}
	for i := 0; len(byNode) < len(nodes) && i < 1000; i++ {
		m := newMap(t, client, prefix, strconv.Itoa(i))
		addr := ownerOf(t, nodes, m.keys.index)
		if byNode[addr] == nil {
			byNode[addr] = m
		}
	}
	if len(byNode) != len(nodes) {
		t.Fatalf("found maps on %d of %d nodes", len(byNode), len(nodes))
	}
	var maps []*Map
	for _, m := range byNode {
		maps = append(maps, m)
	}
	return maps
}

// ownerOf returns the address of the node that serves key: the one that
// answers a command on it instead of redirecting.
func ownerOf(t *testing.T, nodes map[string]rueidis.Client, key string) string {
	t.Helper()
	for addr, node := range nodes {
		if err := node.Do(context.Background(), node.B().Exists().Key(key).Build()).Error(); err == nil {
			return addr
		}
	}
	t.Fatalf("no node serves %q", key)
	return ""
}
