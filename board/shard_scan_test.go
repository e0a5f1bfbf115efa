package board

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A Scan continued after the cursor's entry moved or left answers as a
// board's does.
func TestShardedScanCursorMoved(t *testing.T) {
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		for _, change := range []string{"remove", "up", "down", "same"} {
			t.Run(fmt.Sprint(s, change), func(t *testing.T) {
				env := redistest.New(t)
				ctx := context.Background()
				plain := newBoard(t, env.Client, env.Prefix, "p", testLayout(t), Options{Strategy: s})
				sh := newSharded(t, env.Client, env.Prefix, "s", testLayout(t), Options{Strategy: s, Shards: 4})
				bs := []anyBoard{plain, sh}
				for i := 0; i < 30; i++ {
					for _, b := range bs {
						if _, err := b.Submit(ctx, Submission{ID: fmt.Sprint("i", i), Values: []float64{float64(i % 4), float64(i % 2), 1}}); err != nil {
							t.Fatal(err)
						}
					}
				}
				var pages [2]List
				for j, b := range bs {
					p, err := b.Scan(ctx, "", 7, WithRanks(Competition))
					if err != nil {
						t.Fatal(err)
					}
					pages[j] = p
				}
				if d := cmp.Diff(pages[0], pages[1]); d != "" {
					t.Fatal(d)
				}
				last, next := pages[0].Entries[6].ID, pages[0].Next
				for _, b := range bs {
					var err error
					switch change {
					case "remove":
						_, err = b.Remove(ctx, last)
					case "up":
						_, err = b.Submit(ctx, Submission{ID: last, Values: []float64{100, 1, 1}})
					case "down":
						_, err = b.Submit(ctx, Submission{ID: last, Values: []float64{0, 0, 5}})
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				for j, b := range bs {
					p, err := b.Scan(ctx, next, 7, WithRanks(Competition))
					if err != nil {
						t.Fatal(err)
					}
					pages[j] = p
				}
				if d := cmp.Diff(pages[0], pages[1]); d != "" {
					t.Fatal(d)
				}
			})
		}
	}
}
