package ratelimit

import (
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestArgCache: the cached arguments are the formatted ones, from any
// number of goroutines, and the cache stops growing at maxCachedLimits
// while later limits still get theirs.
func TestArgCache(t *testing.T) {
	var c argCache
	limits := make([]Limit, maxCachedLimits+50)
	for i := range limits {
		limits[i] = Limit{N: i + 1, Window: time.Duration(i+1) * 1500 * time.Microsecond}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, l := range limits {
				if diff := cmp.Diff(*newLimitArgs(l), *c.get(l), cmp.AllowUnexported(limitArgs{})); diff != "" {
					t.Errorf("args of %v (-want +got):\n%s", l, diff)
				}
			}
		})
	}
	wg.Wait()
	if got := len(*c.m.Load()); got != maxCachedLimits {
		t.Errorf("%d limits cached, want the bound %d", got, maxCachedLimits)
	}
	// 1.5ms rounds up to 2ms: at least 3ms to live, 5ms when extended.
	want := limitArgs{n: "1", window: "1500", ttlMin: "3", ttlSet: "5"}
	if diff := cmp.Diff(want, *c.get(limits[0]), cmp.AllowUnexported(limitArgs{})); diff != "" {
		t.Errorf("args of %v (-want +got):\n%s", limits[0], diff)
	}
}
