package decimalmap

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/baseline"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// The benchmark data: benchInts integer parts from 25400, each with the
// fractions below, 3 users per key. The range reads benchRangeInts integer
// parts from 25500: 100 keys.
const (
	benchInts      = 200
	benchRangeInts = 20
	benchFrom      = "25500.00001"
	benchTo        = "25519.99999"
)

var benchFracs = []string{"1", "12345", "2", "5", "98765"}

// benchParallelism is goroutines per CPU in the parallel benchmarks: enough
// requests in flight that rueidis pipelines them.
const benchParallelism = 8

// benchData fills a map and the two-level decimal index with the same
// prices, and checks that both answer the benchmark's range alike.
func benchData(b *testing.B, env *redistest.Env) (*Map, baseline.TwoLevelIndex) {
	b.Helper()
	ctx := context.Background()
	m := newMap(b, env.Client, env.Prefix, "bench")
	twoLevel := baseline.NewTwoLevelIndex(env.Client, env.Prefix+"_twolevel")
	for i := range benchInts {
		intPart := strconv.Itoa(25400 + i)
		for j, f := range benchFracs {
			users := []string{"user" + strconv.Itoa(i%7), "user" + strconv.Itoa(j), "user" + strconv.Itoa(i%7)}
			if _, err := m.Add(ctx, intPart+"."+f, users...); err != nil {
				b.Fatal(err)
			}
			if err := twoLevel.Save(ctx, intPart, f, users); err != nil {
				b.Fatal(err)
			}
		}
	}
	prices, err := twoLevel.Find(ctx, benchFrom, benchTo)
	if err != nil {
		b.Fatal(err)
	}
	want := make([]Entry, len(prices))
	for i, p := range prices {
		want[i] = Entry{Key: p.Key, Values: p.Values}
	}
	got, err := m.Range(ctx, benchQuery)
	if err != nil {
		b.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" || len(got) != benchRangeInts*len(benchFracs) {
		b.Fatalf("%d keys; decimalmap and the two-level index differ (-two-level +decimalmap):\n%s", len(got), diff)
	}
	return m, twoLevel
}

var benchQuery = Query{Min: Inclusive(benchFrom), Max: Inclusive(benchTo)}

// BenchmarkRange100 reads a range of 100 keys over 20 integer parts, with
// their lists: decimalmap's one script against the two-level decimal
// index, read bucket by bucket (121 round trips), in the same run. serial
// is one caller's latency; parallel is throughput with requests pipelined.
func BenchmarkRange100(b *testing.B) {
	env := redistest.New(b)
	m, twoLevel := benchData(b, env)
	ctx := context.Background()
	ops := []struct {
		name string
		cmds []string // the top-level commands it sends, for redis-µs/op
		op   func() error
	}{
		{"decimalmap", []string{"evalsha_ro"}, func() error { _, err := m.Range(ctx, benchQuery); return err }},
		{"two-level", []string{"zrange", "lrange"}, func() error { _, err := twoLevel.Find(ctx, benchFrom, benchTo); return err }},
	}
	for _, mode := range []string{"serial", "parallel"} {
		for _, o := range ops {
			b.Run(mode+"/"+o.name, func(b *testing.B) { run(b, env, mode == "parallel", o.cmds, o.op) })
		}
	}
}

// run runs op b.N times, serially or under b.RunParallel, and reports
// beside the usual figures the microseconds Redis spent per op in cmds
// (redis-µs/op), from INFO commandstats.
func run(b *testing.B, env *redistest.Env, parallel bool, cmds []string, op func() error) {
	b.ReportAllocs()
	u0 := serverUsec(b, env.Client, cmds)
	var n atomic.Int64
	b.ResetTimer()
	if parallel {
		b.SetParallelism(benchParallelism)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				n.Add(1)
				if err := op(); err != nil {
					b.Error(err)
					return
				}
			}
		})
	} else {
		for b.Loop() {
			n.Add(1)
			if err := op(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	if u1 := serverUsec(b, env.Client, cmds); n.Load() > 0 {
		b.ReportMetric((u1-u0)/float64(n.Load()), "redis-µs/op")
	}
}

// serverUsec returns the microseconds Redis has spent in cmds, from INFO
// commandstats.
func serverUsec(b *testing.B, client rueidis.Client, cmds []string) float64 {
	b.Helper()
	var usec float64
	for _, c := range cmds {
		u, _, err := redistest.CommandStats(context.Background(), client, c)
		if err != nil {
			b.Fatal(err)
		}
		usec += u
	}
	return usec
}
