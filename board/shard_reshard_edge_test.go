package board

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// startCopy begins a resharding of b to n shards and runs every old
// shard's export and copy (but not the freeze), then frees the lease, as
// a Reshard cut short after its copy would.
func startCopy(t *testing.T, b *Board, n int) (*shardView, *lease) {
	t.Helper()
	ctx := t.Context()
	l := &lease{sb: b.sh, token: newToken()}
	src, dst, err := b.sh.beginReshard(ctx, n, l)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range src.shards {
		if err := dst.exportShard(ctx, s, MigrateOptions{Batch: 50}, l); err != nil {
			t.Fatal(err)
		}
	}
	l.release(ctx)
	return src, l
}

// A write acknowledged while a shard is exporting, whose dirty id a drain
// took and never copied (Reshard cancelled or killed between the drain
// and the put), is copied when the resharding resumes: the id was kept in
// flight.
func TestReshardKeepsWritesInFlight(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newSharded(t, env.Client, env.Prefix, "d", testLayout(t), Options{Shards: 2})
	if _, err := b.Submit(ctx, Submission{ID: "x", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	src, l := startCopy(t, b, 3)
	if _, err := b.Submit(ctx, Submission{ID: "x", Values: []float64{9, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	owner := src.shards[shardOf("x", 2)]
	if _, err := owner.drain(ctx, l.token, 10, false, nil); err != nil { // the process dies here
		t.Fatal(err)
	}
	if _, err := b.Reshard(ctx, 3, MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	e, err := b.Get(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	if e.Values[0] != 9 {
		t.Fatalf("x after resume: %v, want the acknowledged 9", e.Values)
	}
}

// An id removed and submitted again without data while its shard is
// exporting has no data on the new shards either, though the copy took
// some before.
func TestReshardCopiesMissingData(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newSharded(t, env.Client, env.Prefix, "r", testLayout(t), Options{Shards: 2})
	if _, err := b.Submit(ctx, Submission{ID: "x", Values: []float64{1, 0, 1}, Data: []byte("old")}); err != nil {
		t.Fatal(err)
	}
	startCopy(t, b, 3)
	if _, err := b.Remove(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Submit(ctx, Submission{ID: "x", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	before, err := b.Get(ctx, "x", WithData())
	if err != nil || before.Data != nil {
		t.Fatalf("before the switch: %q, %v; want no data", before.Data, err)
	}
	if _, err := b.Reshard(ctx, 3, MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	e, err := b.Get(ctx, "x", WithData())
	if err != nil {
		t.Fatal(err)
	}
	if e.Data != nil {
		t.Fatalf("x after the resharding has data %q, want none", e.Data)
	}
}

// Drop after a resharding removes every key, the retired shards'
// tombstones and meta HASHes included, through the handle that resharded
// and through one built before (it reads the descriptor, not its view).
func TestShardedDropAfterReshard(t *testing.T) {
	for _, stale := range []bool{false, true} {
		t.Run(fmt.Sprint("stale=", stale), func(t *testing.T) {
			env := redistest.New(t)
			ctx := t.Context()
			b := newSharded(t, env.Client, env.Prefix, "s", testLayout(t), Options{Shards: 2})
			dropper := b
			if stale {
				dropper = newSharded(t, env.Client, env.Prefix, "s", testLayout(t), Options{Shards: 2})
			}
			if _, err := b.Submit(ctx, Submission{ID: "x", Values: []float64{1, 0, 1}}); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Reshard(ctx, 3, MigrateOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := dropper.Drop(ctx); err != nil {
				t.Fatal(err)
			}
			if n := keysOf(t, env); n != 0 {
				t.Fatalf("after Drop: %d keys left", n)
			}
		})
	}
}

// A Reshard cut short after its switch, before it retired the old
// shards, leaves them frozen; any handle finishes it: a new one (OpenSharded
// or NewSharded), a Reshard to the same count, or a handle built before
// whose write meets a frozen shard. The board reads and writes as usual
// throughout, and the old shards end retired.
func TestReshardKilledAfterSwitchIsFinishedByAnyHandle(t *testing.T) {
	for _, finish := range []string{"OpenSharded", "NewSharded", "Reshard", "write"} {
		t.Run(finish, func(t *testing.T) {
			env := redistest.New(t)
			ctx := t.Context()
			b := newSharded(t, env.Client, env.Prefix, "a", testLayout(t), Options{Shards: 2})
			stale := newSharded(t, env.Client, env.Prefix, "a", testLayout(t), Options{Shards: 2})
			if _, err := b.Submit(ctx, Submission{ID: "x", Values: []float64{1, 0, 1}}); err != nil {
				t.Fatal(err)
			}
			faultPoint = func(op, step string) {
				if step == "switch" {
					panic(errKilled)
				}
			}
			func() {
				defer func() { faultPoint = nil; recover() }()
				_, _ = b.Reshard(ctx, 3, MigrateOptions{})
			}()
			old := stale.sh.view.Load().shards
			if st, _, err := old[0].exportState(ctx); err != nil || st != phaseFrozen {
				t.Fatalf("after a kill at the switch: old shard %q, %v; want frozen", st, err)
			}
			switch finish {
			case "OpenSharded":
				_, err := Open(ctx, env.Client, b.Name(), Options{})
				check(t, err)
			case "NewSharded":
				_, err := New(ctx, env.Client, b.Name(), testLayout(t), Options{Shards: 3})
				check(t, err)
			case "Reshard":
				_, err := newSharded(t, env.Client, env.Prefix, "a", testLayout(t), Options{Shards: 3}).Reshard(ctx, 3, MigrateOptions{})
				check(t, err)
			case "write":
				_, err := stale.Submit(ctx, Submission{ID: "y", Values: []float64{2, 0, 1}})
				check(t, err)
			}
			for i, s := range old {
				if st, _, err := s.exportState(ctx); err != nil || st != phaseRetired {
					t.Errorf("old shard %d: %q, %v; want retired", i, st, err)
				}
			}
			if e, err := stale.Get(ctx, "x"); err != nil || e.Values[0] != 1 {
				t.Errorf("x through the handle built before: %v, %v", e, err)
			}
		})
	}
}

// errKilled stands for the death of the process running an operation, in
// tests that stop it at a step (faultPoint) within one process.
var errKilled = fmt.Errorf("killed at a step")

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Drop during a resharding removes the new shards and the dirty sets too.
func TestShardedDropDuringReshard(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newSharded(t, env.Client, env.Prefix, "dd", testLayout(t), Options{Shards: 2})
	if _, err := b.Submit(ctx, Submission{ID: "x", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	startCopy(t, b, 3)
	if _, err := b.Submit(ctx, Submission{ID: "y", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if n := keysOf(t, env); n != 0 {
		t.Fatalf("after Drop: %d keys left", n)
	}
}

// A Reshard of a sharded board dropped (through this handle or another)
// says it is not found, and writes nothing.
func TestReshardOfADroppedBoard(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newSharded(t, env.Client, env.Prefix, "dropped", testLayout(t), Options{Shards: 2})
	loadAll(t, b, []Submission{{ID: "a", Values: []float64{1, 0, 0}}})
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Reshard(ctx, 3, MigrateOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Reshard of a dropped board: %v, want ErrNotFound", err)
	}
	if n := keysOf(t, env); n != 0 {
		t.Errorf("%d keys after a refused Reshard of a dropped board", n)
	}
}
