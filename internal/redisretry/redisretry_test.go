package redisretry_test

import (
	"context"
	"errors"
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
// until the move ends and gets the answer, each write having run once.
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
	incr := rueidis.NewLuaScript("redis.call('INCR', KEYS[1]) return redis.call('INCR', KEYS[2])")
	tx := func(c rueidis.Client) []rueidis.RedisResult {
		return c.DoMulti(ctx, c.B().Multi().Build(), c.B().Incr().Key(a).Build(), c.B().Incr().Key(b).Build(), c.B().Exec().Build())
	}
	var got []any
	done := make(chan []any)
	half := func([]string) {
		if got != nil {
			return
		}
		got = append(got, tryAgain(incr.Exec(ctx, raw, []string{a, b}, nil).Error()), tryAgain(tx(raw)[3].Error()))
		go func() {
			n, err := incr.Exec(ctx, wrapped, []string{a, b}, nil).AsInt64()
			res := tx(wrapped)
			m, err2 := res[3].ToArray()
			done <- []any{n, err, len(m), err2}
		}()
		time.Sleep(200 * time.Millisecond) // the wrapped client is refused meanwhile
	}
	slot, err := c.SlotOf(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	from, err := c.SlotOwner(ctx, slot)
	if err != nil {
		t.Fatal(err)
	}
	to := c.Addrs[0]
	if to == from {
		to = c.Addrs[1]
	}
	if err := c.MoveSlot(ctx, slot, to, redisserver.MoveOptions{Batch: 1, AfterMigrate: half}); err != nil {
		t.Fatal(err)
	}
	got = append(got, <-done...)
	vals, err := raw.Do(ctx, raw.B().Mget().Key(a, b).Build()).AsStrSlice()
	got = append(got, vals, err)
	want := []any{true, true, int64(1), nil, 2, nil, []string{"2", "2"}, nil}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(x, y error) bool { return errors.Is(x, y) })); diff != "" {
		t.Errorf("TRYAGAIN from the client given, script and MULTI/EXEC; the wrapped client's script reply and error, EXEC's length and error; the keys afterwards (-want +got):\n%s", diff)
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
