package decimalmap

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
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

// seedIndex is seed 000's own two-level scheme, the baseline: the integer
// part as the score of a bucket name in one sorted set, the fraction
// strings of each integer part in a sorted set of its own (all scores 0,
// read BYLEX), one list per price. A range reads bucket by bucket, then
// price by price, as the post's find(from, to) does: one round trip per
// bucket and per price.
type seedIndex struct {
	client rueidis.Client
	prefix string
}

func (s seedIndex) priceZset() string { return s.prefix + ":price.zset" }
func (s seedIndex) fractionZset(intPart string) string {
	return s.prefix + ":price.fraction.zset:" + intPart
}
func (s seedIndex) userList(price string) string { return s.prefix + ":price.userid.list:" + price }

// save writes one price as the post does (without its read-back check).
func (s seedIndex) save(ctx context.Context, intPart, frac string, users []string) error {
	c := s.client
	cmds := rueidis.Commands{
		c.B().Rpush().Key(s.userList(intPart + "." + frac)).Element(users...).Build(),
		c.B().Zadd().Key(s.fractionZset(intPart)).ScoreMember().ScoreMember(0, frac).Build(),
		c.B().Zadd().Key(s.priceZset()).ScoreMember().ScoreMember(mustFloat(intPart), s.fractionZset(intPart)).Build(),
	}
	for _, r := range c.DoMulti(ctx, cmds...) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

func mustFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return f
}

// find is the post's find(from, to), for prices with a fraction.
func (s seedIndex) find(ctx context.Context, from, to string) ([]Entry, error) {
	c := s.client
	fromInt, fromFrac, _ := strings.Cut(from, ".")
	toInt, toFrac, _ := strings.Cut(to, ".")
	buckets, err := c.Do(ctx, c.B().Zrange().Key(s.priceZset()).Min(fromInt).Max(toInt).Byscore().Build()).AsStrSlice()
	if err != nil {
		return nil, err
	}
	var out []Entry
	for i, bucket := range buckets {
		lo, hi := "-", "+"
		if i == 0 {
			lo = "[" + fromFrac
		}
		if i == len(buckets)-1 {
			hi = "[" + toFrac
		}
		fracs, err := c.Do(ctx, c.B().Zrange().Key(bucket).Min(lo).Max(hi).Bylex().Build()).AsStrSlice()
		if err != nil {
			return nil, err
		}
		intPart := bucket[strings.LastIndexByte(bucket, ':')+1:]
		for _, f := range fracs {
			price := intPart + "." + f
			users, err := c.Do(ctx, c.B().Lrange().Key(s.userList(price)).Start(0).Stop(-1).Build()).AsStrSlice()
			if err != nil {
				return nil, err
			}
			out = append(out, Entry{Key: price, Values: users})
		}
	}
	return out, nil
}

// benchData fills a map and the seed's scheme with the same prices, and
// checks that both answer the benchmark's range alike.
func benchData(b *testing.B, env *redistest.Env) (*Map, seedIndex) {
	b.Helper()
	ctx := context.Background()
	m := newMap(b, env.Client, env.Prefix, "bench")
	seed := seedIndex{client: env.Client, prefix: env.Prefix + "_seed"}
	for i := range benchInts {
		intPart := strconv.Itoa(25400 + i)
		for j, f := range benchFracs {
			users := []string{"user" + strconv.Itoa(i%7), "user" + strconv.Itoa(j), "user" + strconv.Itoa(i%7)}
			if _, err := m.Add(ctx, intPart+"."+f, users...); err != nil {
				b.Fatal(err)
			}
			if err := seed.save(ctx, intPart, f, users); err != nil {
				b.Fatal(err)
			}
		}
	}
	want, err := seed.find(ctx, benchFrom, benchTo)
	if err != nil {
		b.Fatal(err)
	}
	got, err := m.Range(ctx, benchQuery)
	if err != nil {
		b.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" || len(got) != benchRangeInts*len(benchFracs) {
		b.Fatalf("%d keys; decimalmap and the seed's scheme differ (-seed +decimalmap):\n%s", len(got), diff)
	}
	return m, seed
}

var benchQuery = Query{Min: Inclusive(benchFrom), Max: Inclusive(benchTo)}

// BenchmarkRange100 reads a range of 100 keys over 20 integer parts, with
// their lists: decimalmap's one script against the seed's scheme, read
// bucket by bucket (121 round trips), in the same run. serial is one
// caller's latency; parallel is throughput with requests pipelined.
func BenchmarkRange100(b *testing.B) {
	env := redistest.New(b)
	m, seed := benchData(b, env)
	ctx := context.Background()
	ops := []struct {
		name string
		cmds []string // the top-level commands it sends, for redis-µs/op
		op   func() error
	}{
		{"decimalmap", []string{"evalsha_ro"}, func() error { _, err := m.Range(ctx, benchQuery); return err }},
		{"seed", []string{"zrange", "lrange"}, func() error { _, err := seed.find(ctx, benchFrom, benchTo); return err }},
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
