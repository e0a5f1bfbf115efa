package redisretry_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisretry"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// While a slot is half moved (one of an object's two keys on each master),
// Redis refuses a script and a MULTI/EXEC on both keys with TRYAGAIN and
// runs neither: the client given gets the error, the wrapped client waits
// until the move ends and gets the answer, each write having run once. So
// do DoBuilt and DoMultiBuilt, building the commands again for each send.
func TestTryAgainIsSentAgain(t *testing.T) {
	c, raw := redistest.PrivateCluster(t, redistest.ClusterOptions{})
	wrapped := redisretry.Wrap(raw)
	ctx := context.Background()
	a, b := "{obj}:a", "{obj}:b"
	for _, k := range []string{a, b} {
		if err := raw.Do(ctx, raw.B().Set().Key(k).Value("0").Build()).Error(); err != nil {
			t.Fatal(err)
		}
	}
	const incrSrc = "redis.call('INCR', KEYS[1]) return redis.call('INCR', KEYS[2])"
	incr := rueidis.NewLuaScript(incrSrc)
	tx4 := func(c rueidis.Client) rueidis.Commands {
		return rueidis.Commands{c.B().Multi().Build(), c.B().Incr().Key(a).Build(), c.B().Incr().Key(b).Build(), c.B().Exec().Build()}
	}
	tx := func(c rueidis.Client) []rueidis.RedisResult { return c.DoMulti(ctx, tx4(c)...) }
	var got []any
	done := make(chan []any)
	half := func([]string) {
		if got != nil {
			return
		}
		got = append(got, tryAgain(incr.Exec(ctx, raw, []string{a, b}, nil).Error()), tryAgain(tx(raw)[3].Error()))
		// Four writers at once: the wrapped client's script and MULTI/EXEC,
		// and the same through the builders from the client given, each
		// send building its commands again.
		calls := []func() []any{
			func() []any {
				n, err := incr.Exec(ctx, wrapped, []string{a, b}, nil).AsInt64()
				return []any{n >= 1, err}
			},
			func() []any {
				m, err := tx(wrapped)[3].ToArray()
				return []any{len(m), err}
			},
			func() []any {
				builds := 0
				n, err := redisretry.DoBuilt(ctx, raw, func() rueidis.Completed {
					builds++
					return raw.B().Eval().Script(incrSrc).Numkeys(2).Key(a, b).Build()
				}).AsInt64()
				return []any{n >= 1, err, builds > 1}
			},
			func() []any {
				builds := 0
				res := redisretry.DoMultiBuilt(ctx, raw, func() rueidis.Commands {
					builds++
					return tx4(raw)
				})
				m, err := res[3].ToArray()
				return []any{len(m), err, builds > 1}
			},
		}
		go func() {
			out := make([][]any, len(calls))
			var wg sync.WaitGroup
			for i, call := range calls {
				wg.Go(func() { out[i] = call() })
			}
			wg.Wait()
			done <- slices.Concat(out...)
		}()
		time.Sleep(200 * time.Millisecond) // the wrapped client and the builders are refused meanwhile
	}
	if err := c.MoveKeyAway(ctx, a, redisserver.MoveOptions{Batch: 1, AfterMigrate: half}); err != nil {
		t.Fatal(err)
	}
	got = append(got, <-done...)
	vals, err := raw.Do(ctx, raw.B().Mget().Key(a, b).Build()).AsStrSlice()
	got = append(got, vals, err)
	want := []any{true, true, true, nil, 2, nil, true, nil, true, 2, nil, true, []string{"4", "4"}, nil}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(x, y error) bool { return errors.Is(x, y) })); diff != "" {
		t.Errorf("TRYAGAIN from the client given, script and MULTI/EXEC; the wrapped client's script reply and error, EXEC's length and error; "+
			"the same through DoBuilt and DoMultiBuilt, and whether each built again; the keys afterwards (-want +got):\n%s", diff)
	}
}

func tryAgain(err error) bool {
	e, ok := rueidis.IsRedisErr(err)
	return ok && e.IsTryAgain()
}

// A write whose connection breaks before the reply is not sent again (it
// may have run): its error is ErrNoReply. Here the server held the write
// (CLIENT PAUSE WRITE) and dropped the connection (CLIENT KILL), so the
// write did not run, and nothing ran it later. A server that cannot be
// reached gives ErrUnreachable.
func TestConnectionErrorsAreNotSentAgain(t *testing.T) {
	srv, admin := redistest.Private(t)
	c, err := redisserver.Dial(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	wrapped := redisretry.Wrap(c)
	ctx := context.Background()
	if err := wrapped.Do(ctx, wrapped.B().Ping().Build()).Error(); err != nil {
		t.Fatal(err)
	}
	do := func(cmd ...string) error { return admin.Do(ctx, admin.B().Arbitrary(cmd...).Build()).Error() }
	if err := do("CLIENT", "PAUSE", "5000", "WRITE"); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error)
	go func() { errc <- wrapped.Do(ctx, wrapped.B().Incr().Key("n").Build()).Error() }()
	time.Sleep(200 * time.Millisecond) // the INCR waits in the server
	if err := do("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"); err != nil {
		t.Fatal(err)
	}
	incrErr := <-errc
	if err := do("CLIENT", "UNPAUSE"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	n, getErr := admin.Do(ctx, admin.B().Get().Key("n").Build()).ToString()
	if !errors.Is(incrErr, redisretry.ErrNoReply) || !rueidis.IsRedisNil(getErr) {
		t.Errorf("INCR on a dropped connection: %v, then GET n = %q, %v; want ErrNoReply and no n", incrErr, n, getErr)
	}
	srv.Close()
	// Each INCR may find a connection closed under it (no reply) or dial
	// and be refused (unreachable), in either order as rueidis reconnects;
	// neither is ever sent again, and each says which it was.
	for i := 0; i < 2; i++ {
		err := wrapped.Do(ctx, wrapped.B().Incr().Key("n").Build()).Error()
		if !errors.Is(err, redisretry.ErrNoReply) && !errors.Is(err, redisretry.ErrUnreachable) {
			t.Errorf("INCR %d on a server that is gone: %v; want ErrNoReply or ErrUnreachable", i+1, err)
		}
	}
}

// A slot that no node serves in the client's map of the cluster makes
// rueidis send nothing and answer rueidis.ErrNoSlot: what Redis 8 and
// Valkey 8 (whose CLUSTER SHARDS lists no node for a failed master's
// slots) give for a dead master's objects until a replica takes over.
// Here every master forgets the slot (CLUSTER DELSLOTS), which every
// engine reports so. The wrapped client says that Redis was unreachable
// and nothing was sent, for a command, a pipeline and a script.
func TestNoSlotIsUnreachable(t *testing.T) {
	c, raw := redistest.PrivateCluster(t, redistest.ClusterOptions{})
	wrapped := redisretry.Wrap(raw)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const key = "{noslot}:k"
	if err := wrapped.Do(ctx, wrapped.B().Set().Key(key).Value("1").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	slot, err := c.SlotOf(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range c.Addrs {
		node, err := redisserver.DialNode(addr)
		if err != nil {
			t.Fatal(err)
		}
		err = node.Do(ctx, node.B().ClusterDelslots().Slot(int64(slot)).Build()).Error()
		node.Close()
		if err != nil {
			t.Fatalf("CLUSTER DELSLOTS %d on %s: %v", slot, addr, err)
		}
	}
	// The node that served the slot refuses the first sends (CLUSTERDOWN,
	// sent again) until rueidis has read the cluster's new map, in which
	// the slot has no node.
	set := func() rueidis.Completed { return wrapped.B().Set().Key(key).Value("2").Build() }
	errs := map[string]error{"Do": wrapped.Do(ctx, set()).Error()}
	for i, r := range wrapped.DoMulti(ctx, set(), wrapped.B().Get().Key(key).Build()) {
		errs[fmt.Sprintf("DoMulti %d", i)] = r.Error()
	}
	errs["DoBuilt"] = redisretry.DoBuilt(ctx, raw, set).Error()
	errs["script"] = rueidis.NewLuaScript("return redis.call('SET', KEYS[1], '3')").Exec(ctx, wrapped, []string{key}, nil).Error()
	for name, err := range errs {
		if !errors.Is(err, redisretry.ErrUnreachable) || !errors.Is(err, rueidis.ErrNoSlot) {
			t.Errorf("%s on a slot no node serves: %v; want ErrUnreachable wrapping rueidis.ErrNoSlot", name, err)
		}
	}
}

// A MULTI/EXEC of reads sent by DoReadMulti waits for a server that is
// down, as rueidis makes a read-only command wait, and answers once the
// server is back; with a deadline, it ends by it.
func TestReadMultiWaitsForTheServer(t *testing.T) {
	srv, c := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	ctx := context.Background()
	if err := c.Do(ctx, c.B().Set().Key("k").Value("v").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	read := func(ctx context.Context) (string, error) {
		res := redisretry.DoReadMulti(ctx, c, func() rueidis.Commands {
			return rueidis.Commands{c.B().Multi().Build(), c.B().Get().Key("k").Build(), c.B().Exec().Build()}
		})
		arr, err := res[len(res)-1].ToArray()
		if err != nil {
			return "", err
		}
		return arr[0].ToString()
	}
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	dctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	_, err := read(dctx)
	cancel()
	if !errors.Is(err, redisretry.ErrUnreachable) && !errors.Is(err, redisretry.ErrNoReply) && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a read with a deadline while the server is down: %v, want a connection error or the deadline", err)
	}
	redistest.ReadsWaitForRestart(t, srv, map[string]func() error{"MULTI GET EXEC": func() error {
		v, err := read(ctx)
		if err == nil && v != "v" {
			err = fmt.Errorf("GET k = %q", v)
		}
		return err
	}})
}
