package benchload

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestWritersKeepBest hammers a few ids with every writer that keeps the
// better result, concurrently, and checks against a model that each id
// ends with the most points ever submitted for it. It catches a baseline
// that loses updates or overwrites a better entry.
func TestWritersKeepBest(t *testing.T) {
	env := redistest.New(t)
	ws, drop, err := Writers(t.Context(), Env{Client: env.Client, Prefix: env.Prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer drop(context.Background())
	const ids, goroutines, perGoroutine = 5, 8, 150
	for _, w := range ws {
		if !w.KeepsBest {
			continue // they overwrite: no best to keep
		}
		t.Run(w.Name, func(t *testing.T) {
			if err := w.Load(context.Background(), Env{}, ids); err != nil {
				t.Fatal(err)
			}
			want := hammer(t, w, ids, goroutines*perGoroutine, goroutines)
			got := map[string]int64{}
			for id := range want {
				if got[id], err = w.Points(context.Background(), id); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("points per id (-want +got):\n%s", diff)
			}
		})
	}
}

// hammer makes n writes of random points to random ids from several
// goroutines and returns the model: the most points written per id.
func hammer(t *testing.T, w *Writer, ids, n, goroutines int) map[string]int64 {
	t.Helper()
	var mu sync.Mutex
	var s seq
	want := map[string]int64{}
	for i := range int64(ids) {
		want[IDOf(i)] = 0
	}
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range n / goroutines {
				q := s.next()
				// Points in random order, not growing: a writer that
				// overwrites a better entry shows.
				id, e := IDOf(int64(pick(q, ids))), WriteEntry(Mix(^q)%(1<<pointsBits))
				if err := w.Write(context.Background(), id, e); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				want[id] = max(want[id], e.Points)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return want
}
