package redisretry_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisretry"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A dedicated connection whose slot moved to another master gets MOVED
// (rueidis follows it only on its shared connections): Dedicated sends the
// commands again on a connection to the new master, each running once, the
// command after them (a WAIT) following them there.
func TestDedicatedFollowsMovedSlot(t *testing.T) {
	c, raw := redistest.PrivateCluster(t, redistest.ClusterOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	key := "{moving}:n"
	moves := 0 // connections given back by the last incr
	incr := func() (int64, int64, error) {
		d := redisretry.Dedicate(raw)
		defer d.Release()
		res, wait := d.DoMulti(ctx, raw.B().Wait().Numreplicas(0).Timeout(1).Build(), raw.B().Incr().Key(key).Build())
		n, err := res[0].AsInt64()
		w, werr := wait.AsInt64()
		moves = len(d.Earlier())
		return n, w, errors.Join(err, werr)
	}
	if n, _, err := incr(); err != nil || n != 1 || moves != 0 {
		t.Fatalf("INCR before the move: %d (%d connections given back), %v", n, moves, err)
	}
	if err := c.MoveKeyAway(ctx, key, redisserver.MoveOptions{}); err != nil {
		t.Fatal(err)
	}
	// The first INCR meets MOVED on the old master; the client has not
	// learned of the move yet.
	if n, w, err := incr(); err != nil || n != 2 || w != 0 || moves < 1 {
		t.Fatalf("INCR after the move: %d (WAIT %d, %d connections given back), %v; want 2, run once, the old connection's WAIT kept", n, w, moves, err)
	}
	if v, err := raw.Do(ctx, raw.B().Get().Key(key).Build()).ToString(); err != nil || v != "2" {
		t.Fatalf("the key after two INCRs: %q, %v", v, err)
	}
}

// A server still loading its data after a restart answers LOADING and
// runs nothing: Dedicated sends the commands again until it has loaded.
// A connection lost before the reply is explained (ErrNoReply), not sent
// again.
func TestDedicatedWaitsOutLoading(t *testing.T) {
	// 0.2 ms a key loaded from the RDB file, answering clients every KB
	srv, raw := redistest.Private(t, "--key-load-delay", "200", "--loading-process-events-interval-bytes", "1024")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sets := make(rueidis.Commands, 5000)
	for i := range sets {
		sets[i] = raw.B().Set().Key(fmt.Sprint("k", i)).Value("v").Build()
	}
	for _, r := range raw.DoMulti(ctx, sets...) {
		if err := r.Error(); err != nil {
			t.Fatal(err)
		}
	}
	if err := raw.Do(ctx, raw.B().Save().Build()).Error(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	incr := func() (int64, error) {
		d := redisretry.Dedicate(raw)
		defer d.Release()
		res, _ := d.DoMulti(ctx, raw.B().Wait().Numreplicas(0).Timeout(1).Build(), raw.B().Incr().Key("n").Build())
		return res[0].AsInt64()
	}
	n, err := incr()
	for errors.Is(err, redisretry.ErrNoReply) { // the connection of before the restart
		n, err = incr()
	}
	if err != nil || n != 1 {
		t.Fatalf("INCR while loading: %d, %v; want 1", n, err)
	}
	if v, err := raw.Do(ctx, raw.B().Get().Key("k4999").Build()).ToString(); err != nil || v != "v" {
		t.Fatalf("a key of before the restart: %q, %v", v, err)
	}
}
