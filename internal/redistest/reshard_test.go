package redistest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// While an operator moves the slots of hot objects between masters, by
// hand, again and again (CLUSTER SETSLOT IMPORTING and MIGRATING, MIGRATE
// one key at a time so that each object's keys are split between two
// masters for a while, SETSLOT NODE), goroutines write and read every
// package's objects: no call fails, and every write Redis acknowledged is
// there afterwards.
func TestReshardingUnderLoad(t *testing.T) {
	c, client := redistest.PrivateCluster(t, redistest.ClusterOptions{Masters: 3})
	objs := hotObjects(t, client, "reshard")
	slots := slotsOf(t, c, objs)
	const rounds, writers = 3, 4
	stop := make(chan struct{})
	moved := make(chan error, 1)
	go func() {
		defer close(stop)
		moved <- moveAround(c, slots, rounds)
	}()
	tl := runLoad(objs, writers, stop)
	if err := <-moved; err != nil {
		t.Fatalf("moving the slots: %v", err)
	}
	all := func(call) bool { return true }
	failed := tl.failed(all)
	t.Logf("%d calls while the slots of %d objects moved %d times each; %d failed", tl.count(all), len(objs), rounds, len(failed))
	for i, f := range failed {
		if i == 10 {
			t.Errorf("... and %d more", len(failed)-10)
			break
		}
		t.Errorf("%s (write %v): %v", f.obj, f.write, f.err)
	}
	lost := lostWrites(t, objs)
	for _, o := range objs {
		mine := func(c call) bool { return c.obj == o.name }
		t.Logf("%s: %d calls, %d failed, %d writes acknowledged, %d of them lost", o.name, tl.count(mine), len(tl.failed(mine)), o.acked(), lost[o.name])
		if lost[o.name] != 0 {
			t.Errorf("%s: %d acknowledged writes lost", o.name, lost[o.name])
		}
	}
}

// moveAround moves every slot to another master, rounds times, one key
// per MIGRATE with a pause after each, with a pause between two slots'
// moves so that the load runs on a settled cluster too.
func moveAround(c *redisserver.Cluster, slots []int, rounds int) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	time.Sleep(300 * time.Millisecond) // the load starts on a settled cluster
	for r := range rounds {
		for i, slot := range slots {
			from, err := c.SlotOwner(ctx, slot)
			if err != nil {
				return err
			}
			to := c.Addrs[(slices.Index(c.Addrs, from)+1+(i+r)%2)%len(c.Addrs)]
			if err := c.MoveSlot(ctx, slot, to, redisserver.MoveOptions{Batch: 1, Pause: 20 * time.Millisecond}); err != nil {
				return err
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	time.Sleep(300 * time.Millisecond)
	return nil
}
