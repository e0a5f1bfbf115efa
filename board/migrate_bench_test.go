package board

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// BenchmarkMigrate migrates a 20,000-entry board back and forth between
// two settings (dense ranks off and on), alone and under 16 writers, with
// the default batch and a small one, and reports entries migrated per
// second and the writers' latency while no migration runs and while one
// does.
func BenchmarkMigrate(b *testing.B) {
	const entries = 20_000
	env := redistest.New(b)
	l := testLayout(b)
	for _, c := range []struct {
		writers, batch int
		pause          time.Duration
	}{{0, defaultMigrateBatch, 0}, {16, defaultMigrateBatch, 0}, {16, 20, 0}, {16, defaultMigrateBatch, 4 * time.Millisecond}} {
		writers := c.writers
		b.Run(fmt.Sprintf("writers=%d/batch=%d/pause=%v", writers, c.batch, c.pause), func(b *testing.B) {
			bd := benchBoardOf(b, env, "migrate"+strconv.Itoa(writers), l, entries)
			w := startBenchWriters(bd, writers)
			time.Sleep(time.Second) // the writers alone: the baseline
			idle := w.take()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				if bd, err = bd.Migrate(context.Background(), l, Options{DenseRanks: i%2 == 0}, MigrateOptions{Batch: c.batch, Pause: c.pause}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			during := w.take()
			w.stop()
			if err := bd.Drop(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(entries*b.N)/b.Elapsed().Seconds(), "entries/s")
			if writers > 0 {
				b.ReportMetric(idle.pct(50), "idle-p50-µs")
				b.ReportMetric(idle.pct(99), "idle-p99-µs")
				b.ReportMetric(during.pct(50), "migrating-p50-µs")
				b.ReportMetric(during.pct(99), "migrating-p99-µs")
			}
		})
	}
}

// benchBoardOf loads a board of n entries named for the benchmark.
func benchBoardOf(b *testing.B, env *redistest.Env, name string, l *pack.Layout, n int) *Board {
	b.Helper()
	bd := newBoard(b, env.Client, env.Prefix, name, l, Options{})
	for start := 0; start < n; start += 10_000 {
		subs := make([]Submission, 0, 10_000)
		for i := start; i < min(n, start+10_000); i++ {
			subs = append(subs, Submission{ID: "player" + strconv.Itoa(i), Values: []float64{float64(i % 1024), float64(i % 2), float64(i % 256)}})
		}
		for _, r := range bd.SubmitMany(context.Background(), subs) {
			if r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	}
	return bd
}

// benchWriters submit with Best to a board until stopped, each through its
// own handle (opened again when a migration switches the board), and
// record every write's latency.
type benchWriters struct {
	mu   sync.Mutex
	lat  latencies
	done chan struct{}
	wg   sync.WaitGroup
}

type latencies []time.Duration

// pct returns the p-th percentile in µs (nearest rank), 0 when empty.
func (l latencies) pct(p int) float64 {
	if len(l) == 0 {
		return 0
	}
	slices.Sort(l)
	return float64(l[(len(l)-1)*p/100].Microseconds())
}

func startBenchWriters(bd *Board, n int) *benchWriters {
	w := &benchWriters{done: make(chan struct{})}
	for g := 0; g < n; g++ {
		w.wg.Add(1)
		go w.write(bd, g)
	}
	return w
}

func (w *benchWriters) write(bd *Board, g int) {
	defer w.wg.Done()
	ctx := context.Background()
	h := bd
	for i := 0; ; i++ {
		select {
		case <-w.done:
			return
		default:
		}
		s := Submission{ID: fmt.Sprintf("player%d", (g*7919+i*104729)%20_000), Values: []float64{float64(i % 1024), 1, 0}, Policy: Best}
		start := time.Now()
		_, err := h.Submit(ctx, s)
		if errors.Is(err, ErrMismatch) {
			h, _ = Open(ctx, bd.rc(), bd.Name(), Options{})
			continue
		}
		w.mu.Lock()
		w.lat = append(w.lat, time.Since(start))
		w.mu.Unlock()
	}
}

// take returns the latencies recorded since the last take.
func (w *benchWriters) take() latencies {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.lat
	w.lat = nil
	return l
}

func (w *benchWriters) stop() {
	close(w.done)
	w.wg.Wait()
}
