package decimalmap

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A Range (one MULTI/EXEC of reads) of a server that is down waits,
// without a deadline, until the server is back, as every read does, and
// then answers with every key acknowledged, in both directions.
func TestRangeWaitsForTheServer(t *testing.T) {
	srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	ctx := context.Background()
	m := newMap(t, client, "", "down")
	for _, k := range []string{"1", "2.5", "10"} {
		if _, err := m.Add(ctx, k, "v"+k); err != nil {
			t.Fatal(err)
		}
	}
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 2)
	for _, rev := range []bool{false, true} {
		go func() {
			es, err := m.Range(ctx, Query{Reverse: rev})
			if err == nil && len(es) != 3 {
				err = fmt.Errorf("%d keys, want 3", len(es))
			}
			if err != nil {
				err = fmt.Errorf("Range (Reverse %v): %w", rev, err)
			}
			got <- err
		}()
	}
	select {
	case err := <-got:
		t.Fatalf("a Range returned while the server is down: %v", err)
	case <-time.After(300 * time.Millisecond): // they wait
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := <-got; err != nil {
			t.Errorf("a waiting Range, once the server is back: %v", err)
		}
	}
}
