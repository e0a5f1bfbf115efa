package ratelimit_test

import (
	"testing"

	"github.com/tiebreak/tiebreak/internal/benchload/gobench"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// BenchmarkAllow is the bench command's ratelimit workload without its
// peer (go-redis/redis_rate, which this module does not carry; the bench
// module's internal/redisrate runs it with the peer): Allow against the
// naive log limiter, same window and limit, same client, in two cases:
//
//	admit:  10000 keys, a limit never reached: every call logs
//	refuse: one key, full for the whole run: every call is refused
//
// at the bench command's concurrency, then from one caller (serial: the
// latency a request sees). ratelimit reports x-naive-log, the naive
// limiter's ns/op over its own, and admitted/op, the check of the case.
func BenchmarkAllow(b *testing.B) {
	env := redistest.New(b)
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
