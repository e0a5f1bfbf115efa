package ratelimit

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/baseline"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// naiveAllow runs the baseline, the naive log limiter, for key under limit.
func naiveAllow(ctx context.Context, client rueidis.Client, key string, limit Limit) error {
	_, err := baseline.NaiveLogAllow(ctx, client, key, limit.N, limit.Window, time.Now())
	return err
}

// benchRounds is how many times each pair runs, alternating, so that a
// noisy shared machine slows both alike; the parent logs the median ratio.
const benchRounds = 3

// BenchmarkAllow compares Allow with the naive limiter's script, same window and
// limit, same client, in the same run:
//
//	admit:  10000 keys in turn, a limit never reached: every call logs
//	refuse: one key, full for the whole run: every call is refused
//
// Each pair runs benchRounds times, alternating; the parent logs the
// median ratio ratelimit/naive-log of ns/op and of redis-µs/op per scenario.
func BenchmarkAllow(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	l := newLimiter(b, env.Client, env.Prefix)
	scenarios := []struct {
		name  string
		keys  int
		limit Limit
	}{
		{"admit", 10000, Limit{N: 1000, Window: time.Second}},
		{"refuse", 1, Limit{N: 100, Window: time.Minute}},
	}
	for _, sc := range scenarios {
		naiveKeys, ourKeys := make([]string, sc.keys), make([]string, sc.keys)
		for i := range sc.keys {
			ourKeys[i] = "k" + strconv.Itoa(i)
			naiveKeys[i] = env.Prefix + ":naive:{" + ourKeys[i] + "}"
		}
		if sc.name == "refuse" {
			fill(b, func() (bool, error) { r, err := l.Allow(ctx, ourKeys[0], sc.limit); return r.Allowed == 1, err })
			fill(b, func() (bool, error) {
				ok, err := baseline.NaiveLogAllow(ctx, env.Client, naiveKeys[0], 100, time.Minute, time.Now())
				time.Sleep(time.Millisecond) // the naive limiter logs one entry per ms
				return ok, err
			})
		}
		var ns, us [2][]float64 // [naive, ratelimit][round]
		for range benchRounds {
			var n, u [2]float64 // the last (longest) run of each sub-benchmark
			b.Run(sc.name+"/naive-log", func(b *testing.B) {
				n[0], u[0] = redistest.RunParallel(b, env.Client, func(i int64) error { return naiveAllow(ctx, env.Client, naiveKeys[i%int64(sc.keys)], sc.limit) })
			})
			b.Run(sc.name+"/ratelimit", func(b *testing.B) {
				n[1], u[1] = redistest.RunParallel(b, env.Client, func(i int64) error {
					_, err := l.Allow(ctx, ourKeys[i%int64(sc.keys)], sc.limit)
					return err
				})
			})
			for i := range 2 {
				ns[i], us[i] = append(ns[i], n[i]), append(us[i], u[i])
			}
		}
		b.Logf("%s: ratelimit/naive-log median ratio: %.2f ns/op, %.2f redis-µs/op", sc.name, medianRatio(ns), medianRatio(us))
		var lat [2][]float64 // one caller: the latency a request sees
		for range benchRounds {
			b.Run(sc.name+"/serial/naive-log", func(b *testing.B) {
				lat[0] = append(lat[0], serial(b, func(i int64) error { return naiveAllow(ctx, env.Client, naiveKeys[i%int64(sc.keys)], sc.limit) }))
			})
			b.Run(sc.name+"/serial/ratelimit", func(b *testing.B) {
				lat[1] = append(lat[1], serial(b, func(i int64) error { return errOf(l.Allow(ctx, ourKeys[i%int64(sc.keys)], sc.limit)) }))
			})
		}
		b.Logf("%s: one caller: ratelimit/naive-log median latency ratio: %.2f", sc.name, medianRatio(lat))
	}
}

// serial runs op from one goroutine and returns ns/op: the latency one
// request sees, round trip included.
func serial(b *testing.B, op func(i int64) error) float64 {
	b.Helper()
	b.ReportAllocs()
	for i := range int64(b.N) {
		if err := op(i); err != nil {
			b.Fatal(err)
		}
	}
	return float64(b.Elapsed().Nanoseconds()) / float64(b.N)
}

func errOf[T any](_ T, err error) error { return err }

// medianRatio is the median over rounds of v[1][i] / v[0][i].
func medianRatio(v [2][]float64) float64 {
	r := make([]float64, 0, len(v[0]))
	for i := range v[0] {
		if v[0][i] > 0 && v[1][i] > 0 {
			r = append(r, v[1][i]/v[0][i])
		}
	}
	if len(r) == 0 {
		return 0
	}
	slices.Sort(r)
	return r[len(r)/2]
}

// fill calls allow until it refuses.
func fill(b *testing.B, allow func() (bool, error)) {
	b.Helper()
	for {
		ok, err := allow()
		if err != nil {
			b.Fatal(err)
		}
		if !ok {
			return
		}
	}
}
