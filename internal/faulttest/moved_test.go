package faulttest

import (
	"context"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// A write that waits for a replica (WaitReplicas) goes with its WAIT on a
// connection of its own, which rueidis does not redirect: right after an
// object's slot moved to another master, the write still goes through,
// once, in every package, through the same client and handle.
func TestWaitedWritesFollowAMovedSlot(t *testing.T) {
	c, client := redistest.PrivateCluster(t, redistest.ClusterOptions{Masters: 3, Replicas: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	lim, err := ratelimit.New(client, ratelimit.Options{WaitReplicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	dm, err := decimalmap.New(client, "moved", decimalmap.Options{WaitReplicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := timeline.New(client, "moved", tsid.TSID, timeline.Options{WaitReplicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.New(ctx, client, "moved", boardLayout(t), board.Options{WaitReplicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	var id uint64 = 1 << 40
	// Every object's keys share the hash tag {moved}: one slot.
	writes := []struct {
		name  string
		write func() error
	}{
		{"ratelimit Allow", func() error { _, err := lim.Allow(ctx, "moved", ratelimit.PerHour(1000)); return err }},
		{"decimalmap Add", func() error { _, err := dm.Add(ctx, "1.5", "x"); return err }},
		{"timeline Append", func() error { id++; return tl.Append(ctx, id, []byte("x")) }},
		{"board Submit", func() error {
			_, err := b.Submit(ctx, board.Submission{ID: "a", Values: []float64{1, 0, 0}})
			return err
		}},
	}
	for _, w := range writes {
		if err := w.write(); err != nil {
			t.Fatalf("%s before the move: %v", w.name, err)
		}
	}
	if err := c.MoveKeyAway(ctx, "{moved}", redisserver.MoveOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, w := range writes {
		if err := w.write(); err != nil {
			t.Errorf("%s right after its slot moved: %v", w.name, err)
		}
	}
	// Each write ran once: a third admission leaves 997, two messages.
	if r, err := lim.Allow(ctx, "moved", ratelimit.PerHour(1000)); err != nil || r.Remaining != 997 {
		t.Errorf("a third admission: %+v, %v; want 997 remaining", r, err)
	}
	if n, err := tl.Len(ctx); err != nil || n != 2 {
		t.Errorf("after two appends: %d messages, %v; want 2", n, err)
	}
}
