package board

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A server that is down: a write fails at once (ErrRedis, nothing sent),
// a read with a deadline ends by it, and a read without one waits for the
// server and answers once it is back, with every acknowledged write.
func TestServerDownReadsWaitWritesFail(t *testing.T) {
	srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	b := newBoard(t, client, "", "down", testLayout(t), Options{})
	if _, err := b.Submit(t.Context(), Submission{ID: "ann", Values: []float64{3, 1, 1}}); err != nil {
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
	read := make(chan error, 1)
	go func() {
		l, err := b.Top(t.Context(), 10)
		if err == nil && (len(l.Entries) != 1 || l.Entries[0].ID != "ann") {
			err = errors.New("the list is not ann's")
		}
		read <- err
	}()
	select {
	case err := <-read:
		t.Fatalf("a read without a deadline returned while the server is down: %v", err)
	case <-time.After(300 * time.Millisecond): // it waits
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if err := <-read; err != nil {
		t.Errorf("the waiting read, once the server is back: %v", err)
	}
}
