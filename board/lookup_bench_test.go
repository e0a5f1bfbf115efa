package board

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// BenchmarkKeySuffixLookup holds the key-suffix id lookup in buckets to
// the first format (a HASH id -> member) on boards of 100,000 ids: Submit
// with Best of an existing id whose points grow (every write moves the
// entry), Rank of an id, and Submit of new ids (the buckets grow), each
// reporting the Redis CPU per call (redis-cpu-µs/op, INFO cpu user +
// system) and the time Redis spent in the script (script-µs/call, INFO
// commandstats). Run with -count to alternate the two formats:
//
//	go test ./board -run XXX -bench KeySuffixLookup -count 5
func BenchmarkKeySuffixLookup(b *testing.B) {
	const ids = 100_000
	env := redistest.New(b)
	ctx := context.Background()
	l, err := pack.NewLayout(pack.Field{Name: "points", Width: 30}, pack.Field{Name: "paid", Width: 1}, pack.Field{Name: "time", Width: 22, Dir: pack.LowerIsBetter})
	if err != nil {
		b.Fatal(err)
	}
	for _, format := range []struct {
		name  string
		first bool
	}{{"first-format", true}, {"buckets", false}} {
		o := Options{Strategy: KeySuffix, memberLookup: format.first}
		bd := newBoard(b, env.Client, env.Prefix, format.name, l, o)
		subs := make([]Submission, 0, 10_000)
		for i := 0; i < ids; i++ {
			subs = append(subs, Submission{ID: "u" + strconv.Itoa(i), Values: []float64{float64(i % 1000), float64(i % 2), float64(i % 4000)}})
			if len(subs) == cap(subs) {
				for _, r := range bd.SubmitMany(ctx, subs) {
					if r.Err != nil {
						b.Fatal(r.Err)
					}
				}
				subs = subs[:0]
			}
		}
		var seq atomic.Int64
		seq.Store(1000)
		run := func(b *testing.B, op func(n int64) error) {
			b.ReportAllocs()
			if err := env.Client.Do(ctx, env.Client.B().ConfigResetstat().Build()).Error(); err != nil {
				b.Fatal(err)
			}
			cpu0, err := redisops.CPUSeconds(ctx, env.Client)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := op(seq.Add(1)); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			cpu1, err := redisops.CPUSeconds(ctx, env.Client)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric((cpu1-cpu0)*1e6/float64(b.N), "redis-cpu-µs/op")
			stats, err := redisops.Info(ctx, env.Client, "commandstats")
			if err != nil {
				b.Fatal(err)
			}
			for _, name := range []string{"cmdstat_evalsha", "cmdstat_evalsha_ro"} {
				if v, ok := stats[name]; ok {
					_, per, _ := strings.Cut(v, "usec_per_call=")
					per, _, _ = strings.Cut(per, ",")
					if f, err := strconv.ParseFloat(per, 64); err == nil {
						b.ReportMetric(f, "script-µs/call")
					}
				}
			}
		}
		b.Run(format.name+"/submit-best", func(b *testing.B) {
			run(b, func(n int64) error {
				_, err := bd.Submit(ctx, Submission{ID: "u" + strconv.FormatInt(n*7919%ids, 10), Values: []float64{float64(n), float64(n % 2), float64(n % 4000)}, Policy: Best})
				return err
			})
		})
		b.Run(format.name+"/rank", func(b *testing.B) {
			run(b, func(n int64) error {
				_, err := bd.Rank(ctx, "u"+strconv.FormatInt(n*7919%ids, 10), Ordinal)
				return err
			})
		})
		b.Run(format.name+"/submit-new", func(b *testing.B) {
			run(b, func(n int64) error {
				_, err := bd.Submit(ctx, Submission{ID: "n" + strconv.FormatInt(n, 10), Values: []float64{float64(n % 1000), 0, 0}})
				return err
			})
		})
	}
}

// BenchmarkKeySuffixLookupPaired measures the same operations as
// BenchmarkKeySuffixLookup, one caller alternating between the two
// formats call by call on a server of its own, and reports the median time
// Redis spent in each format's script (SLOWLOG, every call logged): a
// busy machine slows both alike.
func BenchmarkKeySuffixLookupPaired(b *testing.B) {
	const ids = 100_000
	srv, err := redistest.StartServer("")
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	client, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{srv.Addr}, DisableCache: true})
	if err != nil {
		b.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()
	l, err := pack.NewLayout(pack.Field{Name: "points", Width: 30}, pack.Field{Name: "paid", Width: 1}, pack.Field{Name: "time", Width: 22, Dir: pack.LowerIsBetter})
	if err != nil {
		b.Fatal(err)
	}
	var boards [2]*Board
	for f, first := range []bool{true, false} {
		boards[f], err = New(ctx, client, "paired"+strconv.FormatBool(first), l, Options{Strategy: KeySuffix, memberLookup: first})
		if err != nil {
			b.Fatal(err)
		}
		var subs []Submission
		for i := 0; i < ids; i++ {
			subs = append(subs, Submission{ID: "u" + strconv.Itoa(i), Values: []float64{float64(i % 1000), float64(i % 2), float64(i % 4000)}})
		}
		for _, r := range boards[f].SubmitMany(ctx, subs) {
			if r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	}
	ops := []struct {
		name string
		op   func(bd *Board, n int) error
	}{
		{"submit-best", func(bd *Board, n int) error {
			_, err := bd.Submit(ctx, Submission{ID: "u" + strconv.Itoa(n*7919%ids), Values: []float64{float64(1000 + n), float64(n % 2), float64(n % 4000)}, Policy: Best})
			return err
		}},
		{"rank", func(bd *Board, n int) error {
			_, err := bd.Rank(ctx, "u"+strconv.Itoa(n*7919%ids), Ordinal)
			return err
		}},
		{"get", func(bd *Board, n int) error {
			_, err := bd.Get(ctx, "u"+strconv.Itoa(n*7919%ids))
			return err
		}},
		{"submit-new", func(bd *Board, n int) error {
			_, err := bd.Submit(ctx, Submission{ID: "n" + strconv.Itoa(n), Values: []float64{float64(n % 1000), 0, 0}})
			return err
		}},
	}
	for _, o := range ops {
		b.Run(o.name, func(b *testing.B) {
			for _, c := range [][]string{{"slowlog-log-slower-than", "0"}, {"slowlog-max-len", strconv.Itoa(2*b.N + 10)}} {
				if err := client.Do(ctx, client.B().ConfigSet().ParameterValue().ParameterValue(c[0], c[1]).Build()).Error(); err != nil {
					b.Fatal(err)
				}
			}
			if err := client.Do(ctx, client.B().SlowlogReset().Build()).Error(); err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				for _, bd := range boards {
					if err := o.op(bd, b.N*len(o.name)+i); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.StopTimer()
			if err := client.Do(ctx, client.B().ConfigSet().ParameterValue().ParameterValue("slowlog-log-slower-than", "10000").Build()).Error(); err != nil {
				b.Fatal(err)
			}
			log, err := client.Do(ctx, client.B().SlowlogGet().Count(-1).Build()).ToArray()
			if err != nil {
				b.Fatal(err)
			}
			var us [2][]float64
			for _, e := range log {
				f, err := e.ToArray()
				if err != nil || len(f) < 4 {
					continue
				}
				args, _ := f[3].AsStrSlice()
				d, _ := f[2].AsInt64()
				if len(args) < 4 || !strings.HasPrefix(strings.ToLower(args[0]), "evalsha") {
					continue
				}
				for k, bd := range boards {
					if args[3] == bd.gen.Load().keys.z {
						us[k] = append(us[k], float64(d))
					}
				}
			}
			for k, name := range []string{"first-format", "buckets"} {
				if len(us[k]) > 0 {
					sort.Float64s(us[k])
					b.ReportMetric(us[k][len(us[k])/2], name+"-script-µs")
				}
			}
			if len(us[0]) > 0 && len(us[1]) > 0 {
				b.ReportMetric(us[1][len(us[1])/2]/us[0][len(us[0])/2], "buckets/first")
			}
		})
	}
}
