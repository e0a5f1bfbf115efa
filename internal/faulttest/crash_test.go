package faulttest

import (
	"context"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// crashWriters is how many goroutines write during a crash test: enough
// for calls to be in flight at the kill, few enough for 2 shared cores.
const crashWriters = 12

// A server that syncs its append-only file on every write (appendfsync
// always), killed with SIGKILL while 12 writers write through every
// package, loses no acknowledged write: after a restart on the same data
// directory, every board entry (values and member data, dense ranks
// consistent), timeline message, decimal map key and admitted request
// answered without error is there. Three rounds, each adding to the same
// objects. A start that truncates the file is followed by its rewrite, as
// docs/operating.md asks of operators (TestATransactionCutShortStaysGone
// shows why).
func TestCrashLosesNoAcknowledgedWrite(t *testing.T) {
	srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	l := newLedger()
	for round := range 3 {
		o := openObjects(t, client, "crash", 0)
		before := l.acked()
		load(o, l, crashWriters, round, func() {
			time.Sleep(time.Duration(300+100*round) * time.Millisecond)
			if err := srv.Crash(); err != nil {
				t.Fatal(err)
			}
		})
		if err := srv.Restart(); err != nil {
			t.Fatal(err)
		}
		waitLoaded(t, client)
		missing := lost(t, openObjects(t, client, "crash", 0), l)
		t.Logf("round %d: %d writes acknowledged before the kill (%d in all), %d calls failed; %d lost; starts that truncated the append-only file (then rewritten): %d",
			round, l.acked()-before, l.acked(), l.failed, len(missing), srv.Mends())
		if l.acked() == before {
			t.Fatalf("round %d: no write acknowledged before the kill: the test tests nothing (%d calls failed, the first with: %v)", round, l.failed, l.firstErr)
		}
		for _, m := range missing[:min(len(missing), 20)] {
			t.Errorf("round %d: lost: %s", round, m)
		}
	}
}

// waitLoaded waits until the server of client has loaded its data set
// (until then it answers LOADING).
func waitLoaded(t *testing.T, client rueidis.Client) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		info, err := redisops.Info(ctx, client, "persistence")
		cancel()
		if err == nil && info["loading"] == "0" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the restarted server is still loading its data after 30s")
}
