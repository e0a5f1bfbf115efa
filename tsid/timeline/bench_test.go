package timeline

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

const (
	benchMessages = 20000
	benchPage     = 50
	// benchParallelism is goroutines per CPU: enough requests in flight
	// that rueidis pipelines them and Redis, not the round trip, sets the
	// pace.
	benchParallelism = 8
)

// benchRoom writes the same messages into a split timeline, a lex
// timeline and a Redis Stream (entry ID time-part "-" rest bits, field p),
// and returns them with the IDs.
func benchRoom(b *testing.B, env *redistest.Env) (split, lex *Timeline[uint64], stream string, ids []uint64) {
	b.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 7))
	msgs := make([]Message[uint64], benchMessages)
	id := uint64(9153062458) << 22
	for i := range msgs {
		id += 1 + rng.Uint64N(3<<21) // about one message per millisecond, some in the same one
		payload := fmt.Sprintf(`{"user":"u%d","text":"message %d of the benchmark room, about a hundred bytes long"}`, rng.IntN(1000), i)
		msgs[i] = Message[uint64]{ID: id, Payload: []byte(payload)}
		ids = append(ids, id)
	}
	split = newBenchTL(b, env, "split", SplitScore)
	lex = newBenchTL(b, env, "lex", LexID)
	for _, tl := range []*Timeline[uint64]{split, lex} {
		if err := tl.AppendMany(ctx, msgs); err != nil {
			b.Fatal(err)
		}
	}
	stream = "{" + env.Prefix + "_stream}:s"
	cmds := make(rueidis.Commands, 0, len(msgs))
	for _, m := range msgs {
		cmds = append(cmds, env.Client.B().Xadd().Key(stream).Id(streamID(m.ID)).FieldValue().FieldValue("p", string(m.Payload)).Build())
	}
	for _, r := range env.Client.DoMulti(ctx, cmds...) {
		if r.Error() != nil {
			b.Fatal(r.Error())
		}
	}
	return split, lex, stream, ids
}

func newBenchTL(b *testing.B, env *redistest.Env, name string, s Strategy) *Timeline[uint64] {
	b.Helper()
	tl, err := New(env.Client, env.Prefix+"_"+name, tsid.TSID, Options{Strategy: s})
	if err != nil {
		b.Fatal(err)
	}
	return tl
}

// streamID is the Stream entry ID of a TSID: time part, then rest bits.
func streamID(id uint64) string {
	return strconv.FormatUint(id>>22, 10) + "-" + strconv.FormatUint(id&(1<<22-1), 10)
}

// cmdUsec returns the microseconds Redis has spent in the commands whose
// INFO commandstats name starts with one of prefixes ("cmdstat_evalsha"),
// and their number of calls.
func cmdUsec(b *testing.B, client rueidis.Client, prefixes []string) (usec, calls float64) {
	b.Helper()
	names := make([]string, len(prefixes))
	for i, p := range prefixes {
		names[i] = strings.TrimPrefix(p, "cmdstat_")
	}
	usec, calls, err := redistest.CommandStats(context.Background(), client, names...)
	if err != nil {
		b.Fatal(err)
	}
	return usec, calls
}

// BenchmarkAppend appends new messages one at a time, in both
// strategies, against XADD of the same messages to a Stream, in the same
// run; the timelines report x-xadd, their throughput over XADD's.
func BenchmarkAppend(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	payload := []byte(`{"user":"u1","text":"message of the benchmark room, about a hundred bytes long......"}`)
	base := uint64(9153062458) << 22
	stream := "{" + env.Prefix + "_stream}:s"
	var xadd float64
	b.Run("xadd", func(b *testing.B) {
		xadd = runParallel(b, env.Client, []string{"cmdstat_xadd"}, func(i int) error {
			cmd := env.Client.B().Xadd().Key(stream).Id("*").FieldValue().FieldValue("p", string(payload)).Build()
			return env.Client.Do(ctx, cmd).Error()
		})
	})
	for _, s := range []Strategy{SplitScore, LexID} {
		tl := newBenchTL(b, env, "append_"+s.String(), s)
		var seq atomic.Uint64
		b.Run(s.String(), func(b *testing.B) {
			ns := runParallel(b, env.Client, []string{"cmdstat_evalsha"}, func(int) error {
				return tl.Append(ctx, base+seq.Add(1)*977, payload) // a few per millisecond
			})
			b.ReportMetric(xadd/ns, "x-xadd")
		})
	}
}

// runParallel runs op under b.RunParallel, reports the microseconds Redis
// spent per op in the commands named by stats (redis-µs/op: INFO
// commandstats prefixes), and returns the ns per op of this run.
func runParallel(b *testing.B, client rueidis.Client, stats []string, op func(i int) error) float64 {
	b.Helper()
	b.ReportAllocs()
	b.SetParallelism(benchParallelism)
	u0, _ := cmdUsec(b, client, stats)
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := op(int(n.Add(1))); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	u1, _ := cmdUsec(b, client, stats)
	b.ReportMetric((u1-u0)/float64(b.N), "redis-µs/op")
	return float64(b.Elapsed().Nanoseconds()) / float64(b.N)
}

// BenchmarkBefore pages 50 messages before a random cursor, in
// both strategies, against XREVRANGE key (id - COUNT 50 on a Stream
// holding the same messages, in the same run. The timelines report
// x-xrevrange, their throughput over XREVRANGE's (decoded with AsXRange,
// as a caller would) and x-xrevrange-raw, over XREVRANGE's undecoded.
func BenchmarkBefore(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	split, lex, stream, ids := benchRoom(b, env)
	cursor := func(i int) int { return benchPage + (i*7919)%(len(ids)-benchPage) } // full pages
	var xrev, xrevRaw float64
	b.Run("xrevrange", func(b *testing.B) {
		xrev = runParallel(b, env.Client, []string{"cmdstat_xrevrange"}, func(i int) error {
			cmd := env.Client.B().Xrevrange().Key(stream).End("(" + streamID(ids[cursor(i)])).Start("-").Count(benchPage).Build()
			entries, err := env.Client.Do(ctx, cmd).AsXRange()
			if err == nil && len(entries) != benchPage {
				err = fmt.Errorf("%d entries", len(entries))
			}
			return err
		})
	})
	b.Run("xrevrange-raw", func(b *testing.B) {
		xrevRaw = runParallel(b, env.Client, []string{"cmdstat_xrevrange"}, func(i int) error {
			cmd := env.Client.B().Xrevrange().Key(stream).End("(" + streamID(ids[cursor(i)])).Start("-").Count(benchPage).Build()
			return env.Client.Do(ctx, cmd).Error()
		})
	})
	// The split strategy reads with MULTI, two ZRANGE, EXEC (or a script
	// for a crowded millisecond), the lex one with one ZRANGE. EXEC's and
	// EVALSHA's time includes the commands they run.
	stats := map[Strategy][]string{
		SplitScore: {"cmdstat_multi", "cmdstat_exec", "cmdstat_evalsha"},
		LexID:      {"cmdstat_zrange"},
	}
	for _, tl := range []*Timeline[uint64]{split, lex} {
		b.Run(tl.Strategy().String(), func(b *testing.B) {
			ns := runParallel(b, env.Client, stats[tl.Strategy()], func(i int) error {
				p, err := tl.Before(ctx, ids[cursor(i)], benchPage)
				if err == nil && len(p.Messages) != benchPage {
					err = fmt.Errorf("%d messages", len(p.Messages))
				}
				return err
			})
			b.ReportMetric(xrev/ns, "x-xrevrange")
			b.ReportMetric(xrevRaw/ns, "x-xrevrange-raw")
		})
	}
}
