package board

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// 64 goroutines submit with Best to a few hot ids; the board ends holding
// the best tuple submitted per id.
func TestConcurrentBest(t *testing.T) {
	bothStrategies(t, Options{DenseRanks: true}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		hot := []string{"h1", "h2", "h3", "h4"}
		subs := make([][]Submission, 64)
		var wg sync.WaitGroup
		for g := range subs {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(g), 7))
				for i := 0; i < 40; i++ {
					s := Submission{ID: hot[rng.IntN(len(hot))], Policy: Best,
						Values: []float64{float64(rng.IntN(1024)), float64(rng.IntN(2)), float64(rng.IntN(256))}}
					if _, err := b.Submit(ctx, s); err != nil {
						t.Error(err)
						return
					}
					subs[g] = append(subs[g], s)
				}
			}(g)
		}
		wg.Wait()
		m := newModel(b.Layout())
		for _, ss := range subs {
			for _, s := range ss {
				m.submit(s)
			}
		}
		got, err := b.Top(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(m.page(0, 10), got); diff != "" {
			t.Errorf("board after concurrent Best (-want +got):\n%s", diff)
		}
	})
}

// Concurrent Updates never lose an increment: the compare-and-set retries.
func TestConcurrentUpdate(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		inc := func(old *Entry) ([]float64, error) {
			if old == nil {
				return []float64{1, 0, 0}, nil
			}
			return []float64{old.Values[0] + 1, 1 - old.Values[1], old.Values[2]}, nil
		}
		var wg sync.WaitGroup
		for g := 0; g < 16; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 25; i++ {
					if _, err := b.Update(ctx, "p", inc); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		e, err := b.Get(ctx, "p")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]float64{400, 1, 0}, e.Values); diff != "" {
			t.Errorf("after 400 updates (-want +got):\n%s", diff)
		}
	})
}

// An Update that keeps losing ends with ErrConflict when its context ends,
// and its function's error aborts without writing.
func TestUpdateConflictAndAbort(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		mustSubmit(t, b, Submission{ID: "p", Values: []float64{1, 0, 0}})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		n := 0.0
		_, err := b.Update(ctx, "p", func(old *Entry) ([]float64, error) {
			// A rival write lands between our read and our write, every time.
			n++
			mustSubmit(t, b, Submission{ID: "p", Values: []float64{n + 100, 0, 0}})
			return []float64{old.Values[0] + 1, 0, 0}, nil
		})
		if !errors.Is(err, ErrConflict) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want ErrConflict and DeadlineExceeded", err)
		}
		boom := errors.New("boom")
		if _, err := b.Update(context.Background(), "p", func(*Entry) ([]float64, error) { return nil, boom }); !errors.Is(err, boom) {
			t.Errorf("aborting fn: err = %v", err)
		}
		if _, err := b.Update(context.Background(), "p", func(*Entry) ([]float64, error) { return []float64{-1, 0, 0}, nil }); !errors.Is(err, errValue) {
			t.Errorf("bad values from fn: err = %v, want errValue", err)
		}
		if e, _ := b.Get(context.Background(), "p"); e.Values[0] != n+100 {
			t.Errorf("after refused updates: %v, want %v", e.Values, n+100)
		}
	})
}

// Keyset paging neither skips nor repeats entries that stay put while
// others are inserted, moved and removed, including the cursor's own.
func TestScanWhileChanging(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		var stay []string
		for i := 0; i < 200; i++ {
			id := string(rune('A'+i%26)) + string(rune('a'+i/26))
			mustSubmit(t, b, Submission{ID: id, Values: []float64{float64(i % 50), float64(i % 2), 0}})
			stay = append(stay, id)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		seen := map[string]int{}
		var c string
		for pages := 0; ; pages++ {
			p, err := b.Scan(ctx, c, 7)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range p.Entries {
				seen[e.ID]++
			}
			if p.Next == "" {
				break
			}
			c = p.Next
			// Churn: new ids everywhere, and the cursor's own entry moves away
			// or is removed.
			for k := 0; k < 5; k++ {
				mustSubmit(t, b, Submission{ID: "new" + string(rune('0'+pages%10)) + string(rune('a'+k)), Values: []float64{float64(rng.IntN(60)), float64(rng.IntN(2)), 0}})
			}
			last := p.Entries[len(p.Entries)-1].ID
			if pages%2 == 0 {
				b.Remove(ctx, last)
			} else {
				mustSubmit(t, b, Submission{ID: last, Values: []float64{1000, 1, 0}})
			}
		}
		for _, id := range stay {
			if seen[id] != 1 {
				// Only the cursor entries we moved or removed after seeing them
				// may differ, and they were seen before being touched.
				if seen[id] == 0 {
					t.Errorf("%s never returned", id)
				} else if seen[id] > 1 {
					t.Errorf("%s returned %d times", id, seen[id])
				}
			}
		}
	})
}
