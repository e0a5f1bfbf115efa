package board

import (
	"context"
	"errors"
	"testing"

	"github.com/tiebreak/tiebreak/internal/observetest"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/observe"
)

// A sharded board reports each call once, as a board of one tag does:
// Drop and Reshard included, a Rank with the rank kind asked for, an
// Update with its rounds and lost compare-and-sets; a call that its
// caller's context ended says so in its kind.
func TestShardedObserved(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	rec := &observetest.Recorder{}
	b := newSharded(t, env.Client, env.Prefix, "obs", testLayout(t), Options{Shards: 2, Observer: rec})
	mustSubmit(t, b, Submission{ID: "x", Values: []float64{1, 0, 1}})
	one := func(what string, f func() error) (observe.Op, observe.Outcome) {
		t.Helper()
		rec.Take()
		if err := f(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		ops, outs := rec.Take()
		if len(ops) != 1 || ops[0].Name != what {
			t.Fatalf("%s reported %v, want it once", what, ops)
		}
		return ops[0], outs[0]
	}
	if op, _ := one("Rank", func() error { _, err := b.Rank(ctx, "x", Competition); return err }); op.Policy != "Competition" {
		t.Errorf("sharded Rank reported Policy %q, want Competition", op.Policy)
	}
	for _, c := range []struct {
		sub  Submission
		want string
	}{
		{Submission{ID: "x", Values: []float64{1, 0, 1}, Policy: Add}, "Add"},
		{Submission{ID: "x", Values: []float64{1, 0, 1}, Fields: []Policy{Add, Keep, Min}}, "Add,Keep,Min"},
	} {
		for _, h := range []*Board{b, newBoard(t, env.Client, env.Prefix, "obsone", testLayout(t), Options{Observer: rec})} {
			if op, _ := one("Submit", func() error { _, err := h.Submit(ctx, c.sub); return err }); op.Policy != c.want {
				t.Errorf("%s: Submit reported Policy %q, want %q", h.Name(), op.Policy, c.want)
			}
		}
	}
	other, err := Open(ctx, env.Client, b.Name(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := true
	_, o := one("Update", func() error {
		_, err := b.Update(ctx, "x", func(e *Entry) ([]float64, error) {
			if first { // another handle writes between the read and the compare-and-set
				first = false
				if _, err := other.Submit(ctx, Submission{ID: "x", Values: []float64{7, 0, 1}}); err != nil {
					return nil, err
				}
			}
			return []float64{e.Values[0] + 1, 0, 1}, nil
		})
		return err
	})
	if o.Has&observe.HasAttempts == 0 || o.Attempts != 2 || o.Conflicts != 1 {
		t.Errorf("sharded Update that lost one compare-and-set reported %+v, want 2 attempts and 1 conflict", o)
	}
	one("Reshard", func() error { _, err := b.Reshard(ctx, 3, MigrateOptions{}); return err })
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	rec.Take()
	_, err = b.Top(cancelled, 3)
	if ops, outs := rec.Take(); err == nil || len(ops) != 1 || outs[0].ErrKind != "context.Canceled" || outs[0].Has&observe.HasCount != 0 {
		t.Errorf("Top with its context cancelled: %v; reported %v %+v, want once, kind context.Canceled, no count", err, ops, outs)
	}
	one("Drop", func() error { return b.Drop(ctx) })
}

// A Remove that failed reports how many ids it removed all the same when
// it removed some (a sharded board's other shards), and no count when it
// removed none.
func TestRemovedOutcome(t *testing.T) {
	failed := observe.Outcome{Err: ErrRedis}
	if o := removedOutcome(3, failed); o.Has&observe.HasCount == 0 || o.Count != 3 {
		t.Errorf("a Remove that failed after removing 3: %+v, want count 3", o)
	}
	if o := removedOutcome(0, failed); o.Has&observe.HasCount != 0 {
		t.Errorf("a Remove that failed, removing nothing: %+v, want no count", o)
	}
	if o := removedOutcome(0, observe.Outcome{}); o.Has&observe.HasCount == 0 {
		t.Errorf("a Remove of ids not on the board: %+v, want count 0", o)
	}
}

// Migrate and Reshard report the calls they refuse, as every other call
// does: once each, with the kind of the refusal.
func TestRefusedLongOperationsObserved(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	rec := &observetest.Recorder{}
	plain := newBoard(t, env.Client, env.Prefix, "obsplain", testLayout(t), Options{Observer: rec})
	sharded := newSharded(t, env.Client, env.Prefix, "obsshard", testLayout(t), Options{Shards: 2, Observer: rec})
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"Reshard", func() error { _, err := plain.Reshard(ctx, 2, MigrateOptions{}); return err }},
		{"Reshard", func() error {
			_, err := sharded.Reshard(ctx, 3, MigrateOptions{Defaults: map[string]float64{"points": 0}})
			return err
		}},
		{"Migrate", func() error { _, err := sharded.Migrate(ctx, testLayout(t), Options{}, MigrateOptions{}); return err }},
	} {
		rec.Take()
		err := c.call()
		ops, outs := rec.Take()
		if !errors.Is(err, ErrArgument) || len(ops) != 1 || ops[0].Name != c.name || outs[0].ErrKind != "board.ErrArgument" {
			t.Errorf("refused %s: %v; reported %v %+v, want once, kind board.ErrArgument", c.name, err, ops, outs)
		}
	}
}
