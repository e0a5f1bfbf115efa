package board

import (
	"context"
	"sync"
	"testing"

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
// shards: an OpAdd is applied once (the rank is 0).
func TestShardedWriteNotSentTwiceAcrossSwitch(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	hc := &hookClient{Client: env.Client}
	b := newSharded(t, hc, env.Prefix, "w", testLayout(t), Options{Shards: 3})
	r := newSharded(t, env.Client, env.Prefix, "w", testLayout(t), Options{Shards: 3})
	if _, err := b.Submit(ctx, Submission{ID: "x", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	l := &lease{sb: r.sh, token: newToken()}
	src, dst, err := r.sh.beginReshard(ctx, 4, l)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range src.shards {
		if err := dst.exportShard(ctx, s, MigrateOptions{Batch: 50}, l); err != nil {
			t.Fatal(err)
		}
	}
	fired := false
	hc.fn = func() { // between the write and its ranking: the rest of the resharding
		fired = true
		for _, s := range src.shards {
			if err := dst.freezeShard(ctx, s, 50, l); err != nil {
				t.Error(err)
			}
		}
		for _, s := range src.shards {
			if err := s.retire(ctx); err != nil {
				t.Error(err)
			}
		}
		if res, err := l.call(ctx, "switch"); err != nil || res != "switched" {
			t.Error(res, err)
		}
	}
	add := Submission{ID: "x", Values: []float64{1, 0, 1}, Policy: PerField, Ops: []Op{OpAdd, OpSet, OpSet}}
	res, err := b.Submit(ctx, add)
	if err != nil {
		t.Fatal(err)
	}
	if !fired {
		t.Fatal("hook did not fire")
	}
	if res.Entry.Values[0] != 2 {
		t.Fatalf("x after one OpAdd of 1 to 1: %v, want 2", res.Entry.Values)
	}
}
