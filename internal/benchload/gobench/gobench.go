// Package gobench runs the shared workloads of internal/benchload as Go
// benchmarks: a workload's fixture built once per benchmark, each variant
// of a comparison a sub-benchmark, at the bench command's concurrency, so
// that go test -bench and go run -C bench . measure the same operations on
// the same data. Compare runs with benchstat.
//
// Beside ns/op and allocations, a sub-benchmark reports what Redis itself
// spent per operation: redis-µs/op in the commands the variant sends (INFO
// commandstats) and redis-cpu-µs/op (INFO cpu, user + system, the bench
// command's figure); each counter of the variant per operation; and, for a
// variant with a baseline run earlier in the comparison, x-<baseline>: the
// baseline's ns/op over this one's (throughput over the baseline's, or for
// one caller how many times faster a call is).
package gobench

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/benchload"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// Prepare builds the fixture of the named workload on env at the quick
// settings, changed by set ("name=value" pairs), and drops it when b ends.
func Prepare(b *testing.B, env *redistest.Env, workload string, set ...string) *benchload.Fixture {
	b.Helper()
	cfg := benchload.Defaults(true)
	for _, kv := range set {
		k, v, _ := strings.Cut(kv, "=")
		cfg = cfg.With(k, v)
	}
	w, ok := benchload.Lookup(workload)
	if !ok {
		b.Fatalf("no workload %q", workload)
	}
	if err := cfg.Check([]benchload.Workload{w}); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	// The test clients turn client-side caching off; the workloads that
	// read through it (hot) get a client of their own with it on.
	caching, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{env.Addr}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(caching.Close)
	f, err := w.Prepare(ctx, benchload.Env{Client: env.Client, Caching: caching, Prefix: env.Prefix}, cfg)
	if f != nil {
		b.Cleanup(func() {
			if f.Finish != nil {
				for _, n := range f.Finish() {
					b.Log(n)
				}
			}
			if err := f.Drop(context.WithoutCancel(ctx)); err != nil {
				b.Error(err)
			}
		})
	}
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// Comparison returns the fixture's comparison named name.
func Comparison(b *testing.B, f *benchload.Fixture, name string) benchload.Comparison {
	b.Helper()
	c, ok := f.Comparison(name)
	if !ok {
		b.Fatalf("no comparison %q", name)
	}
	return c
}

// Run runs every variant of c as a sub-benchmark of b named
// v.BenchName(), its baselines first.
func Run(b *testing.B, env *redistest.Env, c benchload.Comparison) {
	ns := map[string]float64{} // ns/op of each variant run, by name
	vs := slices.Clone(c.Variants)
	isBase := func(v benchload.Variant) bool {
		return slices.ContainsFunc(vs, func(o benchload.Variant) bool { return c.BaselineOf(o) == v.Name })
	}
	slices.SortStableFunc(vs, func(a, b benchload.Variant) int {
		if isBase(a) == isBase(b) {
			return 0
		} else if isBase(a) {
			return -1
		}
		return 1
	})
	for _, v := range vs {
		b.Run(v.BenchName(), func(b *testing.B) {
			ns[v.Name] = measure(b, env, v, c.Callers, c.RedisCPU)
			if base, ok := ns[c.BaselineOf(v)]; ok && c.Metric != benchload.LatencyP50 && c.BaselineOf(v) != v.Name {
				b.ReportMetric(base/ns[v.Name], "x-"+c.BaselineOf(v))
			}
		})
	}
}

// measure runs v's Op b.N times (see loop) and reports what Redis spent
// and v's counters, per op; it returns ns/op. cpu reads the Redis CPU time
// (nil: env's server's).
func measure(b *testing.B, env *redistest.Env, v benchload.Variant, callers int, cpu func(context.Context) (float64, error)) float64 {
	b.ReportAllocs()
	ctx := context.Background()
	if cpu == nil {
		cpu = func(ctx context.Context) (float64, error) { return redisops.CPUSeconds(ctx, env.Client) }
	}
	cpu0, err := cpu(ctx)
	if err != nil {
		b.Fatal(err)
	}
	us0, _, err := redisops.CommandStats(ctx, env.Client, v.Commands...)
	if err != nil {
		b.Fatal(err)
	}
	counts := make([]int64, len(v.Counters))
	for i, c := range v.Counters {
		counts[i] = c.N.Load()
	}
	b.ResetTimer()
	loop(b, v.Op, callers)
	b.StopTimer()
	perOp := func(x float64) float64 { return x / float64(b.N) }
	if cpu1, err := cpu(ctx); err == nil {
		b.ReportMetric(perOp((cpu1-cpu0)*1e6), "redis-cpu-µs/op")
	}
	if us1, _, err := redisops.CommandStats(ctx, env.Client, v.Commands...); err == nil && len(v.Commands) > 0 {
		b.ReportMetric(perOp(us1-us0), "redis-µs/op")
	}
	for i, c := range v.Counters {
		b.ReportMetric(perOp(float64(c.N.Load()-counts[i])), c.Name+"/op")
	}
	return float64(b.Elapsed().Nanoseconds()) / float64(b.N)
}

// loop runs op b.N times: on one goroutine when callers is 1, else under
// b.RunParallel with callers goroutines, and at least
// benchload.DefaultConcurrency (0: the bench command's concurrency).
func loop(b *testing.B, op func(context.Context) error, callers int) {
	ctx := context.Background()
	if callers == 1 {
		for b.Loop() {
			if err := op(ctx); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
	procs, n := runtime.GOMAXPROCS(0), max(callers, benchload.DefaultConcurrency)
	b.SetParallelism((n + procs - 1) / procs)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := op(ctx); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
