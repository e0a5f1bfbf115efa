package ratelimit

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// call is one Allow as Redis decided it.
type call struct {
	at      int64 // Redis's clock, µs
	allowed bool
}

// hammer runs workers goroutines calling Allow on key until each has seen
// Redis's clock pass the first call's time plus d, and returns every call.
func hammer(t *testing.T, l *Limiter, key string, lim Limit, workers int, d time.Duration) []call {
	t.Helper()
	var (
		mu    sync.Mutex
		calls []call
		wg    sync.WaitGroup
	)
	start := mustAllowN(t, l, key, lim, 1)
	calls = append(calls, call{start.At.UnixMicro(), start.Allowed == 1})
	end := start.At.Add(d)
	for range workers {
		wg.Go(func() {
			var mine []call
			for {
				r, err := l.Allow(context.Background(), key, lim)
				if err != nil {
					t.Error(err)
					return
				}
				mine = append(mine, call{r.At.UnixMicro(), r.Allowed == 1})
				if r.At.After(end) {
					break
				}
			}
			mu.Lock()
			calls = append(calls, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.SortFunc(calls, func(a, b call) int { return int(a.at - b.at) })
	return calls
}

// TestConcurrentNeverOverLimit: 64 goroutines hammer one key for several
// windows. Checked on Redis's own admission times: no window interval ever
// holds more than N admissions, every refusal saw N admissions in its
// window, and admissions resume as the window slides.
func TestConcurrentNeverOverLimit(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	lim := Limit{N: 10, Window: 200 * time.Millisecond}
	const windows = 5
	calls := hammer(t, l, "hot", lim, 64, windows*lim.Window)
	w := lim.Window.Microseconds()
	var admitted []int64
	for _, c := range calls {
		if c.allowed {
			admitted = append(admitted, c.at)
		}
	}
	// Safety: N+1 admissions within one window would have a span under W.
	for i := 0; i+lim.N < len(admitted); i++ {
		if span := admitted[i+lim.N] - admitted[i]; span < w {
			t.Fatalf("admissions %d..%d, %d of them, within %dµs < window %dµs", i, i+lim.N, lim.N+1, span, w)
		}
	}
	// Liveness: a refusal at time a saw N admissions in (a-W, a].
	unjust := 0
	for _, c := range calls {
		if !c.allowed && countIn(admitted, c.at-w, c.at) < lim.N {
			unjust++
		}
	}
	if unjust > 0 {
		t.Errorf("%d refusals with fewer than %d admissions in their window", unjust, lim.N)
	}
	// The window slides: every goroutine's last call came after the first
	// admission plus windows*W, and (admitted, or refused for a full
	// window) it proves admissions within the last window; with the check
	// above this holds however the goroutines were scheduled.
	if late := countIn(admitted, admitted[0]+(windows-1)*w, admitted[len(admitted)-1]); late == 0 || len(admitted) <= lim.N {
		t.Errorf("%d admitted, %d in the last window: admissions did not resume as the window slid", len(admitted), late)
	}
	t.Logf("%d calls, %d admitted over %v (at most %d per window)", len(calls), len(admitted), time.Duration(calls[len(calls)-1].at-calls[0].at)*time.Microsecond, lim.N)
}

// countIn counts the sorted times in (lo, hi].
func countIn(sorted []int64, lo, hi int64) int {
	i, _ := slices.BinarySearch(sorted, lo+1)
	j, _ := slices.BinarySearch(sorted, hi+1)
	return j - i
}
