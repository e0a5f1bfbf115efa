package board

import (
	"context"
	"fmt"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A resharding's drain before the freeze ends even when writers dirty ids
// as fast as its steps drain them: it drains at most what the dirty set
// held when it began, then the frozen shard's drain takes the rest. Here
// every copy and drain step is followed by a batch of writes (through
// another handle) to the exporting shard, so that every step finds a full
// batch; nothing acknowledged is lost.
func TestReshardDrainEndsUnderWrites(t *testing.T) {
	env := redistest.New(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	const ids, batch = 500, 20
	b := newSharded(t, env.Client, env.Prefix, "drain", testLayout(t), Options{Shards: 1})
	w := newSharded(t, env.Client, env.Prefix, "drain", testLayout(t), Options{Shards: 1})
	last := map[string]float64{}
	subs := make([]Submission, ids)
	for i := range subs {
		subs[i] = Submission{ID: fmt.Sprintf("p%03d", i), Values: []float64{1, 0, 0}}
		last[subs[i].ID] = 1
	}
	loadAll(t, b, subs)
	next := 0 // writes made
	frozen, drains := false, 0
	faultPoint = func(op, step string) {
		if op != "Reshard" {
			return
		}
		switch step {
		case "freeze":
			frozen = true
		case "drain":
			if !frozen {
				drains++
			}
		}
		if frozen || (step != "copy" && step != "drain") {
			return
		}
		if drains > 1000 {
			cancel() // the drain would go on forever
			return
		}
		for range batch {
			id, value := fmt.Sprintf("p%03d", next%ids), float64(2+next%1000)
			if _, err := w.Submit(ctx, Submission{ID: id, Values: []float64{value, 0, 0}}); err != nil {
				t.Errorf("Submit %s during the resharding: %v", id, err)
				return
			}
			last[id], next = value, next+1
		}
	}
	defer func() { faultPoint = nil }()
	_, err := b.Reshard(ctx, 3, MigrateOptions{Batch: batch})
	faultPoint = nil
	if err != nil {
		t.Fatalf("Reshard under writes after %d drain steps before the freeze: %v", drains, err)
	}
	t.Logf("%d drain steps before the freeze, %d writes", drains, next)
	for id, v := range last {
		e, err := b.Get(ctx, id)
		if err != nil || e.Values[0] != v {
			t.Errorf("%s after the resharding: %+v, %v; want points %v", id, e, err, v)
		}
	}
}
