package board

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// fillSharded writes n entries with member data to b and a plain board
// alike, and returns the plain one.
func fillSharded(t *testing.T, env *redistest.Env, b *Board, n int, seed uint64) *Board {
	t.Helper()
	plain := newBoard(t, env.Client, env.Prefix, fmt.Sprint("plain", seed), b.Layout(), Options{Strategy: b.Options().Strategy})
	rng := rand.New(rand.NewPCG(seed, 5))
	subs := make([]Submission, n)
	for i := range subs {
		subs[i] = Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(rng.IntN(40)), float64(rng.IntN(2)), float64(rng.IntN(4))}}
		if i%3 == 0 {
			subs[i].Data = []byte(fmt.Sprint("data of p", i))
		}
	}
	loadAll(t, b, subs)
	loadAll(t, plain, subs)
	return plain
}

// sameBoard fails unless b holds what want holds, data included.
func sameBoard(t *testing.T, want anyBoard, b *Board) {
	t.Helper()
	w, err := scanAll(t.Context(), want, maxCount, WithData(), WithRanks(Competition))
	if err != nil {
		t.Fatal(err)
	}
	got, err := scanAll(t.Context(), b, maxCount, WithData(), WithRanks(Competition))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, got); diff != "" {
		t.Fatalf("%s (-want +got):\n%s", label(b), diff)
	}
}

// Resharding at rest, growing and shrinking, in both strategies: the board
// answers as before, the old shards are retired and a handle built before
// follows.
func TestReshardAtRest(t *testing.T) {
	for _, g := range [][2]int{{1, 3}, {4, 16}, {8, 3}, {3, 1}} {
		for _, s := range []Strategy{PackedScore, KeySuffix} {
			t.Run(fmt.Sprintf("%v/%d-%d", s, g[0], g[1]), func(t *testing.T) {
				env := redistest.New(t)
				ctx := t.Context()
				b := newSharded(t, env.Client, env.Prefix, "r", testLayout(t), Options{Strategy: s, Shards: g[0]})
				old := newSharded(t, env.Client, env.Prefix, "r", testLayout(t), Options{Strategy: s, Shards: g[0]})
				plain := fillSharded(t, env, b, 3000, uint64(g[0]*100+g[1]))
				oldShards := b.descriptorOf().ShardNames
				if _, err := b.Reshard(ctx, g[1], MigrateOptions{Batch: 50}); err != nil {
					t.Fatal(err)
				}
				if b.Options().Shards != g[1] || old.Options().Shards != g[0] {
					t.Fatalf("shards: %d and %d, want %d and, not yet called, %d", b.Options().Shards, old.Options().Shards, g[1], g[0])
				}
				sameBoard(t, plain, b)
				sameBoard(t, plain, old) // follows on its first call
				if old.Options().Shards != g[1] {
					t.Fatalf("old handle: %d shards after a call, want %d", old.Options().Shards, g[1])
				}
				for _, name := range oldShards {
					if state, _, err := (&sharded{}).shardState(t, env, name); err != nil || state != phaseRetired {
						t.Fatalf("old shard %s: state %q, %v; want retired", name, state, err)
					}
				}
				if _, err := New(ctx, env.Client, b.Name(), testLayout(t), Options{Strategy: s, Shards: g[1]}); err != nil {
					t.Fatalf("NewSharded with the new count after a resharding: %v", err)
				}
				if _, err := New(ctx, env.Client, b.Name(), testLayout(t), Options{Strategy: s, Shards: g[0]}); !errors.Is(err, ErrMismatch) {
					t.Fatalf("NewSharded with the old count after a resharding: err = %v, want ErrMismatch", err)
				}
			})
		}
	}
}

// A capped sharded board reshards to more shards and to fewer: each new
// shard keeps its best Cap entries, as the old ones did, and the board
// shows the same best Cap entries before and after (the shards held more
// than the cap in all, and the new ones hold fewer than the old: that is
// no entry lost).
func TestReshardCapped(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run(s.String(), func(t *testing.T) {
			b := newSharded(t, env.Client, env.Prefix, "capped"+s.String(), testLayout(t), Options{Strategy: s, Shards: 3, Cap: 7})
			subs := make([]Submission, 28)
			for i := range subs {
				subs[i] = Submission{ID: fmt.Sprintf("p%02d", i), Values: []float64{float64(i), 0, 1}}
			}
			loadAll(t, b, subs)
			before, err := b.Top(ctx, 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{5, 2, 4} {
				if _, err := b.Reshard(ctx, n, MigrateOptions{Batch: 3}); err != nil {
					t.Fatalf("Reshard to %d: %v", n, err)
				}
				after, err := b.Top(ctx, 10)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(before, after) || len(after.Entries) != 7 {
					t.Fatalf("after Reshard to %d: top %v, want %v (7 entries)", n, listIDs(after), listIDs(before))
				}
			}
		})
	}
}

// A capped sharded board whose best entry falls while the copy runs (after
// the new shard trimmed what was then beyond its cap) shows, after the
// resharding, the best Cap entries the old shards held: the check sees
// the difference and copies again.
func TestReshardCappedEntryFallsDuringCopy(t *testing.T) {
	env := redistest.New(t)
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run(s.String(), func(t *testing.T) {
			b := newSharded(t, env.Client, env.Prefix, "fall"+s.String(), testLayout(t), Options{Strategy: s, Shards: 2, Cap: 3})
			subs := make([]Submission, 8)
			for i := range subs {
				subs[i] = Submission{ID: fmt.Sprintf("i%d", i), Values: []float64{float64(100 - i), 0, 1}}
			}
			loadAll(t, b, subs)
			var once sync.Once
			faultPoint = func(op, step string) {
				if op == "Reshard" && step == "copy" {
					once.Do(func() {
						mustSubmit(t, b, Submission{ID: "i0", Values: []float64{1, 0, 1}, Policy: Replace})
					})
				}
			}
			defer func() { faultPoint = nil }()
			if _, err := b.Reshard(t.Context(), 1, MigrateOptions{Batch: 2}); err != nil {
				t.Fatal(err)
			}
			faultPoint = nil
			// The old board's best 3 after i0 fell: of i1..i7 (kept, 3 per
			// shard) and i0 at 1 point.
			want := map[string]bool{}
			var ids []string
			for _, e := range subs[1:] {
				ids = append(ids, e.ID)
			}
			among, err := b.Among(t.Context(), ids)
			if err != nil {
				t.Fatal(err)
			}
			top, err := b.Top(t.Context(), 3)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range top.Entries {
				want[e.ID] = true
			}
			if len(top.Entries) != 3 || want["i0"] || len(among.Entries) < 3 {
				t.Fatalf("after the resharding: top %v (among the rest: %v); want 3 entries of i1..i7, not i0", listIDs(top), listIDs(among))
			}
		})
	}
}

// A capped resharding whose copy lost an entry that a new shard should
// keep beyond the board's best Cap (it would come back into view after a
// Remove) is found by the check and copied again: the board then reads
// as one resharded without the loss.
func TestReshardCappedCheckFindsALoss(t *testing.T) {
	env := redistest.New(t)
	mk := func(name string) *Board {
		b := newSharded(t, env.Client, env.Prefix, name, testLayout(t), Options{Shards: 2, Cap: 3})
		subs := make([]Submission, 12)
		for i := range subs {
			subs[i] = Submission{ID: fmt.Sprintf("i%02d", i), Values: []float64{float64(100 - i), 0, 1}}
		}
		loadAll(t, b, subs)
		return b
	}
	ctl, lossy := mk("ctl"), mk("lossy")
	if _, err := ctl.Reshard(t.Context(), 4, MigrateOptions{Batch: 2}); err != nil {
		t.Fatal(err)
	}
	top, err := ctl.Top(t.Context(), 3)
	if err != nil {
		t.Fatal(err)
	}
	best := strings.Fields(listIDs(top))
	if _, err := ctl.Remove(t.Context(), best...); err != nil {
		t.Fatal(err)
	}
	want, err := ctl.Top(t.Context(), 10)
	if err != nil || len(want.Entries) == 0 {
		t.Fatalf("control after removing its best: %v, %v", listIDs(want), err)
	}
	victim := want.Entries[0].ID // kept by its new shard beyond the board's best 3
	var once sync.Once
	faultPoint = func(op, step string) {
		if op == "Reshard" && step == "freeze" {
			once.Do(func() {
				// The new shards, name~1.I.K (the old ones are name~I.K).
				keys, err := env.Client.Do(t.Context(), env.Client.B().Keys().Pattern("*"+env.Prefix+"_lossy~1.[0-9].[0-9]*}:z").Build()).AsStrSlice()
				if err != nil {
					t.Error(err)
				}
				removed := int64(0)
				for _, k := range keys {
					n, _ := env.Client.Do(t.Context(), env.Client.B().Zrem().Key(k).Member(victim).Build()).AsInt64()
					removed += n
				}
				if removed != 1 {
					t.Errorf("removed %s from %d new shards of %q, want 1", victim, removed, keys)
				}
			})
		}
	}
	defer func() { faultPoint = nil }()
	if _, err := lossy.Reshard(t.Context(), 4, MigrateOptions{Batch: 2}); err != nil {
		t.Fatal(err)
	}
	faultPoint = nil
	if _, err := lossy.Remove(t.Context(), best...); err != nil {
		t.Fatal(err)
	}
	if got, err := lossy.Top(t.Context(), 10); err != nil || listIDs(got) != listIDs(want) {
		t.Errorf("after a resharding whose copy lost %s: %s (%v), want %s", victim, listIDs(got), err, listIDs(want))
	}
}

// shardState reads the export state of the shard board named name.
func (*sharded) shardState(t *testing.T, env *redistest.Env, name string) (phase, string, error) {
	t.Helper()
	s, err := configure(rdb.New(env.Client), name, testLayout(t), Options{})
	if err != nil {
		return "", "", err
	}
	m, err := s.readMeta(t.Context(), false)
	return m.state, m.cursor, err
}

// Resharding from 3 to 8 shards while 8 writers write and remove through
// two handles (one built before) and readers read: no call fails, and every
// id ends as its last acknowledged write left it.
func TestReshardUnderWriters(t *testing.T) {
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run(s.String(), func(t *testing.T) {
			env := redistest.New(t)
			ctx := t.Context()
			o := Options{Strategy: s, Shards: 3}
			b := newSharded(t, env.Client, env.Prefix, "w", testLayout(t), o)
			other := newSharded(t, env.Client, env.Prefix, "w", testLayout(t), o)
			fillSharded(t, env, b, 5000, 7)
			want := writeWhile(t, []*Board{b, other}, func() error {
				_, err := b.Reshard(ctx, 8, MigrateOptions{Batch: 100})
				return err
			})
			for _, h := range []*Board{b, other} {
				checkLastWrites(t, h, want)
			}
			checkHistograms(t, "after a Reshard under writers", env.Client, b)
			checkPercentiles(t, "after a Reshard under writers", b, slices.Collect(maps.Keys(want)), false)
		})
	}
}

// The old shards freeze only once few dirty ids are left to copy: drain
// passes run while writes go on until the dirty set holds at most
// frozenDirty batches (or stops shrinking), so that the writes that wait
// for the frozen shards wait only for the copy of those few. Here a writer
// adds 20 ids at each step of the copy and 5 at each step of a drain,
// fewer than the step copies: at the freeze, the shard's dirty set holds
// at most frozenDirty batches, where a single drain pass left about ten
// times that. Every write ends on the new shards.
func TestReshardFreezesWithFewDirtyIDs(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	o := Options{Shards: 1} // one old shard: no other shard's drain writes after its own
	b := newSharded(t, env.Client, env.Prefix, "fewdirty", testLayout(t), o)
	w := newSharded(t, env.Client, env.Prefix, "fewdirty", testLayout(t), o)
	const filled, batch = 1000, 10
	fillSharded(t, env, b, filled, 7)
	var mu sync.Mutex
	written, frozen := 0, false
	var atFreeze []int64
	write := func(n int) {
		for range n {
			written++
			if _, err := w.Submit(ctx, Submission{ID: fmt.Sprint("new", written), Values: []float64{1, 0, 0}}); err != nil {
				t.Error(err)
			}
		}
	}
	faultPoint = func(op, step string) {
		if op != "Reshard" {
			return // the writes' own steps
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case step == "freeze" && !frozen:
			frozen = true
			keys, err := env.Client.Do(ctx, env.Client.B().Keys().Pattern("*"+b.Name()+"*dirty").Build()).AsStrSlice()
			if err != nil {
				t.Error(err)
			}
			for _, k := range keys {
				n, err := env.Client.Do(ctx, env.Client.B().Scard().Key(k).Build()).AsInt64()
				if err != nil {
					t.Error(err)
				}
				atFreeze = append(atFreeze, n)
			}
		case step == "copy" && !frozen:
			write(20)
		case step == "drain" && !frozen:
			write(5)
		}
	}
	defer func() { faultPoint = nil }()
	if _, err := b.Reshard(ctx, 2, MigrateOptions{Batch: batch}); err != nil {
		t.Fatal(err)
	}
	faultPoint = nil
	t.Logf("%d ids written during the copy and the drains; dirty ids at the freeze: %v", written, atFreeze)
	if len(atFreeze) != 1 || atFreeze[0] > frozenDirty*batch {
		t.Errorf("dirty ids of the shard at the freeze: %v, want at most %d", atFreeze, frozenDirty*batch)
	}
	if n, err := b.Len(ctx); err != nil || n != int64(filled+written) {
		t.Errorf("Len after the resharding: %d, %v; want %d", n, err, filled+written)
	}
}

// lastWrite is what an id's last acknowledged write left: its values and
// data, or nothing.
type lastWrite struct {
	vals []float64
	data []byte
	gone bool
}

// writeWhile runs 8 writers (each on ids of its own, through the handles
// in turn) and 2 readers until do returns, and returns each id's last
// acknowledged write. Any failed call fails the test.
func writeWhile(t *testing.T, hs []*Board, do func() error) map[string]lastWrite {
	t.Helper()
	ctx := t.Context()
	var mu sync.Mutex
	last := map[string]lastWrite{}
	var writes int
	var slowest time.Duration
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for w := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 6))
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				h := hs[i%len(hs)]
				if w >= 8 {
					if _, err := h.Top(ctx, 20, WithData()); err != nil {
						errs <- fmt.Errorf("reader: Top: %w", err)
					}
					continue
				}
				id := fmt.Sprintf("w%d-%d", w, rng.IntN(300))
				start := time.Now()
				lw, err := writeOne(ctx, h, id, rng)
				took := time.Since(start)
				if err != nil {
					errs <- fmt.Errorf("writer %d: %w", w, err)
					continue
				}
				mu.Lock()
				last[id] = lw
				writes, slowest = writes+1, max(slowest, took)
				mu.Unlock()
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	began := time.Now()
	err := do()
	took := time.Since(began)
	time.Sleep(50 * time.Millisecond)
	close(stop)
	wg.Wait()
	close(errs)
	if err != nil {
		t.Fatal(err)
	}
	for err := range errs {
		t.Error(err)
	}
	t.Logf("the change took %v; %d writes acknowledged, the slowest in %v", took, writes, slowest)
	return last
}

// writeOne submits (with data, sometimes) or removes id through h.
func writeOne(ctx context.Context, h *Board, id string, rng *rand.Rand) (lastWrite, error) {
	if rng.IntN(6) == 0 {
		_, err := h.Remove(ctx, id)
		return lastWrite{gone: true}, err
	}
	s := Submission{ID: id, Values: []float64{float64(rng.IntN(1000)), float64(rng.IntN(2)), float64(rng.IntN(200))}}
	if rng.IntN(2) == 0 {
		s.Data = []byte(fmt.Sprint(id, rng.IntN(1000)))
	}
	res, err := h.Submit(ctx, s)
	return lastWrite{vals: res.Entry.Values, data: s.Data}, err
}

// checkLastWrites checks through h that every id holds its last write.
func checkLastWrites(t *testing.T, h *Board, want map[string]lastWrite) {
	t.Helper()
	for id, w := range want {
		e, err := h.Get(t.Context(), id, WithData())
		switch {
		case w.gone && errors.Is(err, ErrNotFound):
		case w.gone || err != nil:
			t.Fatalf("%s: Get(%q) = %v, %v; want gone: %v", label(h), id, e, err, w.gone)
		case !cmp.Equal(e.Values, w.vals) || (w.data != nil && string(e.Data) != string(w.data)):
			t.Fatalf("%s: Get(%q) = %v %q, want %v %q", label(h), id, e.Values, e.Data, w.vals, w.data)
		}
	}
}

// A resharding cut short resumes where it stopped; meanwhile another count
// is refused.
func TestReshardResumes(t *testing.T) {
	env := redistest.New(t)
	b := newSharded(t, env.Client, env.Prefix, "c", testLayout(t), Options{Shards: 2})
	plain := fillSharded(t, env, b, 4000, 9)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Millisecond)
	defer cancel()
	if _, err := b.Reshard(ctx, 5, MigrateOptions{Batch: 10, Pause: time.Millisecond}); err == nil {
		t.Fatal("Reshard finished within 30 ms; the test wants it cut short")
	}
	if _, err := b.Reshard(t.Context(), 4, MigrateOptions{}); !errors.Is(err, ErrMigrating) {
		t.Fatalf("Reshard to another count while one is under way: err = %v, want ErrMigrating", err)
	}
	sameBoard(t, plain, b) // the old shards still serve
	if _, err := b.Reshard(t.Context(), 5, MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	if b.Options().Shards != 5 {
		t.Fatalf("%d shards, want 5", b.Options().Shards)
	}
	sameBoard(t, plain, b)
	checkHistograms(t, "after a Reshard resumed", env.Client, b)
	for what, err := range map[string]error{
		"0 shards":  second(b.Reshard(t.Context(), 0, MigrateOptions{})),
		"too many":  second(b.Reshard(t.Context(), maxShards+1, MigrateOptions{})),
		"bad batch": second(b.Reshard(t.Context(), 3, MigrateOptions{Batch: maxMigrateBatch + 1})),
	} {
		if !errors.Is(err, ErrArgument) {
			t.Errorf("%s: err = %v, want ErrArgument", what, err)
		}
	}
}

// Two Reshards at once: one copies, the other waits while the first holds
// the lease and returns once the first has switched; the board then has
// the new shards, whole.
func TestReshardOneAtATime(t *testing.T) {
	env := redistest.New(t)
	b := newSharded(t, env.Client, env.Prefix, "l", testLayout(t), Options{Shards: 2})
	other := newSharded(t, env.Client, env.Prefix, "l", testLayout(t), Options{Shards: 2})
	plain := fillSharded(t, env, b, 3000, 11)
	done := make(chan error, 1)
	go func() {
		_, err := b.Reshard(t.Context(), 6, MigrateOptions{Batch: 10, Pause: time.Millisecond})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	// The second waits for the first's lease; it returns once the first
	// has switched, having copied nothing.
	if _, err := other.Reshard(t.Context(), 6, MigrateOptions{}); err != nil {
		t.Fatalf("a second Reshard while the first copies: %v", err)
	}
	if n := other.Options().Shards; n != 6 {
		t.Fatalf("the second Reshard returned with %d shards, before the first switched", n)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	sameBoard(t, plain, other)
	if other.Options().Shards != 6 {
		t.Fatalf("%d shards, want 6", other.Options().Shards)
	}
}
