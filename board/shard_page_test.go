package board

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"testing"

	"github.com/redis/rueidis"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// countingClient counts round trips: Do and DoMulti calls.
type countingClient struct {
	rueidis.Client
	n atomic.Int64
}

func (c *countingClient) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	c.n.Add(1)
	return c.Client.Do(ctx, cmd)
}

func (c *countingClient) DoMulti(ctx context.Context, cmds ...rueidis.Completed) []rueidis.RedisResult {
	c.n.Add(1)
	return c.Client.DoMulti(ctx, cmds...)
}

// A deep page reads about n + sqrt(offset*S) entries in its second round
// trip, and a page at or past the end none: it answers an empty list from
// the samples' sizes.
func TestShardedDeepPagePastEnd(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	calls := &countingClient{Client: env.Client}
	b := newSharded(t, calls, env.Prefix, "d", testLayout(t), Options{Shards: 4})
	const total = 40000
	subs := make([]Submission, total)
	for i := range subs {
		subs[i] = Submission{ID: fmt.Sprint("e", i), Values: []float64{float64(i % 1000), 0, float64(i % 7)}}
	}
	loadAll(t, b, subs)
	v := b.sh.view.Load()
	for _, k := range []int64{1000, 20000, 39990, 40000, 41000, 80000, 1 << 40} {
		before := calls.n.Load()
		l, err := b.Page(ctx, k, 10, WithTotal())
		if err != nil {
			t.Fatal(err)
		}
		if k >= total {
			if rt := calls.n.Load() - before; len(l.Entries) != 0 || l.Total != total || rt != 1 {
				t.Fatalf("Page(%d, 10) past the end: %d entries of %d in %d round trips, want none of %d in 1", k, len(l.Entries), l.Total, rt, total)
			}
			continue
		}
		c := readConfig{}
		at := samplePositions(k, 10, 4)
		ss, err := v.sample(ctx, "Page", pos{}, pos{}, at)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, loBelow := pageBounds(ss, k, 10)
		anchor := pos{}
		if lo.set {
			anchor = lo
		}
		m, err := v.runs(ctx, "Page", anchor, 0, k+10-loBelow, hi, c)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("offset %d: %d samples per shard, the second round trip reads %d entries", k, len(at), len(m.entries))
		if bound := 10 + 4*math.Sqrt(float64(k*4)) + 50; float64(len(m.entries)) > bound || len(l.Entries) != 10 {
			t.Fatalf("Page(%d, 10): %d entries, the second round trip reads %d; want 10, at most %.0f", k, len(l.Entries), len(m.entries), bound)
		}
	}
}
