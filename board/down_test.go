package board

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A server that is down: a write fails at once (ErrRedis, nothing sent),
// a read with a deadline ends by it, and a read without one waits for the
// server and answers once it is back, with every acknowledged write: Top,
// Get, Rank, Around and Open, on both strategies (a key-suffix board's reads
// find the member in its id lookup first).
func TestServerDownReadsWaitWritesFail(t *testing.T) {
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run(s.String(), func(t *testing.T) { serverDownReadsWait(t, s) })
	}
}

// serverDownReadsWait is TestServerDownReadsWaitWritesFail on a board of
// strategy s.
func serverDownReadsWait(t *testing.T, s Strategy) {
	srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	b := newBoard(t, client, "", "down", testLayout(t), Options{Strategy: s})
	if _, err := b.Submit(t.Context(), Submission{ID: "ann", Values: []float64{3, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(t.Context(), "ann"); err != nil { // a key-suffix handle keeps its bucket count
		t.Fatal(err)
	}
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Submit(t.Context(), Submission{ID: "bob", Values: []float64{2, 1, 1}}); !errors.Is(err, ErrRedis) {
		t.Errorf("a write while the server is down: %v, want ErrRedis", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	_, err := b.Top(ctx, 10)
	cancel()
	if !errors.Is(err, ErrRedis) && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a read with a deadline while the server is down: %v, want ErrRedis or the deadline", err)
	}
	ctx = t.Context()
	redistest.ReadsWaitForRestart(t, srv, map[string]func() error{
		"Top":    func() error { return annOnly(b.Top(ctx, 10)) },
		"Around": func() error { return annOnly(b.Around(ctx, "ann", 3)) },
		"Get": func() error {
			e, err := b.Get(ctx, "ann")
			if err == nil && (e.ID != "ann" || e.Rank != 1) {
				err = fmt.Errorf("Get(ann) = %+v", e)
			}
			return err
		},
		"Rank": func() error {
			r, err := b.Rank(ctx, "ann", Ordinal)
			if err == nil && r != 1 {
				err = fmt.Errorf("Rank(ann) = %d", r)
			}
			return err
		},
		// Open reads the descriptor, and writes nothing: it waits as a read.
		"Open": func() error {
			o, err := Open(ctx, client, b.Name(), Options{})
			if err != nil {
				return err
			}
			return annOnly(o.Top(ctx, 10))
		},
	})
}

// annOnly checks that a read's list is ann's entry alone.
func annOnly(l List, err error) error {
	if err == nil && (len(l.Entries) != 1 || l.Entries[0].ID != "ann") {
		err = fmt.Errorf("the list %+v is not ann's", l.Entries)
	}
	return err
}
