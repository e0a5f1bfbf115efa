package durable_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// testCtx returns a context that ends with the test or after a minute.
func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// dial connects to the single server on addr, closed when t ends.
func dial(t *testing.T, addr string) rueidis.Client {
	t.Helper()
	c, err := redisserver.DialNode(addr)
	if err != nil {
		t.Fatalf("connect to %s: %v", addr, err)
	}
	t.Cleanup(c.Close)
	return c
}

// set is a write of value at key through durable.Write.
func set(ctx context.Context, c rueidis.Client, w durable.Wait, key, value string) (string, error) {
	return durable.Write(ctx, c, w, "test: set", func(c rueidis.Client) (string, error) {
		return c.Do(ctx, c.B().Set().Key(key).Value(value).Build()).ToString()
	})
}

// get returns the value at key on c ("" when absent).
func get(t *testing.T, c rueidis.Client, key string) string {
	t.Helper()
	v, err := c.Do(testCtx(t), c.B().Get().Key(key).Build()).ToString()
	if err != nil && !rueidis.IsRedisNil(err) {
		t.Fatalf("GET %s: %v", key, err)
	}
	return v
}

// A write acknowledged with Replicas 1 is on the replica when Write
// returns: the replica acknowledged having applied it.
func TestWriteWaitsForReplica(t *testing.T) {
	_, replica, c := redistest.PrivateReplicated(t)
	rc := dial(t, replica.Addr)
	ctx := testCtx(t)
	w := durable.Wait{Replicas: 1, Timeout: 10 * time.Second}
	for i := range 100 {
		v := strconv.Itoa(i)
		reply, err := set(ctx, c, w, "k"+strconv.Itoa(i%7), v)
		if err != nil || reply != "OK" {
			t.Fatalf("write %d: %q, %v; want OK, nil", i, reply, err)
		}
		if got := get(t, rc, "k"+strconv.Itoa(i%7)); got != v {
			t.Fatalf("write %d acknowledged, but the replica holds %q, want %q", i, got, v)
		}
	}
}

// WAIT follows the write on the write's own connection: while the
// replica sleeps, it cannot acknowledge the new write, so the write falls
// short (a WAIT on another connection, which wrote nothing, would count
// the replica at once).
func TestWriteWaitsOnItsOwnConnection(t *testing.T) {
	master, replica, c := redistest.PrivateReplicated(t, "--enable-debug-command", "local")
	rc := dial(t, replica.Addr)
	ctx := testCtx(t)
	w := durable.Wait{Replicas: 1, Timeout: 100 * time.Millisecond}
	if _, err := set(ctx, c, w, "before", "1"); err != nil {
		t.Fatalf("write before the replica sleeps: %v", err)
	}
	slept := make(chan error, 1)
	go func() { slept <- rc.Do(ctx, rc.B().Arbitrary("DEBUG", "SLEEP").Args("1").Build()).Error() }()
	time.Sleep(100 * time.Millisecond) // let DEBUG SLEEP start
	reply, err := set(ctx, c, w, "during", "2")
	if !errors.Is(err, durable.ErrNotReplicated) || reply != "OK" {
		t.Fatalf("write while the replica sleeps: %q, %v; want OK and ErrNotReplicated", reply, err)
	}
	if !strings.Contains(err.Error(), "0 of 1 replicas") || !strings.HasPrefix(err.Error(), "test: set: ") {
		t.Errorf("error %q does not say 0 of 1 replicas, after the op's name", err)
	}
	if got := get(t, dial(t, master.Addr), "during"); got != "2" {
		t.Errorf("the master holds %q, want the write applied (2)", got)
	}
	if err := <-slept; err != nil {
		t.Fatalf("DEBUG SLEEP: %v", err)
	}
}

// Asking for more replicas than there are returns the write's reply and
// an error wrapping ErrNotReplicated that says how many acknowledged it;
// the master holds the write.
func TestWriteTooFewReplicas(t *testing.T) {
	master, _, c := redistest.PrivateReplicated(t)
	ctx := testCtx(t)
	reply, err := set(ctx, c, durable.Wait{Replicas: 2, Timeout: 20 * time.Millisecond}, "k", "v")
	if !errors.Is(err, durable.ErrNotReplicated) || reply != "OK" {
		t.Fatalf("write waiting for 2 of 1 replicas: %q, %v; want OK and ErrNotReplicated", reply, err)
	}
	if !strings.Contains(err.Error(), "1 of 2 replicas") || !strings.Contains(err.Error(), "applied on the master") {
		t.Errorf("error %q does not say 1 of 2 replicas and that the master applied it", err)
	}
	if got := get(t, dial(t, master.Addr), "k"); got != "v" {
		t.Errorf("the master holds %q, want v", got)
	}
}

// With its replica down, a write falls short; once a replica is back it
// is acknowledged again.
func TestWriteReplicaDown(t *testing.T) {
	master, replica, c := redistest.PrivateReplicated(t)
	ctx := testCtx(t)
	w := durable.Wait{Replicas: 1, Timeout: 50 * time.Millisecond}
	if err := replica.Crash(); err != nil {
		t.Fatal(err)
	}
	if _, err := set(ctx, c, w, "k", "1"); !errors.Is(err, durable.ErrNotReplicated) {
		t.Fatalf("write with the replica down: %v, want ErrNotReplicated", err)
	}
	if err := replica.Restart(); err != nil {
		t.Fatal(err)
	}
	if err := redisserver.WaitReplicated(master.Addr, replica.Addr); err != nil {
		t.Fatal(err)
	}
	if _, err := set(ctx, c, durable.Wait{Replicas: 1, Timeout: 10 * time.Second}, "k", "2"); err != nil {
		t.Fatalf("write with the replica back: %v", err)
	}
}

// A write that fails returns its own error, not a replication error: it
// wrote nothing to wait for.
func TestWriteFailedIsNotWaited(t *testing.T) {
	_, _, c := redistest.PrivateReplicated(t)
	ctx := testCtx(t)
	if _, err := set(ctx, c, durable.Wait{}, "s", "not a number"); err != nil {
		t.Fatal(err)
	}
	_, err := durable.Write(ctx, c, durable.Wait{Replicas: 2, Timeout: time.Millisecond}, "test: incr", func(c rueidis.Client) (int64, error) {
		return c.Do(ctx, c.B().Incr().Key("s").Build()).AsInt64()
	})
	if _, ok := rueidis.IsRedisErr(err); !ok || errors.Is(err, durable.ErrNotReplicated) {
		t.Fatalf("failed write: %v, want its Redis error alone", err)
	}
}

// Without Replicas no WAIT is sent; with it, one WAIT follows every
// command or pipeline a write sends.
func TestWriteSendsOneWaitPerRoundTrip(t *testing.T) {
	srv, _, c := redistest.PrivateReplicated(t)
	ctx := testCtx(t)
	waits := func() int64 {
		calls, err := redisops.CommandCalls(ctx, dial(t, srv.Addr))
		if err != nil {
			t.Fatal(err)
		}
		return calls["wait"]
	}
	pipeline := func(w durable.Wait) {
		_, err := durable.Write(ctx, c, w, "test: pipeline", func(c rueidis.Client) (int, error) {
			cmds := rueidis.Commands{c.B().Set().Key("a").Value("1").Build(), c.B().Incr().Key("n").Build()}
			for _, r := range c.DoMulti(ctx, cmds...) {
				if err := r.Error(); err != nil {
					return 0, err
				}
			}
			return 0, c.Do(ctx, c.B().Set().Key("b").Value("2").Build()).Error()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	pipeline(durable.Wait{})
	if n := waits(); n != 0 {
		t.Errorf("without Replicas: %d WAIT calls, want 0", n)
	}
	pipeline(durable.Wait{Replicas: 1, Timeout: 10 * time.Second})
	if n := waits(); n != 2 {
		t.Errorf("a pipeline then a command with Replicas 1: %d WAIT calls, want 2", n)
	}
}

func TestWaitWithDefaults(t *testing.T) {
	for _, tc := range []struct {
		in   durable.Wait
		want time.Duration
		bad  string
	}{
		{durable.Wait{}, durable.DefaultTimeout, ""},
		{durable.Wait{Replicas: 1, Timeout: time.Millisecond}, time.Millisecond, ""},
		{durable.Wait{Replicas: durable.MaxReplicas, Timeout: durable.MaxTimeout}, durable.MaxTimeout, ""},
		{durable.Wait{Replicas: -1}, 0, "WaitReplicas = -1 out of range [0, 64]"},
		{durable.Wait{Replicas: durable.MaxReplicas + 1}, 0, "WaitReplicas = 65 out of range [0, 64]"},
		{durable.Wait{Timeout: -time.Second}, 0, "WaitTimeout = -1s out of range [0, 1m0s]"},
		{durable.Wait{Timeout: durable.MaxTimeout + 1}, 0, "WaitTimeout = 1m0.000000001s out of range [0, 1m0s]"},
	} {
		got, bad := tc.in.WithDefaults()
		if bad != tc.bad || (bad == "" && got.Timeout != tc.want) {
			t.Errorf("%+v.WithDefaults() = %+v, %q; want timeout %v, %q", tc.in, got, bad, tc.want, tc.bad)
		}
	}
}

// On a cluster, a write's WAIT goes to the master of the write's keys (one
// connection pinned to their slot): the masters here have no replicas, so
// each write, to keys of any slot, is applied and counts 0 of 1.
func TestWriteOnCluster(t *testing.T) {
	env := redistest.NewCluster(t, 3)
	ctx := testCtx(t)
	w := durable.Wait{Replicas: 1, Timeout: time.Millisecond}
	for i := range 12 {
		tag := "{" + env.Prefix + strconv.Itoa(i) + "}"
		n, err := durable.Write(ctx, env.Client, w, "test: pipeline", func(c rueidis.Client) (int64, error) {
			res := c.DoMulti(ctx, c.B().Set().Key(tag+"a").Value("1").Build(), c.B().Incr().Key(tag+"n").Build())
			return res[1].AsInt64()
		})
		if !errors.Is(err, durable.ErrNotReplicated) || !strings.Contains(err.Error(), "0 of 1 replicas") || n != 1 {
			t.Fatalf("write to %s: %d, %v; want 1 and ErrNotReplicated (0 of 1 replicas)", tag, n, err)
		}
		if got := get(t, env.Client, tag+"a"); got != "1" {
			t.Errorf("%sa = %q, want 1", tag, got)
		}
	}
}
