package ratelimit

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// TestCluster runs the limiter on a 3-master Redis Cluster: many keys,
// spread over the masters, each limited on its own, concurrently.
func TestCluster(t *testing.T) {
	env := redistest.NewCluster(t, 3)
	l, err := New(env.Client, Options{Prefix: env.Prefix + ":"})
	if err != nil {
		t.Fatal(err)
	}
	lim := PerMinute(3)
	const keys = 30
	var wg sync.WaitGroup
	allowed := make([]int, keys)
	for i := range keys {
		wg.Go(func() {
			key := "client" + strconv.Itoa(i)
			for range 5 {
				r, err := l.Allow(context.Background(), key, lim)
				if err != nil {
					t.Error(err)
					return
				}
				allowed[i] += r.Allowed
			}
			if _, err := l.AllowN(context.Background(), key, lim, 4); !errors.Is(err, ErrExceedsLimit) {
				t.Errorf("%s: AllowN(4) err = %v, want ErrExceedsLimit", key, err)
			}
		})
	}
	wg.Wait()
	for i, n := range allowed {
		if n != lim.N {
			t.Errorf("client%d: %d of 5 admitted, want %d", i, n, lim.N)
		}
	}
	if err := l.Reset(context.Background(), "client0"); err != nil {
		t.Fatal(err)
	}
	if r, err := l.Allow(context.Background(), "client0", lim); err != nil || r.Allowed != 1 {
		t.Errorf("client0 after Reset: %+v, %v; want admitted", r, err)
	}
	if got := mastersHolding(t, env); got < 2 {
		t.Errorf("keys on %d masters, want them spread over at least 2 of 3", got)
	}
}

// mastersHolding counts the masters holding a key of env.
func mastersHolding(t *testing.T, env *redistest.ClusterEnv) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n := 0
	for addr, node := range env.Client.Nodes() {
		for cursor, found := uint64(0), false; !found; {
			e, err := node.Do(ctx, node.B().Scan().Cursor(cursor).Match("*"+env.Prefix+"*").Count(1000).Build()).AsScanEntry()
			if err != nil {
				t.Fatalf("SCAN on %s: %v", addr, err)
			}
			if len(e.Elements) > 0 {
				n, found = n+1, true
			}
			if cursor = e.Cursor; cursor == 0 {
				break
			}
		}
	}
	return n
}
