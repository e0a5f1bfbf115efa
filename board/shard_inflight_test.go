package board

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A sharded board's Around reads in two round trips: where the id is, then
// every shard around it. An id written between them still stands among
// its window: Around reads again rather than return a window without it.
func TestShardedAroundWhileIDMoves(t *testing.T) {
	env := redistest.New(t)
	aroundWhileIDMoves(t, env.Client, env.Prefix)
}

// The same on a cluster of three masters, the shards on different nodes.
func TestShardedAroundWhileIDMovesCluster(t *testing.T) {
	cl := redistest.NewCluster(t, 3)
	aroundWhileIDMoves(t, cl.Client, cl.Prefix)
}

func aroundWhileIDMoves(t *testing.T, client rueidis.Client, prefix string) {
	ctx := t.Context()
	l := testLayout(t)
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run(s.String(), func(t *testing.T) {
			b := newSharded(t, client, prefix, "around"+s.String(), l, Options{Strategy: s, Shards: 4})
			subs := make([]Submission, 2000)
			for i := range subs {
				subs[i] = Submission{ID: fmt.Sprintf("p%04d", i), Values: []float64{float64(i % 500), 0, float64(i % 7)}}
			}
			loadAll(t, b, subs)
			const mover = "p0042"
			wctx, stop := context.WithCancel(ctx)
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(1, 2))
				for wctx.Err() == nil {
					_, err := b.Submit(wctx, Submission{ID: mover, Values: []float64{float64(rng.IntN(500)), 0, 1}})
					if err != nil && wctx.Err() == nil {
						t.Errorf("Submit: %v", err)
						return
					}
				}
			}()
			var missing, conflicts int
			const reads = 400
			for range reads {
				list, err := b.Around(ctx, mover, 11)
				if errors.Is(err, ErrConflict) {
					conflicts++
					continue
				}
				if err != nil {
					t.Fatalf("Around: %v", err)
				}
				if !slices.ContainsFunc(list.Entries, func(e Entry) bool { return e.ID == mover }) {
					missing++
				}
			}
			stop()
			wg.Wait()
			t.Logf("%v: %d of %d windows without the id, %d conflicts", s, missing, reads, conflicts)
			if conflicts > reads/20 {
				t.Errorf("%v: %d of %d reads of Around(%q) gave up", s, conflicts, reads, mover)
			}
			if missing > 0 {
				t.Errorf("%v: %d of %d windows of Around(%q) do not hold it", s, missing, reads, mover)
			}
		})
	}
}

// A sharded board's Among lists its entries in board order, by stored
// position: while writes go on, the ranks the shards count at different
// moments may tie or cross, and must not reorder the list.
func TestShardedAmongInBoardOrder(t *testing.T) {
	env := redistest.New(t)
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		b := newSharded(t, env.Client, env.Prefix, "amongorder"+s.String(), testLayout(t), Options{Strategy: s, Shards: 2})
		v := b.sh.view.Load()
		entry := func(id string, vals []float64, rank int64) amongEntry {
			score, member, err := v.probe.encode(id, vals)
			if err != nil {
				t.Fatal(err)
			}
			return amongEntry{Entry: Entry{ID: id, Values: vals, Rank: rank}, at: pos{set: true, score: score, member: member}}
		}
		for _, ranks := range [][2]int64{{7, 7}, {6, 8}} { // worse's and better's: tied, crossed
			worse, better := entry("w", []float64{5, 0, 9}, ranks[0]), entry("b", []float64{9, 0, 1}, ranks[1])
			got := v.amongOf([]string{"w", "b"}, []amongList{{Entries: []amongEntry{worse}}, {Entries: []amongEntry{better}}}, 100)
			if len(got.Entries) != 2 || got.Entries[0].ID != "b" || got.Entries[0].Position != 1 {
				t.Errorf("%v: Among of two entries of ranks %v: %+v, want b first", s, ranks, got.Entries)
			}
		}
	}
}

// A deep page of a sharded board samples the shards for bounds, then
// reads between them. Entries written before the lower bound between the
// two round trips would start the page late, entries removed before it
// end the page early: it reads again.
func TestShardedDeepPageReadsAgain(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		for _, c := range []struct {
			name   string
			change func(b *Board)
		}{
			{"written before", func(b *Board) {
				better := make([]Submission, 200) // before every entry, on every shard
				for i := range better {
					better[i] = Submission{ID: fmt.Sprintf("q%03d", i), Values: []float64{1000, 0, float64(i)}}
				}
				loadAll(t, b, better)
			}},
			{"removed before", func(b *Board) {
				top, err := b.Top(ctx, 100)
				if err != nil {
					t.Fatal(err)
				}
				ids := make([]string, len(top.Entries))
				for i, e := range top.Entries {
					ids[i] = e.ID
				}
				if _, err := b.Remove(ctx, ids...); err != nil {
					t.Fatal(err)
				}
			}},
		} {
			b := newSharded(t, env.Client, env.Prefix, "deep"+s.String()+c.name, testLayout(t), Options{Strategy: s, Shards: 4})
			subs := make([]Submission, 800)
			for i := range subs {
				subs[i] = Submission{ID: fmt.Sprintf("p%03d", i), Values: []float64{float64(i), 0, 0}}
			}
			loadAll(t, b, subs)
			samples := 0
			faultPoint = func(op, step string) {
				if op == "Page" && step == "sample" {
					if samples++; samples == 1 {
						c.change(b)
					}
				}
			}
			got, err := b.Page(ctx, 600, 7)
			faultPoint = nil
			if err != nil {
				t.Fatal(err)
			}
			if samples < 2 {
				t.Fatalf("%v, %s: the page sampled %d times: not the deep path, or it did not read again", s, c.name, samples)
			}
			want, err := b.Page(ctx, 600, 7)
			if err != nil || len(want.Entries) != 7 || want.Entries[0].Rank != 601 {
				t.Fatalf("%v, %s: Page at rest: %+v, %v", s, c.name, want, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%v, %s: Page(600, 7) with writes across its bounds (-at rest +got):\n%s", s, c.name, diff)
			}
		}
	}
}

// A sharded Submit whose second round trip (the rank over the other
// shards) fails after the write returns the stored entry, with rank 0 and
// no error, so that no caller sends it again (an Add would add twice).
func TestShardedSubmitRankLostStands(t *testing.T) {
	env := redistest.New(t)
	l := testLayout(t)
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run(s.String(), func(t *testing.T) {
			b := newSharded(t, env.Client, env.Prefix, "ranklost"+s.String(), l, Options{Strategy: s, Shards: 3})
			loadAll(t, b, []Submission{{ID: "a", Values: []float64{5, 0, 1}}, {ID: "b", Values: []float64{7, 0, 1}}})
			ctx, cancel := context.WithCancel(t.Context())
			faultPoint = func(op, step string) {
				if op == "Submit" && step == "written" {
					cancel()
				}
			}
			defer func() { faultPoint = nil }()
			res, err := b.Submit(ctx, Submission{ID: "c", Fields: []Policy{Add, Keep, Keep}, Values: []float64{3, 0, 1}})
			faultPoint = nil
			if err != nil {
				t.Fatalf("Submit: %v; want the write's result, no error", err)
			}
			if res.Entry.ID != "c" || res.Entry.Values[0] != 3 || res.Entry.Rank != 0 {
				t.Fatalf("Submit = %+v; want c with 3 points and rank 0", res.Entry)
			}
			got, err := b.Get(t.Context(), "c")
			if err != nil || got.Values[0] != 3 || got.Rank != 3 {
				t.Fatalf("Get(c) = %+v, %v; want 3 points at rank 3", got, err)
			}
		})
	}
}
