package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// testCluster seeds objects of every kind over the slots of a three-master
// cluster and reads them through one node's address.
func testCluster(t *testing.T, bin string) {
	env := redistest.NewCluster(t, 3)
	c := &cli{t: t, bin: bin, url: "redis://" + env.Addrs[0], env: withoutRedisURL()}
	ctx := context.Background()
	var want []object
	for i := range 6 { // six names: their hash tags land on every master
		name := fmt.Sprintf("%s_%d", env.Prefix, i)
		seedArena(t, ctx, env.Client, name+"_board", board.Options{DenseRanks: i%2 == 0})
		seedTimeline(t, ctx, env.Client, name+"_room", tsid.ULID, timeline.SplitScore, 12, ulidAt)
		seedMap(t, ctx, env.Client, name+"_map")
		seedLimiter(t, ctx, env.Client, name+"_user", ratelimit.PerHour(100), i+1)
		eight := int64(8)
		want = append(want,
			object{Kind: kindBoard, Name: name + "_board", Key: "tb:{" + name + "_board}:meta", Size: 5, Unit: "entries", Detail: "PackedScore"},
			object{Kind: kindTimeline, Name: name + "_room", Key: "tl:{" + name + "_room}:z", Size: 12, Unit: "messages"},
			object{Kind: kindMap, Name: name + "_map", Key: "dm:{" + name + "_map}:k", Size: 6, Unit: "keys", Values: &eight, Detail: "8 values"},
			object{Kind: kindLimiter, Name: name + "_user", Key: "rl:{" + name + "_user}", Size: int64(i + 1), Unit: "requests"})
	}
	for i := range want { // the slot the cluster serves each object from
		slot, err := env.Client.Do(ctx, env.Client.B().ClusterKeyslot().Key(want[i].Key).Build()).AsInt64()
		if err != nil {
			t.Fatal(err)
		}
		want[i].Slot = int(slot)
	}
	var got []object
	c.json(&got, "list", "--cluster", "--prefix", env.Prefix)
	for i := range got {
		if got[i].Kind == kindLimiter {
			got[i].Detail = "" // "expires in ..."
		}
	}
	order := cmpopts.SortSlices(func(a, b object) bool { return a.Key < b.Key })
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(object{}), order); diff != "" {
		t.Errorf("list --cluster (-want +got):\n%s", diff)
	}
	for i := range 6 {
		name := fmt.Sprintf("%s_%d", env.Prefix, i)
		var top entriesOut
		c.json(&top, "board", "top", name+"_board", "--cluster")
		if len(top.Entries) != 5 || top.Entries[2].ID != "dee" || top.Entries[2].Competition != 2 {
			t.Errorf("board top %s on the cluster: %+v", name, top)
		}
		var page pageOut
		c.json(&page, "timeline", "latest", name+"_room", "--layout", "ULID", "-n", "3")
		if len(page.Messages) != 3 || *page.Payload(0) != "message 11" || page.Strategy != "SplitScore" {
			t.Errorf("timeline latest %s on the cluster: %+v", name, page)
		}
		var r rangeOut
		c.json(&r, "map", "range", name+"_map", "--min", "0")
		if len(r.Entries) != 5 {
			t.Errorf("map range %s on the cluster: %+v", name, r)
		}
		var l limiterOut
		c.json(&l, "limiter", "get", name+"_user", "--window", "1h")
		if l.Count != int64(i+1) {
			t.Errorf("limiter get %s on the cluster: count %d, want %d", name, l.Count, i+1)
		}
	}
}

// Payload returns the text of message i's payload.
func (p pageOut) Payload(i int) *string { return p.Messages[i].Payload.Text }
