package faulttest

import (
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// failoverWriters is how many goroutines write during a failover test.
const failoverWriters = 12

// ackWait bounds how long a failover test waits for a first acknowledged
// write before it kills the master.
const ackWait = 10 * time.Second

// failover writes through every package to a master with one replica,
// its writes waiting for replicas replicas, kills the master (SIGKILL)
// under load, promotes the replica (REPLICAOF NO ONE) and returns the
// acknowledged writes the promoted replica lacks, and how many there
// were.
func failover(t *testing.T, replicas int) (missing []string, acked int) {
	master, replica, client := redistest.PrivateReplicated(t)
	l := newLedger()
	load(openObjects(t, client, "failover", replicas), l, failoverWriters, 0, func() {
		time.Sleep(500 * time.Millisecond)
		// On a loaded machine a replica may be slow to acknowledge the
		// first writes (each waits up to WaitTimeout, a second): kill
		// once some write is acknowledged, so that the test tests
		// something, or after ackWait (the check below then fails).
		for deadline := time.Now().Add(ackWait); l.acked() == 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if err := master.Crash(); err != nil {
			t.Fatal(err)
		}
	})
	if err := redisserver.Promote(replica.Addr); err != nil {
		t.Fatal(err)
	}
	promoted, err := redisserver.Dial(replica.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer promoted.Close()
	if l.acked() == 0 {
		t.Fatalf("no write acknowledged before the kill: the test tests nothing (%d calls failed, the first with: %v)", l.failed, l.firstErr)
	}
	return lost(t, openObjects(t, promoted, "failover", 0), l), l.acked()
}

// With Options.WaitReplicas 1 in every package, every write acknowledged
// before the master was killed is on the promoted replica.
func TestFailoverWithWaitLosesNoAcknowledgedWrite(t *testing.T) {
	missing, acked := failover(t, 1)
	t.Logf("waiting for 1 replica: %d writes acknowledged, %d lost", acked, len(missing))
	for _, m := range missing[:min(len(missing), 20)] {
		t.Errorf("lost: %s", m)
	}
}

// Without waiting, replication is asynchronous: the writes the master
// acknowledged but had not sent to its replica when it died are lost
// (on loopback, usually none). The test reports how many.
func TestFailoverWithoutWait(t *testing.T) {
	missing, acked := failover(t, 0)
	t.Logf("not waiting: %d writes acknowledged, %d lost", acked, len(missing))
	for _, m := range missing[:min(len(missing), 5)] {
		t.Logf("lost: %s", m)
	}
}
