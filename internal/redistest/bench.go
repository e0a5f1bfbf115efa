package redistest

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/redis/rueidis"
)

// BenchParallelism is goroutines per CPU in RunParallel: enough requests in
// flight that rueidis pipelines them and Redis, not the round trip, sets
// the pace.
const BenchParallelism = 8

// RunParallel runs op (given a counter unique to each call) under
// b.RunParallel with BenchParallelism goroutines per CPU, reporting
// allocations and, as redis-µs/op, the microseconds Redis itself spent
// per call of the scripts (EVALSHA and EVALSHA_RO) the benchmark made. It
// returns ns/op and redis-µs/op (0 when no script ran).
func RunParallel(b *testing.B, client rueidis.Client, op func(i int64) error) (nsOp, redisUs float64) {
	b.Helper()
	b.ReportAllocs()
	b.SetParallelism(BenchParallelism)
	ctx := context.Background()
	u0, c0, err := CommandStats(ctx, client, "evalsha")
	if err != nil {
		b.Fatal(err)
	}
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := op(n.Add(1)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	if u1, c1, err := CommandStats(ctx, client, "evalsha"); err == nil && c1 > c0 {
		redisUs = (u1 - u0) / (c1 - c0)
		b.ReportMetric(redisUs, "redis-µs/op")
	}
	return float64(b.Elapsed().Nanoseconds()) / float64(b.N), redisUs
}
