package board

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
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
	b := newSharded(t, env.Client, env.Prefix, "f", testLayout(t), Options{Shards: 2})
	other := newSharded(t, env.Client, env.Prefix, "f", testLayout(t), Options{Shards: 2})
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
		_, err := b.Reshard(ctx, 3, MigrateOptions{Batch: 50})
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
	if n := other.Options().Shards; n != 2 {
		t.Fatalf("the stalled Reshard switched to %d shards", n)
	}
	faultPoint = nil
	if _, err := other.Reshard(ctx, 3, MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	sameBoard(t, plain, other)
}

// A resharding's copy resumes from each shard's position after the server
// restarts (killed, its append-only file synced at every write): the
// positions are data, where SCAN cursors would skip entries on the
// restarted server. Nothing written before, during or after is lost.
func TestReshardResumesAfterRestart(t *testing.T) {
	srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	env := &redistest.Env{Client: client, Prefix: "restart"}
	ctx := t.Context()
	b := newSharded(t, client, env.Prefix, "s", testLayout(t), Options{Shards: 3})
	plain := fillSharded(t, env, b, 4000, 31)
	cctx, cancel := context.WithCancel(ctx)
	var copies atomic.Int64 // the shards' copies run at once
	faultPoint = func(op, step string) {
		if step == "copy" && copies.Add(1) == 20 {
			cancel()
		}
	}
	_, err := b.Reshard(cctx, 5, MigrateOptions{Batch: 40})
	faultPoint = nil
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Reshard cut short: %v", err)
	}
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	waitServing(t, b.Len)
	s := Submission{ID: "p7", Values: []float64{39, 1, 3}, Data: []byte("after the restart")}
	for _, w := range []anyBoard{b, plain} {
		if _, err := w.Submit(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	nb, err := Open(ctx, client, b.Name(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Reshard(ctx, 5, MigrateOptions{Batch: 40}); err != nil {
		t.Fatal(err)
	}
	sameBoard(t, plain, nb)
}

// Reshard and Migrate ride out a restart of the server under them (killed
// mid-copy, its append-only file synced at every write): they go on by
// themselves once it answers again, and finish with nothing lost.
func TestLongOperationsRideOutARestart(t *testing.T) {
	srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	env := &redistest.Env{Client: client, Prefix: "rideout"}
	ctx := t.Context()
	restartAt := func(n int) {
		var copies atomic.Int64 // the shards' copies run at once
		faultPoint = func(op, step string) {
			if step == "copy" {
				if copies.Add(1) == int64(n) {
					if err := srv.Crash(); err != nil {
						t.Error(err)
					}
					go func() { // the operation's next steps find no server
						time.Sleep(500 * time.Millisecond)
						if err := srv.Restart(); err != nil {
							t.Error(err)
						}
					}()
				}
			}
		}
	}
	defer func() { faultPoint = nil }()

	sb := newSharded(t, client, env.Prefix, "s", testLayout(t), Options{Shards: 3})
	plain := fillSharded(t, env, sb, 3000, 41)
	restartAt(15)
	if _, err := sb.Reshard(ctx, 4, MigrateOptions{Batch: 40}); err != nil {
		t.Fatalf("Reshard across a restart: %v", err)
	}
	sameBoard(t, plain, sb)

	c := migrationCases(t)[2]
	b := newBoard(t, client, env.Prefix, "m", c.from, c.fo)
	src := newModel(c.from)
	data := fill(t, b, src, 3000, rand.New(rand.NewPCG(5, 41)))
	restartAt(10)
	nb, err := b.Migrate(ctx, c.to, c.to2, MigrateOptions{Defaults: c.defaults, Batch: 40})
	if err != nil {
		t.Fatalf("Migrate across a restart: %v", err)
	}
	checkMigrated(t, nb, src, c.from, c.defaults, data)
}
