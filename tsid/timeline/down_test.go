package timeline

import (
	"context"
	"fmt"
	"testing"

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
			reads := map[string]func() error{}
			for name, c := range map[string]struct {
				read func() ([]Message[uint64], error)
				want int
			}{
				"Before": {func() ([]Message[uint64], error) { p, err := tl.Before(ctx, 4<<22, 5); return p.Messages, err }, 3},
				"After":  {func() ([]Message[uint64], error) { p, err := tl.After(ctx, 2<<22, 5); return p.Messages, err }, 3},
				"Around": {func() ([]Message[uint64], error) { w, err := tl.Around(ctx, 3<<22, 5); return w.Messages, err }, 5},
				"Latest": {func() ([]Message[uint64], error) { p, err := tl.Latest(ctx, 5); return p.Messages, err }, 5},
			} {
				reads[name] = func() error {
					ms, err := c.read()
					if err == nil && len(ms) != c.want {
						err = fmt.Errorf("%d messages, want %d", len(ms), c.want)
					}
					return err
				}
			}
			redistest.ReadsWaitForRestart(t, srv, reads)
		})
	}
}
