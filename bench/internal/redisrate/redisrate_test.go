package redisrate_test

import (
	"context"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/bench/internal/redisrate"
	"github.com/tiebreak/tiebreak/internal/benchload"
	"github.com/tiebreak/tiebreak/internal/benchload/gobench"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// peer returns the peer on env's server, closed when tb ends.
func peer(tb testing.TB, env *redistest.Env) *benchload.RLPeer {
	tb.Helper()
	rdb, err := redisrate.Connect(env.Addr)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { rdb.Close() })
	return redisrate.Peer(rdb)
}

// TestPeerHoldsTheSameLimit checks that the peer, configured from a
// ratelimit.Limit, admits N requests on an idle key and refuses the next,
// as the sliding log does, so that both limiters are measured under the
// same limit; and that its state lives under Key.
func TestPeerHoldsTheSameLimit(t *testing.T) {
	env := redistest.New(t)
	p := peer(t, env)
	ctx := context.Background()
	limit := ratelimit.Limit{N: 5, Window: time.Hour}
	key := env.Prefix + ":k"
	for i := range limit.N + 2 {
		ok, err := p.Allow(ctx, key, limit)
		if err != nil {
			t.Fatal(err)
		}
		if want := i < limit.N; ok != want {
			t.Fatalf("request %d of %v: admitted %v, want %v", i+1, limit, ok, want)
		}
	}
	n, err := env.Client.Do(ctx, env.Client.B().Exists().Key(p.Key(key)).Build()).AsInt64()
	if err != nil || n != 1 {
		t.Errorf("EXISTS %s = %d (%v), want 1", p.Key(key), n, err)
	}
}

// BenchmarkAllow is the bench command's ratelimit workload as Go
// benchmarks: ratelimit.Allow, redis_rate's Allow and the naive log
// limiter, same window and limit, same Redis, in the admit and the refuse
// case, at the bench command's concurrency, then from one caller
// (serial). Besides x-redis_rate (redis_rate's ns/op over the variant's),
// it reports redis-µs/op, the time Redis spent in the script (INFO
// commandstats), beside redis-cpu-µs/op, the server's whole CPU per call,
// which also pays for reading and writing each client's connection.
func BenchmarkAllow(b *testing.B) {
	env := redistest.New(b)
	benchload.SetRLPeer(peer(b, env))
	b.Cleanup(func() { benchload.SetRLPeer(nil) })
	f := gobench.Prepare(b, env, "ratelimit")
	for _, name := range []string{"admit", "refuse"} {
		c := gobench.Comparison(b, f, name)
		b.Run(name, func(b *testing.B) {
			gobench.Run(b, env, c)
			c.Callers = 1
			b.Run("serial", func(b *testing.B) { gobench.Run(b, env, c) })
		})
	}
}
