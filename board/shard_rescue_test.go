package board

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A Reshard whose process stops while the old shards are frozen (here:
// every shard's copy hangs right after the freeze, renewing nothing)
// delays writes for about the lease (reshardLease), not for ever: the
// first write that waits past it revokes the lease and thaws the shards,
// and goes on. The stalled process, woken, can neither renew nor switch:
// it fails, having switched nothing, and a new Reshard finishes. Every
// acknowledged write is on the board at the end.
func TestReshardStalledWhileFrozenThawsForWriters(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newSharded(t, env.Client, env.Prefix, "f", testLayout(t), ShardedOptions{Shards: 2})
	other := newSharded(t, env.Client, env.Prefix, "f", testLayout(t), ShardedOptions{Shards: 2})
	plain := fillSharded(t, env, b, 500, 21)
	wake := make(chan struct{})
	var frozen sync.WaitGroup
	frozen.Add(2)
	faultPoint = func(op, step string) {
		if step == "freeze" {
			frozen.Done()
			<-wake
		}
	}
	defer func() { faultPoint = nil }()
	done := make(chan error, 1)
	go func() {
		_, err := b.Reshard(ctx, 3, ReshardOptions{Batch: 50})
		done <- err
	}()
	frozen.Wait()
	start := time.Now()
	s := Submission{ID: "late", Values: []float64{7, 1, 2}, Data: []byte("after the freeze")}
	if _, err := other.Submit(ctx, s); err != nil {
		t.Fatalf("a write while the stalled resharding holds the shards frozen: %v", err)
	}
	t.Logf("the write waited %v for the frozen shards (lease %v)", time.Since(start).Round(time.Millisecond), reshardLease)
	if _, err := plain.Submit(ctx, s); err != nil {
		t.Fatal(err)
	}
	close(wake)
	if err := <-done; !errors.Is(err, ErrMigrating) {
		t.Fatalf("the stalled Reshard, woken after its lease was revoked: err = %v, want ErrMigrating", err)
	}
	if n := other.Shards(); n != 2 {
		t.Fatalf("the stalled Reshard switched to %d shards", n)
	}
	faultPoint = nil
	if _, err := other.Reshard(ctx, 3, ReshardOptions{}); err != nil {
		t.Fatal(err)
	}
	sameBoard(t, plain, other)
}
