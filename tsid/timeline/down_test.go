package timeline

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

// A read of a server that is down waits, without a deadline, until the
// server is back, and then answers with every message acknowledged: each
// read on both strategies, those made of a MULTI/EXEC (a split-score
// page around a cursor) included.
func TestReadsWaitForTheServer(t *testing.T) {
	for _, s := range []Strategy{SplitScore, LexID} {
		t.Run(s.String(), func(t *testing.T) {
			srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
			ctx := context.Background()
			tl := newTL(t, client, "down", tsid.TSID, Options{Strategy: s})
			for i := uint64(1); i <= 5; i++ {
				mustAppend(t, tl, Message[uint64]{ID: i << 22, Payload: []byte("x")})
			}
			if err := srv.Crash(); err != nil {
				t.Fatal(err)
			}
			reads := map[string]func() (int, error){
				"Before": func() (int, error) { p, err := tl.Before(ctx, 4<<22, 5); return len(p.Messages), err },
				"After":  func() (int, error) { p, err := tl.After(ctx, 2<<22, 5); return len(p.Messages), err },
				"Around": func() (int, error) { p, err := tl.Around(ctx, 3<<22, 5); return len(p.Messages), err },
				"Latest": func() (int, error) { p, err := tl.Latest(ctx, 5); return len(p.Messages), err },
			}
			want := map[string]int{"Before": 3, "After": 3, "Around": 5, "Latest": 5}
			got := make(chan error, len(reads))
			for name, r := range reads {
				go func() {
					n, err := r()
					if err == nil && n != want[name] {
						err = fmt.Errorf("%d messages, want %d", n, want[name])
					}
					if err != nil {
						err = fmt.Errorf("%s: %w", name, err)
					}
					got <- err
				}()
			}
			select {
			case err := <-got:
				t.Fatalf("a read returned while the server is down: %v", err)
			case <-time.After(300 * time.Millisecond): // they wait
			}
			if err := srv.Restart(); err != nil {
				t.Fatal(err)
			}
			for range reads {
				if err := <-got; err != nil {
					t.Errorf("a waiting read, once the server is back: %v", err)
				}
			}
		})
	}
}
