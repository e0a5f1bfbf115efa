package board

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// hookClient runs fn once before its next DoMulti once armed.
type hookClient struct {
	rueidis.Client
	mu sync.Mutex
	fn func()
}

func (h *hookClient) DoMulti(ctx context.Context, cmds ...rueidis.Completed) []rueidis.RedisResult {
	h.mu.Lock()
	fn := h.fn
	h.fn = nil
	h.mu.Unlock()
	if fn != nil {
		fn()
	}
	return h.Client.DoMulti(ctx, cmds...)
}

// A Submit whose write landed on an exporting shard, and whose ranking
// round trip then meets the retired shards, is not run again on the new
// shards: an Add is applied once (the rank is 0).
func TestShardedWriteNotSentTwiceAcrossSwitch(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	hc := &hookClient{Client: env.Client}
	b := newSharded(t, hc, env.Prefix, "w", testLayout(t), Options{Shards: 3})
	r := newSharded(t, env.Client, env.Prefix, "w", testLayout(t), Options{Shards: 3})
	if _, err := b.Submit(ctx, Submission{ID: "x", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	rs := exportedReshard(t, r, 4)
	fired := false
	hc.fn = func() { // between the write and its ranking: the rest of the resharding
		fired = true
		rs.finish(t, rs.src.shards)
	}
	add := Submission{ID: "x", Values: []float64{1, 0, 1}, Fields: []Policy{Add, Replace, Replace}}
	res, err := b.Submit(ctx, add)
	if err != nil {
		t.Fatal(err)
	}
	if !fired {
		t.Fatal("hook did not fire")
	}
	if res.Entry.Values[0] != 2 {
		t.Fatalf("x after one Add of 1 to 1: %v, want 2", res.Entry.Values)
	}
}

// A Remove that meets a shard a resharding froze, after removing ids on
// the other shards, counts the ids of both attempts: those it removed
// before the freeze and those it removes on the new shards.
func TestShardedRemoveCountsAcrossFreeze(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newSharded(t, env.Client, env.Prefix, "rf", testLayout(t), Options{Shards: 3})
	r := newSharded(t, env.Client, env.Prefix, "rf", testLayout(t), Options{Shards: 3})
	var ids []string
	on := make([]int, 3)
	for i := 0; i < 30; i++ {
		id := fmt.Sprintf("p%d", i)
		ids = append(ids, id)
		on[shardOf(id, 3)]++
		if _, err := b.Submit(ctx, Submission{ID: id, Values: []float64{float64(i), 0, 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if on[0] == 0 || on[0] == len(ids) {
		t.Fatalf("ids per shard %v: want some on shard 0 and some elsewhere", on)
	}
	rs := exportedReshard(t, r, 4)
	if err := rs.dst.freezeShard(ctx, rs.src.shards[0], 50, rs.l); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { // the rest of the resharding, while the Remove waits
		defer close(done)
		time.Sleep(100 * time.Millisecond)
		rs.finish(t, rs.src.shards[1:])
	}()
	n, err := b.Remove(ctx, ids...)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(len(ids)) {
		t.Fatalf("Remove of %d ids on the board (%v a shard, shard 0 frozen) = %d, want %d", len(ids), on, n, len(ids))
	}
	if got, err := b.Len(ctx); err != nil || got != 0 {
		t.Fatalf("Len after Remove = %d, %v; want 0", got, err)
	}
}

// steppedReshard is a resharding run step by step by a test: begun and every
// shard exported, not frozen yet.
type steppedReshard struct {
	src, dst *shardView
	l        *lease
}

// exportedReshard begins a resharding of r to shards and exports every
// shard of it.
func exportedReshard(t *testing.T, r *Board, shards int) *steppedReshard {
	t.Helper()
	l := &lease{sb: r.sh, token: newToken()}
	src, dst, err := r.sh.beginReshard(t.Context(), shards, l)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range src.shards {
		if err := dst.exportShard(t.Context(), s, MigrateOptions{Batch: 50}, l); err != nil {
			t.Fatal(err)
		}
	}
	return &steppedReshard{src, dst, l}
}

// finish freezes the shards freeze (the others being frozen already),
// retires every shard and switches to the new ones; from any goroutine.
func (rs *steppedReshard) finish(t *testing.T, freeze []*Board) {
	ctx := t.Context()
	for _, s := range freeze {
		if err := rs.dst.freezeShard(ctx, s, 50, rs.l); err != nil {
			t.Error(err)
		}
	}
	for _, s := range rs.src.shards {
		if err := s.retire(ctx); err != nil {
			t.Error(err)
		}
	}
	if res, err := rs.l.call(ctx, "switch"); err != nil || res != "switched" {
		t.Error(res, err)
	}
}
