package board

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// The differential test on boards that keep nothing beside their
// entries, with hundreds of awkward ids: the key-suffix board's writes
// take submitlean.lua, whose buckets must split as lookup.lua's do, and
// its removes lookup.lua, which must read what submitlean.lua wrote.
func TestDifferentialLeanManyIDs(t *testing.T) {
	w := newWorkload(t, testLayout(t), Options{})
	w.ids = manyIDs(700)
	w.run(3000, false)
	b := w.boards[1]
	checkLookup(t, b)
	if n, err := b.rc().Do(t.Context(), b.rc().B().Hget().Key(b.gen.Load().keys.lk).Field("n").Build()).AsInt64(); err != nil || n < 8 {
		t.Errorf("the lookup has %d buckets (%v) for %d ids: the buckets did not split", n, err, len(w.model.vals))
	}
}

// Concurrent Best writes to a key-suffix board share calls of
// submitlean.lua (see combiner), and SubmitMany sends them batched: in
// whatever order they ran, each id must hold the best of the values
// submitted for it, ranked among the others, and the lookup must hold
// exactly the entries. Ids repeat within a batch, and new ones split the
// buckets while a batch runs.
func TestSuffixLeanBatchesConcurrentBest(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	b := newBoard(t, env.Client, env.Prefix, "lean", l, Options{Strategy: KeySuffix})
	ref := newBoard(t, env.Client, env.Prefix, "ref", l, Options{Strategy: KeySuffix, Cap: 1 << 40}) // submit.lua
	ids := manyIDs(600)
	const callers, each = 64, 40
	subs := make([][]Submission, callers+1)
	for c := range subs {
		rng := rand.New(rand.NewPCG(uint64(c), 7))
		for range each {
			vals := []float64{float64(rng.IntN(1 << 10)), float64(rng.IntN(2)), float64(rng.IntN(256))}
			subs[c] = append(subs[c], Submission{ID: ids[rng.IntN(len(ids))], Values: vals, Policy: Best})
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, (callers+1)*each) // room for every write to fail
	for c := range callers {
		wg.Go(func() {
			for _, s := range subs[c] {
				if _, err := b.Submit(ctx, s); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Go(func() {
		for _, r := range b.SubmitMany(ctx, subs[callers]) {
			if r.Err != nil {
				errs <- r.Err
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, ss := range subs {
		for _, s := range ss {
			if _, err := ref.Submit(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := b.Top(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Top(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("board written concurrently against one written in turn (-want +got):\n%s", diff)
	}
	checkLookup(t, b)
	// Writing the best again changes nothing, and writes nothing.
	for _, e := range got.Entries[:20] {
		before := b.gen.Load().keys
		dump := func() string {
			s, err := b.rc().Do(ctx, b.rc().B().Dump().Key(before.i).Build()).ToString()
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		d := dump()
		r, err := b.Submit(ctx, Submission{ID: e.ID, Values: e.Values, Policy: Best})
		if err != nil || r.Changed || r.Entry.Rank != e.Rank {
			t.Errorf("Submit of %q's own best: %+v, %v; want unchanged at rank %d", e.ID, r, err, e.Rank)
		}
		if dump() != d {
			t.Errorf("Submit of %q's own best rewrote the lookup", e.ID)
		}
	}
}

// A key-suffix board of one field stores the id itself as the member (no
// prefix): it keeps no lookup HASH, and no path reads or writes one:
// writes of every policy, reads, hiding, removes, a migration to and from
// it, a resharding of a sharded board, Clear and Drop. Its plain writes
// are native, as a packed board's.
func TestSuffixOneFieldKeepsNoLookup(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	one, err := pack.NewLayout(pack.Field{Name: "time", Width: 20, Dir: pack.LowerIsBetter})
	if err != nil {
		t.Fatal(err)
	}
	noLookup := func(when string) {
		t.Helper()
		var found []string
		cursor := uint64(0)
		for {
			e, err := env.Client.Do(ctx, env.Client.B().Scan().Cursor(cursor).Match("*"+env.Prefix+"*").Count(1000).Build()).AsScanEntry()
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range e.Elements {
				if !strings.HasSuffix(k, ":i") {
					continue
				}
				// A migration leaves a tombstone (a string) at every old
				// generation's names, i among them, packed boards' too.
				if typ, err := env.Client.Do(ctx, env.Client.B().Type().Key(k).Build()).ToString(); err != nil || typ != "string" {
					found = append(found, k+" ("+typ+")")
				}
			}
			if cursor = e.Cursor; cursor == 0 {
				break
			}
		}
		if len(found) > 0 {
			t.Fatalf("%s: lookup HASHes %q, want none", when, found)
		}
	}
	b := newBoard(t, env.Client, env.Prefix, "one", one, Options{Strategy: KeySuffix, Hiding: true})
	if b.lookup() || b.gen.Load().keys.lk != "" {
		t.Fatalf("a one-field key-suffix board keeps a lookup")
	}
	if !newBoard(t, env.Client, env.Prefix, "plain", one, Options{Strategy: KeySuffix}).writesNative() {
		t.Errorf("a one-field key-suffix board's plain writes are not native")
	}
	for i := range 50 {
		id := fmt.Sprintf("p%d", i)
		for _, s := range []Submission{
			{ID: id, Values: []float64{float64(100 - i)}},
			{ID: id, Values: []float64{float64(200 + i)}, Policy: Best},
			{ID: id, Values: []float64{float64(50 - i)}, Policy: Best},
			{ID: id, Values: []float64{float64(10)}, Fields: []Policy{Min}},
		} {
			if _, err := b.Submit(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := b.Update(ctx, "p3", func(e *Entry) ([]float64, error) { return []float64{e.Values[0] - 1}, nil }); err != nil {
		t.Fatal(err)
	}
	e, err := b.Get(ctx, "p3")
	if err != nil || e.Values[0] != 9 {
		t.Errorf("Get(p3) = %+v, %v; want 9", e, err)
	}
	if n, err := b.Hide(ctx, "p1", "p2"); err != nil || n != 2 {
		t.Errorf("Hide = %d, %v", n, err)
	}
	if n, err := b.Show(ctx, "p2"); err != nil || n != 1 {
		t.Errorf("Show = %d, %v", n, err)
	}
	if n, err := b.Remove(ctx, "p1", "p4"); err != nil || n != 2 {
		t.Errorf("Remove = %d, %v", n, err)
	}
	if _, err := b.Get(ctx, "p4"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(p4) after Remove: %v, want ErrNotFound", err)
	}
	checkLookup(t, b)
	noLookup("after the writes")

	// To two fields (a lookup) and back to one, then to a packed board and
	// back (a board with hiding does not migrate).
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	b = newBoard(t, env.Client, env.Prefix, "mig", one, Options{Strategy: KeySuffix})
	for i := range 50 {
		if _, err := b.Submit(ctx, Submission{ID: fmt.Sprintf("p%d", i), Values: []float64{float64(i * 3)}, Policy: Best}); err != nil {
			t.Fatal(err)
		}
	}
	two, err := pack.NewLayout(pack.Field{Name: "time", Width: 20, Dir: pack.LowerIsBetter}, pack.Field{Name: "level", Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	wide, err := b.Migrate(ctx, two, Options{Strategy: KeySuffix}, MigrateOptions{Defaults: map[string]float64{"level": 3}})
	if err != nil {
		t.Fatal(err)
	}
	checkLookup(t, wide)
	back, err := wide.Migrate(ctx, one, Options{Strategy: KeySuffix}, MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkLookup(t, back)
	noLookup("after migrating back to one field")
	if e, err := back.Get(ctx, "p3"); err != nil || e.Values[0] != 9 {
		t.Errorf("Get(p3) after two migrations = %+v, %v; want 9", e, err)
	}
	packed, err := back.Migrate(ctx, one, Options{}, MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := packed.Migrate(ctx, one, Options{Strategy: KeySuffix}, MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	noLookup("after migrating through a packed board")
	if err := b.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}

	// A sharded board, resharded.
	sb := newSharded(t, env.Client, env.Prefix, "sharded", one, Options{Strategy: KeySuffix, Shards: 2})
	for i := range 40 {
		if _, err := sb.Submit(ctx, Submission{ID: fmt.Sprintf("s%d", i), Values: []float64{float64(i)}, Policy: Best}); err != nil {
			t.Fatal(err)
		}
	}
	sb, err = sb.Reshard(ctx, 3, MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	top, err := sb.Top(ctx, 100)
	if err != nil || len(top.Entries) != 40 || top.Entries[0].ID != "s0" {
		t.Errorf("Top after Reshard: %d entries, %v", len(top.Entries), err)
	}
	noLookup("after resharding")
}

// A one-field key-suffix board that an earlier version wrote kept a
// lookup HASH: its descriptor is the same, so this version reads and
// writes it, ignoring the HASH, which Clear deletes.
func TestSuffixOneFieldOlderLookupHash(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	one, err := pack.NewLayout(pack.Field{Name: "time", Width: 20, Dir: pack.LowerIsBetter})
	if err != nil {
		t.Fatal(err)
	}
	b := newBoard(t, env.Client, env.Prefix, "older", one, Options{Strategy: KeySuffix})
	if _, err := b.Submit(ctx, Submission{ID: "a", Values: []float64{5}}); err != nil {
		t.Fatal(err)
	}
	i := b.gen.Load().keys.i
	c := env.Client
	if err := c.Do(ctx, c.B().Hset().Key(i).FieldValue().FieldValue("0", "\x00\x03a").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, c, b.Name(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := again.Submit(ctx, Submission{ID: "a", Values: []float64{3}, Policy: Best}); err != nil || !r.Changed {
		t.Errorf("Best write: %+v, %v", r, err)
	}
	if n, err := again.Remove(ctx, "a"); err != nil || n != 1 {
		t.Errorf("Remove = %d, %v", n, err)
	}
	if err := again.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Do(ctx, c.B().Exists().Key(i).Build()).AsInt64(); err != nil || n != 0 {
		t.Errorf("EXISTS %s after Clear = %d, %v", i, n, err)
	}
}

// A capped key-suffix board whose new id splits its bucket and is then
// trimmed by the cap forgets the id: the split may move only the new
// record out of the bucket, leaving the bucket as it was before the write,
// and the trim must not take that for the id's absence. Every write of
// every policy then finds the board as its entries say (checkLookup).
func TestCapForgetsTheIDASplitMoved(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	for _, dense := range []bool{false, true} {
		b := newBoard(t, env.Client, env.Prefix, fmt.Sprint("capsplit", dense), l, Options{Strategy: KeySuffix, Cap: 5, DenseRanks: dense})
		rng := rand.New(rand.NewPCG(1, uint64(len(fmt.Sprint(dense)))))
		policies := []Policy{Replace, Best, Add, Max, Min, Keep, Replace}
		for i := range 1500 {
			id := fmt.Sprint("p", rng.IntN(300))
			if rng.IntN(4) == 0 { // long ids make a bucket long enough that a short one splits it
				id = strings.Repeat("L", 200) + id
			}
			s := Submission{ID: id, Values: []float64{float64(rng.IntN(8)), float64(rng.IntN(2)), float64(rng.IntN(4))}}
			if s.Policy = policies[rng.IntN(len(policies))]; s.Policy == Add {
				s.Values[0] = float64(rng.IntN(2)) // adds within the fields
				s.Values[1], s.Values[2] = 0, 0
			}
			if rng.IntN(len(policies)) == 0 {
				s.Policy, s.Fields = Replace, []Policy{Max, Replace, Min}
			}
			if _, err := b.Submit(ctx, s); err != nil {
				t.Fatalf("write %d (%+v), dense ranks %t: %v", i, s, dense, err)
			}
			checkLookup(t, b)
		}
	}
}
