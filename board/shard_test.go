package board

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/hashtag"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// label names a board in failures: its strategy and, sharded, its shards.
func label(b *Board) string {
	if o := b.Options(); o.Shards > 0 {
		return fmt.Sprintf("%v over %d shards", o.Strategy, o.Shards)
	}
	return b.Options().Strategy.String()
}

// newSharded builds a sharded board with a name unique to the test.
func newSharded(t testing.TB, client rueidis.Client, prefix, suffix string, l *pack.Layout, o Options) *Board {
	t.Helper()
	sb, err := New(t.Context(), client, prefix+"_"+suffix, l, o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return sb
}

// withSharded adds to w a sharded board of each strategy over each of
// shards, with options o.
func (w *workload) withSharded(o Options, shards ...int) *workload {
	w.t.Helper()
	env := redistest.New(w.t)
	return w.withShardedOn(env.Client, env.Prefix, o, shards...)
}

// withShardedOn is withSharded on client, the boards' names starting with
// prefix.
func (w *workload) withShardedOn(client rueidis.Client, prefix string, o Options, shards ...int) *workload {
	w.t.Helper()
	for _, n := range shards {
		for _, s := range []Strategy{PackedScore, KeySuffix} {
			o.Strategy, o.Shards = s, n
			w.all = append(w.all, newSharded(w.t, client, prefix, fmt.Sprintf("%v_%d", s, n), w.model.layout, o))
		}
	}
	return w
}

// A random workload with many ties through boards and boards sharded over
// 1, 3 and 8 shards, every answer compared with the model's: the sharded
// boards answer what the board answers.
func TestShardedDifferential(t *testing.T) {
	newWorkload(t, testLayout(t), Options{}).withSharded(Options{Shards: 1}, 1, 3, 8).run(2000, false)
}

// The same workload on a Redis Cluster of three masters, where the shards
// of one board live on different nodes.
func TestShardedDifferentialCluster(t *testing.T) {
	cl := redistest.NewCluster(t, 3)
	newWorkload(t, testLayout(t), Options{}).withShardedOn(cl.Client, cl.Prefix, Options{Shards: 1}, 3, 8).run(800, false)
}

// Shard i's hash slot lies in the middle of the i-th of n equal ranges, as
// the cluster itself computes it (CLUSTER KEYSLOT), for every n.
func TestShardNamesSpreadSlots(t *testing.T) {
	cl := redistest.NewCluster(t, 3)
	for _, n := range []int{1, 3, 7, 16, maxShards} {
		for i, name := range shardNames(cl.Prefix, n%3, n) {
			key := names(prefixOf("", name), 1).z
			slot, err := cl.Client.Do(t.Context(), cl.Client.B().ClusterKeyslot().Key(key).Build()).AsInt64()
			if err != nil {
				t.Fatal(err)
			}
			if lo, hi := shardSlots(i, n); slot < int64(lo) || slot >= int64(hi) || lo < i*hashtag.Slots/n || hi > (i+1)*hashtag.Slots/n {
				t.Fatalf("%d shards: shard %d (%s) in slot %d, want [%d, %d)", n, i, key, slot, lo, hi)
			}
		}
	}
}

// On a cluster of three masters as redis-cli builds it (whose ranges'
// bounds are rounded otherwise than n equal ranges), three shards are on
// three masters, whatever the board's name; among them names whose shards
// once met on one master.
func TestShardsOnEveryMaster(t *testing.T) {
	cl := redistest.NewCluster(t, 3)
	ctx := t.Context()
	for j, name := range []string{"board9579", "board21959", "board30918", cl.Prefix + "a", cl.Prefix + "b", cl.Prefix + "c"} {
		owners := map[string]bool{}
		for _, s := range shardNames(name, j%2, 3) {
			key := names(prefixOf("", s), 0).z
			r := cl.Client.Do(ctx, cl.Client.B().ClusterKeyslot().Key(key).Build())
			slot, err := r.AsInt64()
			if err != nil {
				t.Fatal(err)
			}
			owners[ownerOf(t, cl, slot)] = true
		}
		if len(owners) != 3 {
			t.Errorf("%s: 3 shards on %d masters, want 3", name, len(owners))
		}
	}
}

// ownerOf returns the address of the master serving slot, from CLUSTER
// NODES.
func ownerOf(t *testing.T, cl *redistest.ClusterEnv, slot int64) string {
	t.Helper()
	text, err := cl.Client.Do(t.Context(), cl.Client.B().ClusterNodes().Build()).ToString()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 9 || !strings.Contains(f[2], "master") {
			continue
		}
		for _, r := range f[8:] {
			var lo, hi int64
			if n, _ := fmt.Sscanf(r, "%d-%d", &lo, &hi); n == 2 && slot >= lo && slot <= hi {
				return strings.Split(f[1], "@")[0]
			}
		}
	}
	t.Fatalf("no master serves slot %d:\n%s", slot, text)
	return ""
}

// An id's shard is stable and, when the shards grow from n to m, it
// either stays or moves to one of the new shards, and about 1-n/m of the
// ids move.
func TestShardOfGrows(t *testing.T) {
	const ids = 20000
	for _, g := range [][2]int{{1, 2}, {3, 4}, {4, 16}, {8, 9}} {
		n, m := g[0], g[1]
		moved := 0
		for i := range ids {
			id := fmt.Sprint("player:", i)
			a, b := shardOf(id, n), shardOf(id, m)
			if a < 0 || a >= n || b < 0 || b >= m {
				t.Fatalf("shardOf(%q) = %d of %d, %d of %d", id, a, n, b, m)
			}
			if a != b {
				moved++
				if b < n {
					t.Fatalf("%q moved from shard %d to old shard %d going from %d to %d shards", id, a, b, n, m)
				}
			}
		}
		if want := ids * (m - n) / m; moved < want*9/10 || moved > want*11/10 {
			t.Errorf("%d -> %d shards: %d of %d ids moved, want about %d", n, m, moved, ids, want)
		}
	}
}

// Boards of 20,000 entries with many ties, plain and sharded over 3 and
// 8 shards: pages and ranges at random depths, most past 1000 so that
// the sampled path runs, answer alike.
func TestShardedDeepPages(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	rng := rand.New(rand.NewPCG(rand.Uint64(), 2))
	const total = 20000
	subs := make([]Submission, total)
	for i := range subs {
		// 50 points values, 2 paid, 4 times: 400 tuples, about 50 entries each.
		subs[i] = Submission{ID: fmt.Sprintf("p%05d", rng.IntN(1<<20)), Values: []float64{float64(rng.IntN(50) * 20), float64(rng.IntN(2)), float64(rng.IntN(4))}}
	}
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		plain := newBoard(t, env.Client, env.Prefix, "plain"+s.String(), l, Options{Strategy: s})
		boards := []anyBoard{plain}
		for _, n := range []int{3, 8} {
			boards = append(boards, newSharded(t, env.Client, env.Prefix, fmt.Sprintf("%v%d", s, n), l, Options{Strategy: s, Shards: n}))
		}
		for _, b := range boards {
			loadAll(t, b, subs)
		}
		for range 40 {
			k, n := int64(rng.IntN(total+10)), 1+rng.IntN(maxCount)
			opts := []ReadOption{WithRanks(Competition)}
			want, err := plain.Page(ctx, k, n, opts...)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := float64(rng.IntN(1000)), float64(rng.IntN(1000))
			wantB, err := plain.Between(ctx, min(lo, hi), max(lo, hi), k/2, n, opts...)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range boards[1:] {
				got, err := b.Page(ctx, k, n, opts...)
				if err != nil {
					t.Fatalf("%s: Page(%d, %d): %v", label(b), k, n, err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("%s: Page(%d, %d) (-want +got):\n%s", label(b), k, n, diff)
				}
				got, err = b.Between(ctx, min(lo, hi), max(lo, hi), k/2, n, opts...)
				if err != nil {
					t.Fatalf("%s: Between: %v", label(b), err)
				}
				if diff := cmp.Diff(wantB, got); diff != "" {
					t.Fatalf("%s: Between(%v, %v, %d, %d) (-want +got):\n%s", label(b), min(lo, hi), max(lo, hi), k/2, n, diff)
				}
			}
		}
	}
}

// loadAll writes subs to b, failing on any error.
func loadAll(t testing.TB, b anyBoard, subs []Submission) {
	t.Helper()
	res := b.SubmitMany(t.Context(), subs)
	for i, r := range res {
		if r.Err != nil {
			t.Fatalf("%s: submission %d: %v", label(b), i, r.Err)
		}
	}
}

// The bounds of a deep page hold for any spread of the entries over the
// shards, even all in one: at most k entries come before lo, at least
// k+n before hi. Each shard is a sorted list of distinct scores.
func TestPageBoundsAnySpread(t *testing.T) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), 3))
	for round := range 300 {
		shards := 1 + rng.IntN(9)
		var all []pos
		lists := make([][]pos, shards)
		skew := rng.IntN(3) // 0: even, 1: one shard holds most, 2: one holds all
		for i := range 1 + rng.IntN(5000) {
			s := rng.IntN(shards)
			if skew == 2 || (skew == 1 && rng.IntN(10) > 0) {
				s = 0
			}
			p := pos{set: true, score: float64(i), member: fmt.Sprint(i)}
			lists[s] = append(lists[s], p)
			all = append(all, p)
		}
		k, n := int64(rng.IntN(len(all)+5)), int64(1+rng.IntN(maxCount))
		at := samplePositions(k, n, shards)
		ss := make([]shardSample, shards)
		for i, list := range lists {
			ss[i].stop = int64(len(list))
			for _, p := range at {
				if p < int64(len(list)) {
					ss[i].at, ss[i].pos = append(ss[i].at, p), append(ss[i].pos, list[p])
				}
			}
		}
		lo, hi, below := pageBounds(ss, k, n)
		count := func(p pos) int64 { // entries before p
			var c int64
			for _, x := range all {
				if comparePos(x, p) < 0 {
					c++
				}
			}
			return c
		}
		if lo.set && (count(lo) > k || count(lo) < below) {
			t.Fatalf("round %d: %d shards, k %d: %d entries before lo, want %d to %d", round, shards, k, count(lo), below, k)
		}
		if hi.set && count(hi) < k+n {
			t.Fatalf("round %d: %d shards, k %d n %d: %d entries before hi, want at least %d", round, shards, k, n, count(hi), k+n)
		}
	}
}

// With writes that only improve entries (Best), a sharded board capped at
// N shows exactly the best N of an uncapped board fed the same writes:
// each shard keeping its own best N keeps the best N of all.
func TestShardedCap(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	rng := rand.New(rand.NewPCG(rand.Uint64(), 4))
	const capN = 7
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		plain := newBoard(t, env.Client, env.Prefix, "uncapped"+s.String(), l, Options{Strategy: s})
		var capped []*Board
		for _, n := range []int{1, 3, 8} {
			capped = append(capped, newSharded(t, env.Client, env.Prefix, fmt.Sprintf("capped%v%d", s, n), l, Options{Strategy: s, Cap: capN, Shards: n}))
		}
		for step := range 400 {
			sub := Submission{ID: fmt.Sprint("id", rng.IntN(60)), Policy: Best, Values: []float64{float64(rng.IntN(30) * 30), float64(rng.IntN(2)), float64(rng.IntN(3))}}
			want, err := plain.Submit(ctx, sub)
			if err != nil {
				t.Fatal(err)
			}
			if want.Entry.Rank > capN {
				want.Entry.Rank, want.Trimmed = 0, true
			}
			top, err := plain.Top(ctx, capN, WithRanks(Competition), WithTotal())
			if err != nil {
				t.Fatal(err)
			}
			n, err := plain.Len(ctx)
			if err != nil {
				t.Fatal(err)
			}
			top.Total = min(n, capN)
			for _, b := range capped {
				got, err := b.Submit(ctx, sub)
				if err != nil {
					t.Fatal(err)
				}
				// Beyond the cap, a capped board has forgotten what the
				// uncapped one holds: only the trim must agree.
				if want.Trimmed {
					want = Result{Trimmed: true, Entry: Entry{ID: sub.ID, Values: got.Entry.Values}, Changed: got.Changed}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("step %d %s: Submit(%+v) (-want +got):\n%s", step, label(b), sub, diff)
				}
				gotTop, err := b.Top(ctx, maxCount, WithRanks(Competition), WithTotal())
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(top, gotTop); diff != "" {
					t.Fatalf("step %d %s: Top (-want +got):\n%s", step, label(b), diff)
				}
				checkCapGet(t, b, sub.ID, top)
			}
		}
	}
}

// checkCapGet checks that id is found, with top's rank, exactly when top
// holds it.
func checkCapGet(t *testing.T, b *Board, id string, top List) {
	t.Helper()
	got, err := b.Get(t.Context(), id)
	for _, e := range top.Entries {
		if e.ID == id {
			if err != nil || got.Rank != e.Rank {
				t.Fatalf("%s: Get(%q) = rank %d, %v; want rank %d", label(b), id, got.Rank, err, e.Rank)
			}
			return
		}
	}
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("%s: Get(%q) beyond the cap: err = %v, want ErrNotFound", label(b), id, err)
	}
}

func TestShardedRefusals(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	name := env.Prefix + "_s"
	for _, tc := range []struct {
		name string
		opts Options
		want error
	}{
		{"dense", Options{Shards: 2, DenseRanks: true}, ErrOptions},
		{"group", Options{Shards: 2, Group: "g"}, ErrOptions},
		{"negative shards", Options{Shards: -1}, ErrOptions},
		{"too many shards", Options{Shards: maxShards + 1}, ErrOptions},
		{"bad cap", Options{Shards: 2, Cap: -1}, ErrOptions},
	} {
		if _, err := New(ctx, env.Client, name, l, tc.opts); !errors.Is(err, tc.want) {
			t.Errorf("%s: NewSharded: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := New(ctx, env.Client, strings.Repeat("n", maxNameLen-shardNameRoom+1), l, Options{Shards: 1}); !errors.Is(err, errName) {
		t.Errorf("long name: err = %v, want errName", err)
	}
	if _, err := New(ctx, nil, name, l, Options{Shards: 1}); !errors.Is(err, ErrOptions) {
		t.Errorf("nil client: err = %v, want ErrOptions", err)
	}
	if n := keysOf(t, env); n != 0 {
		t.Fatalf("refused NewSharded calls left %d keys", n)
	}

	sb := newSharded(t, env.Client, env.Prefix, "s", l, Options{Shards: 4})
	for what, err := range map[string]error{
		"New with 5 shards":      second(New(ctx, env.Client, name, l, Options{Shards: 5})),
		"New on a sharded board": second(New(ctx, env.Client, name, l, Options{})),
	} {
		if !errors.Is(err, ErrMismatch) {
			t.Errorf("%s: err = %v, want ErrMismatch", what, err)
		}
	}
	newBoard(t, env.Client, env.Prefix, "plain", l, Options{})
	if _, err := Open(ctx, env.Client, env.Prefix+"_none", Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open on nothing: err = %v, want ErrNotFound", err)
	}
	opened, err := Open(ctx, env.Client, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sb.descriptorOf(), opened.descriptorOf()); diff != "" {
		t.Errorf("OpenSharded descriptor (-want +got):\n%s", diff)
	}

	dense := []ReadOption{WithRanks(Dense)}
	for what, err := range map[string]error{
		"Rank Dense":    second(sb.Rank(ctx, "a", Dense)),
		"Top Dense":     second(sb.Top(ctx, 3, dense...)),
		"Around Dense":  second(sb.Around(ctx, "a", 3, dense...)),
		"Among Dense":   second(sb.Among(ctx, []string{"a"}, dense...)),
		"Scan Dense":    second(sb.Scan(ctx, "", 3, dense...)),
		"Page Dense":    second(sb.Page(ctx, 5000, 3, dense...)),
		"Between Dense": second(sb.Between(ctx, 0, 10, 0, 3, dense...)),
	} {
		if !errors.Is(err, errDenseDisabled) {
			t.Errorf("%s: err = %v, want errDenseDisabled", what, err)
		}
	}
	for what, err := range map[string]error{
		"Top 0":          second(sb.Top(ctx, 0)),
		"Page -1":        second(sb.Page(ctx, -1, 3)),
		"Around 0":       second(sb.Around(ctx, "a", 0)),
		"Scan bad":       second(sb.Scan(ctx, "!!", 3)),
		"Among none":     second(sb.Among(ctx, nil)),
		"Between NaN":    second(sb.Between(ctx, math.NaN(), 1, 0, 3)),
		"Remove none":    second(sb.Remove(ctx)),
		"SubmitMany big": sb.SubmitMany(ctx, make([]Submission, maxSubmitMany+1))[0].Err,
	} {
		if !errors.Is(err, ErrArgument) {
			t.Errorf("%s: err = %v, want ErrArgument", what, err)
		}
	}
	for what, err := range map[string]error{
		"Get empty":    second(sb.Get(ctx, "")),
		"Around empty": second(sb.Around(ctx, "", 3)),
		"Submit empty": second(sb.Submit(ctx, Submission{Values: []float64{1, 1, 1}})),
		"Remove empty": second(sb.Remove(ctx, "a", "")),
	} {
		if !errors.Is(err, errID) {
			t.Errorf("%s: err = %v, want errID", what, err)
		}
	}
	if _, err := sb.Get(ctx, "absent"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get absent: err = %v, want ErrNotFound", err)
	}
	if n, err := sb.Len(ctx); n != 0 || err != nil {
		t.Errorf("Len after refusals = %d, %v; want 0", n, err)
	}
}

// second returns the error of a call's two results.
func second[T any](_ T, err error) error { return err }

// keysOf counts the keys of env's prefix.
func keysOf(t *testing.T, env *redistest.Env) int {
	t.Helper()
	keys, err := env.Client.Do(t.Context(), env.Client.B().Keys().Pattern("*"+env.Prefix+"*").Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	return len(keys)
}

// descriptorOf returns what b stores about itself at tb:{name}:meta.
func (b *Board) descriptorOf() descriptor {
	if b.sh != nil {
		return b.sh.view.Load().desc
	}
	return b.desc
}

// On a sharded board with a cap, the modified competition rank of Get,
// Rank and Among stops at the cap, as a list's does: the ties past it are
// not on the board.
func TestShardedModifiedCompetitionAtCap(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b, err := New(ctx, env.Client, env.Prefix+"shcap", testLayout(t), Options{Shards: 3, Cap: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Submission{{ID: "a", Values: []float64{10, 0, 0}}, {ID: "b", Values: []float64{5, 0, 0}}, {ID: "c", Values: []float64{5, 0, 0}}} {
		if _, err := b.Submit(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	top, err := b.Top(ctx, 10, WithRanks(ModifiedCompetition))
	if err != nil || len(top.Entries) != 2 || top.Entries[1].ModifiedCompetition != 2 {
		t.Fatalf("Top: %+v, %v", top, err)
	}
	id := top.Entries[1].ID
	if e, err := b.Get(ctx, id, WithRanks(ModifiedCompetition)); err != nil || e.ModifiedCompetition != 2 {
		t.Errorf("Get(%s): %+v, %v; want modified competition 2", id, e, err)
	}
	if r, err := b.Rank(ctx, id, ModifiedCompetition); err != nil || r != 2 {
		t.Errorf("Rank(%s) = %d, %v; want 2", id, r, err)
	}
	if l, err := b.Among(ctx, []string{id}, WithRanks(ModifiedCompetition)); err != nil || len(l.Entries) != 1 || l.Entries[0].ModifiedCompetition != 2 {
		t.Errorf("Among(%s): %+v, %v; want modified competition 2", id, l, err)
	}
}

// A sharded SubmitMany gives each written entry its rank on the whole
// board as it stands after the batch (here each entry worse than those
// before it, so that the rank at its write is its rank at the end),
// beyond a cap none and Trimmed; with SkipWriteRank, none.
func TestShardedSubmitManyRanksOnTheBoard(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	for _, o := range []Options{{Shards: 3}, {Shards: 3, Cap: 12}, {Shards: 3, Strategy: KeySuffix}, {Shards: 3, SkipWriteRank: true}, {Shards: 4}} {
		name := fmt.Sprintf("many%d%t%d%d", o.Cap, o.SkipWriteRank, o.Strategy, o.Shards)
		b := newSharded(t, env.Client, env.Prefix, name, testLayout(t), o)
		n := 20
		if o.Shards == 4 {
			n = 2500 // ranked 1,000 at a time
		}
		var subs []Submission
		for i := range n {
			subs = append(subs, Submission{ID: fmt.Sprint("p", i), Values: []float64{float64((n+3)/4 - i/4), 0, float64(i % 4)}}) // each worse than the last
		}
		for i, r := range b.SubmitMany(ctx, subs) {
			if r.Err != nil {
				t.Fatalf("%+v: submission %d: %v", o, i, r.Err)
			}
			want, trimmed := int64(i+1), false
			if o.SkipWriteRank {
				want = 0
			} else if o.Cap > 0 && want > o.Cap {
				want, trimmed = 0, true
			}
			if r.Entry.Rank != want || r.Trimmed != trimmed {
				t.Errorf("%+v: submission %d: rank %d, trimmed %t; want %d, %t", o, i, r.Entry.Rank, r.Trimmed, want, trimmed)
			}
		}
	}
}

// A sharded SubmitMany whose entries each beat those before it ranks them
// as the board stands after the batch, every one as a read then ranks
// it, whichever shard wrote it first: never a count of the batch's
// entries written on other shards without those written on its own.
func TestShardedSubmitManyRanksAfterTheBatch(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	for _, o := range []Options{{Shards: 2}, {Shards: 3, Strategy: KeySuffix}, {Shards: 5, Cap: 30}} {
		name := fmt.Sprintf("after%d%d%d", o.Shards, o.Strategy, o.Cap)
		b := newSharded(t, env.Client, env.Prefix, name, testLayout(t), o)
		if _, err := b.Submit(ctx, Submission{ID: "first", Values: []float64{200, 0, 0}}); err != nil {
			t.Fatal(err)
		}
		const n = 40
		var subs []Submission
		for i := range n {
			subs = append(subs, Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(10 + 4*i), 0, 0}}) // each better than the last
		}
		for i, r := range b.SubmitMany(ctx, subs) {
			if r.Err != nil {
				t.Fatalf("%+v: submission %d: %v", o, i, r.Err)
			}
			want, trimmed := int64(n-i+1), false // behind "first" and every later one
			if o.Cap > 0 && want > o.Cap {
				want, trimmed = 0, true
			}
			if r.Entry.Rank != want || r.Trimmed != trimmed {
				t.Errorf("%+v: submission %d: rank %d, trimmed %t; want %d, %t", o, i, r.Entry.Rank, r.Trimmed, want, trimmed)
			}
			if got, err := b.Rank(ctx, subs[i].ID, Ordinal); !trimmed && (err != nil || got != want) {
				t.Errorf("%+v: Rank(%s) after the batch: %d, %v; want %d", o, subs[i].ID, got, err, want)
			}
		}
		// An id written twice: its first entry, replaced, is ranked among
		// the others, not behind its own later self.
		twice := []Submission{{ID: "x", Values: []float64{300, 0, 0}}, {ID: "y", Values: []float64{310, 0, 0}}, {ID: "x", Values: []float64{320, 0, 0}}}
		var got []int64
		for _, r := range b.SubmitMany(ctx, twice) {
			got = append(got, r.Entry.Rank)
		}
		if want := []int64{2, 2, 1}; !slices.Equal(got, want) {
			t.Errorf("%+v: ranks of x, y, x again: %v, want %v", o, got, want)
		}
	}
}
