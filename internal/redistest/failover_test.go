package redistest_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redisretry"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// failoverNodeTimeout is the cluster-node-timeout of the failover test: a
// replica takes over a few seconds after its master dies.
const failoverNodeTimeout = 2 * time.Second

// On 3 masters with a replica each, goroutines write and read every
// package's objects, two on each master, while one master is killed
// (SIGKILL) and its replica takes over. The objects of the other masters
// see no failed call; those of the dead master see calls fail, saying that
// Redis is unreachable or that the connection broke before the reply,
// until the replica has taken over, and succeed after.
// The test reports the time from the kill to the first acknowledged write
// on the dead master's objects, and from the take-over to it (the client's
// part), and the acknowledged writes lost (Redis
// replicates asynchronously: a write the master acknowledged and died
// before sending is lost, which only a write that waits for its replicas
// prevents; the other masters' objects lose none).
func TestFailoverUnderLoad(t *testing.T) {
	c, client := redistest.PrivateCluster(t, redistest.ClusterOptions{Masters: 3, Replicas: 1, NodeTimeout: failoverNodeTimeout})
	objs := hotObjects(t, client, "failover")
	spreadObjects(t, c, objs)
	victim := c.Addrs[0]
	// Objects 0 and 3, and a shard of the sharded board (its slots come
	// last, one on each master).
	onVictim := map[string]bool{objs[0].name: true, objs[3].name: true, objs[6].name: true}
	stop := make(chan struct{})
	var kill, over time.Time
	var err error
	go func() {
		defer close(stop)
		// The client reads the topology again at most a second after
		// a node redirects it (a MOVED from a slot's old owner): by
		// the kill, it knows where every object is.
		time.Sleep(2500 * time.Millisecond)
		kill = time.Now()
		if err = c.Kill(victim); err == nil {
			err = waitTakenOver(c, victim)
		}
		over = time.Now()
		time.Sleep(2 * time.Second) // the load goes on after the take-over
	}()
	tl := runLoad(objs, 2, stop)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the replica took over %v after the kill (as CLUSTER NODES shows it)", over.Sub(kill).Round(time.Millisecond))
	bystander := func(c call) bool { return !onVictim[c.obj] }
	for _, f := range tl.failed(bystander) {
		t.Errorf("%s on a master that stayed up (write %v), %v after the kill: %v", f.obj, f.write, f.start.Sub(kill), f.err)
	}
	t.Logf("objects on the masters that stayed up: %d calls, %d failed", tl.count(bystander), len(tl.failed(bystander)))
	for _, o := range objs {
		if onVictim[o.name] {
			reportVictim(t, tl, o, kill, over)
		}
	}
	for name, n := range lostWrites(t, objs) {
		switch {
		case onVictim[name]:
			t.Logf("%s (dead master): %d acknowledged writes lost", name, n)
		case n != 0:
			t.Errorf("%s (master stayed up): %d acknowledged writes lost", name, n)
		}
	}
}

// spreadObjects moves the slots of objs so that object i is on master
// i%3: two objects on each master. It returns once every node, replicas
// included, sees the new owners, so that the client's next reading of
// the topology, from whichever node, is right.
func spreadObjects(t *testing.T, c *redisserver.Cluster, objs []*object) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	owners := map[int]string{}
	for i, slot := range slotsOf(t, c, objs) {
		owners[slot] = c.Addrs[i%len(c.Addrs)]
		if err := c.MoveSlot(ctx, slot, owners[slot], redisserver.MoveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.WaitSlotOwners(ctx, owners); err != nil {
		t.Fatal(err)
	}
}

// waitTakenOver waits until the cluster has three masters again, none of
// them victim.
func waitTakenOver(c *redisserver.Cluster, victim string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		m, err := c.Masters(ctx)
		if err == nil && len(m) == 3 && !slices.Contains(m, victim) {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.Join(errors.New("no replica took over"), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// reportVictim checks the calls on o, whose master died at kill and whose
// replica was seen to take over at over: every failed call began before
// the first write acknowledged after the kill. It reports the times to that write, how long the failed
// calls took and the longest read and write (a read, which rueidis sends
// again itself after a connection error, does not fail: it waits).
func reportVictim(t *testing.T, tl *tally, o *object, kill, over time.Time) {
	t.Helper()
	first := time.Time{}
	for _, c := range tl.calls {
		if c.obj == o.name && c.write && c.err == nil && c.start.After(kill) && (first.IsZero() || c.end.Before(first)) {
			first = c.end
		}
	}
	if first.IsZero() {
		t.Errorf("%s (dead master): no write acknowledged after the kill", o.name)
		return
	}
	var slowest [2]time.Duration // a read, a write, failed or not
	for _, c := range tl.calls {
		if c.obj == o.name && c.end.After(kill) {
			k := 0
			if c.write {
				k = 1
			}
			slowest[k] = max(slowest[k], c.end.Sub(c.start))
		}
	}
	failed := tl.failed(func(c call) bool { return c.obj == o.name })
	var longest time.Duration
	kinds := map[error]int{}
	for _, f := range failed {
		longest = max(longest, f.end.Sub(f.start))
		if !f.start.Before(first) {
			t.Errorf("%s (dead master): a call failed %v after the first write acknowledged after the kill: %v", o.name, f.start.Sub(first), f.err)
		}
		switch {
		case errors.Is(f.err, redisretry.ErrUnreachable):
			kinds[redisretry.ErrUnreachable]++
		case errors.Is(f.err, redisretry.ErrNoReply):
			kinds[redisretry.ErrNoReply]++
		default:
			t.Errorf("%s (dead master): a call failed with neither ErrUnreachable nor ErrNoReply: %v", o.name, f.err)
		}
	}
	t.Logf("%s (dead master): first write acknowledged %v after the kill, %v after the take-over; meanwhile %d calls failed (%d unreachable, %d no reply), the longest in %v; the longest read %v, write %v",
		o.name, first.Sub(kill).Round(time.Millisecond), first.Sub(over).Round(time.Millisecond), len(failed), kinds[redisretry.ErrUnreachable], kinds[redisretry.ErrNoReply], longest.Round(time.Microsecond), slowest[0].Round(time.Millisecond), slowest[1].Round(time.Millisecond))
}
