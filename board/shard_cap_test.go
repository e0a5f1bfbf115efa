package board

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// Sharded boards with a cap, with many ties, written once per id (no
// removes: a shard's cap then keeps what a board's does), answer every read
// as a board with the same cap.
func TestShardedCapEdges(t *testing.T) {
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		for _, total := range []int{0, 1, 4, 5, 6, 23} {
			t.Run(fmt.Sprint(s, total), func(t *testing.T) {
				env := redistest.New(t)
				ctx := context.Background()
				o := Options{Strategy: s, Cap: 5}
				plain := newBoard(t, env.Client, env.Prefix, "p", testLayout(t), o)
				sh := newSharded(t, env.Client, env.Prefix, "s", testLayout(t), func() Options { o := o; o.Shards = 3; return o }())
				rng := rand.New(rand.NewPCG(uint64(total), 9))
				var allIDs []string
				for i := 0; i < total; i++ {
					id := fmt.Sprint("id", i)
					if s == KeySuffix && i%4 == 0 {
						id = "\xff" + id
					}
					allIDs = append(allIDs, id)
					sub := Submission{ID: id, Values: []float64{float64(rng.IntN(3)), float64(rng.IntN(2)), float64(rng.IntN(2))}, Data: []byte(id)}
					for _, b := range []anyBoard{plain, sh} {
						if _, err := b.Submit(ctx, sub); err != nil {
							t.Fatal(err)
						}
					}
				}
				allIDs = append(allIDs, "nope")
				check := func(what string, f func(b anyBoard) (any, error)) {
					t.Helper()
					w, werr := f(plain)
					g, gerr := f(sh)
					if fmt.Sprint(werr) != fmt.Sprint(gerr) && !(werr != nil && gerr != nil) {
						t.Errorf("%s: err %v, want %v", what, gerr, werr)
						return
					}
					if werr != nil {
						return
					}
					if d := cmp.Diff(w, g); d != "" {
						t.Errorf("%s (-want +got):\n%s", what, d)
					}
				}
				for _, opts := range [][]ReadOption{nil, {WithRanks(Competition), WithData()}} {
					check("Len", func(b anyBoard) (any, error) { return b.Len(ctx) })
					for n := 1; n <= 7; n++ {
						check(fmt.Sprint("Top", n), func(b anyBoard) (any, error) { return b.Top(ctx, n, opts...) })
						for off := 0; off <= 7; off++ {
							check(fmt.Sprint("Page", off, n), func(b anyBoard) (any, error) { return b.Page(ctx, int64(off), n, opts...) })
							check(fmt.Sprint("Between", off, n), func(b anyBoard) (any, error) { return b.Between(ctx, 1, 2, int64(off), n, opts...) })
						}
						for _, id := range allIDs {
							check(fmt.Sprint("Around", id, n), func(b anyBoard) (any, error) { return b.Around(ctx, id, n, opts...) })
						}
						check(fmt.Sprint("Scan", n), func(b anyBoard) (any, error) { return scanAll(ctx, b, n, opts...) })
					}
					for _, id := range allIDs {
						check("Get "+id, func(b anyBoard) (any, error) { return b.Get(ctx, id, opts...) })
						check("Rank "+id, func(b anyBoard) (any, error) { return b.Rank(ctx, id, Competition) })
					}
					check("Among", func(b anyBoard) (any, error) { return b.Among(ctx, allIDs, opts...) })
				}
			})
		}
	}
}
