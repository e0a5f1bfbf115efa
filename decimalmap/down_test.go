package decimalmap

import (
	"context"
	"fmt"
	"testing"

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
	reads := map[string]func() error{}
	for _, rev := range []bool{false, true} {
		reads[fmt.Sprintf("Range (Reverse %v)", rev)] = func() error {
			es, err := m.Range(ctx, Query{Reverse: rev})
			if err == nil && len(es) != 3 {
				err = fmt.Errorf("%d keys, want 3", len(es))
			}
			return err
		}
	}
	redistest.ReadsWaitForRestart(t, srv, reads)
}
