package board

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// BenchmarkRulesWrite measures what each tournament rule costs Redis per
// write (used_cpu_user+sys per call, the metric redis-µs/op), against the
// same write without rules in the same run: blocks of writes alternate
// between the board with the rule and a board without, so that both see
// the same server. The write is Best over 1,000 ids; the rules never
// refuse it (limits far above what the run reaches). Two baselines: a
// board without rules whose writes run submit.lua (a cap no write
// reaches), the fair one, and a plain board, whose writes are native
// (ZADD): the metric ratio-script and ratio-native.
func BenchmarkRulesWrite(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = "id" + strconv.Itoa(i)
	}
	far := time.Now().Add(24 * time.Hour)
	rules := []struct {
		name string
		r    Rules
	}{
		{"StartEnd", Rules{Start: time.UnixMilli(1), End: far}},
		{"JoinRequired", Rules{JoinRequired: true}},
		{"MaxMembers", Rules{MaxMembers: 1 << 40}},
		{"MaxAttempts", Rules{MaxAttempts: 1 << 40}},
		{"All", Rules{Start: time.UnixMilli(1), End: far, JoinRequired: true, MaxMembers: 1 << 40, MaxAttempts: 1 << 40}},
	}
	script := newBoard(b, env.Client, env.Prefix, "script", testLayout(b), Options{Cap: 1 << 40})
	native := newBoard(b, env.Client, env.Prefix, "native", testLayout(b), Options{})
	for _, rc := range rules {
		bd := newBoard(b, env.Client, env.Prefix, rc.name, testLayout(b), Options{Rules: rc.r})
		if err := bd.Join(ctx, ids...); err != nil {
			b.Fatal(err)
		}
		b.Run(rc.name, func(b *testing.B) {
			cpu := cpuAlternating(b, env.Client, func(w int) func(int) error {
				return func(j int) error {
					s := Submission{ID: ids[j%len(ids)], Values: []float64{float64(j % 1000), float64(j % 2), float64(j % 200)}, Policy: Best}
					_, err := []*Board{bd, script, native}[w].Submit(ctx, s)
					return err
				}
			}, 3)
			b.ReportMetric(cpu[0]/float64(b.N)*1e6, "redis-µs/op")
			b.ReportMetric(cpu[0]/cpu[1], "ratio-script")
			b.ReportMetric(cpu[0]/cpu[2], "ratio-native")
		})
	}
}

// BenchmarkRequestIDWrite measures a write with a request id against the
// same write without, in the same run (blocks alternating): Redis CPU
// per call (redis-µs/op, ratio-script against a scripted write without
// one, ratio-native against a plain board's native write), and the
// memory each remembered id costs (bytes/id: used_memory's growth over
// the run's ids; key-bytes: MEMORY USAGE of one).
func BenchmarkRequestIDWrite(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	withID := newBoard(b, env.Client, env.Prefix, "rid", testLayout(b), Options{})
	script := newBoard(b, env.Client, env.Prefix, "script", testLayout(b), Options{Cap: 1 << 40})
	native := newBoard(b, env.Client, env.Prefix, "native", testLayout(b), Options{})
	sub := func(j int) Submission {
		return Submission{ID: "id" + strconv.Itoa(j%1000), Values: []float64{float64(j % 1000), float64(j % 2), float64(j % 200)}, Policy: Best}
	}
	for _, bd := range []*Board{withID, script, native} { // every entry there first: the memory measured is the ids'
		for j := range 1000 {
			if _, err := bd.Submit(ctx, sub(j)); err != nil {
				b.Fatal(err)
			}
		}
	}
	m0, _ := redisops.Info(ctx, env.Client, "memory")
	mem0, _ := strconv.ParseFloat(m0["used_memory"], 64)
	cpu := cpuAlternating(b, env.Client, func(w int) func(int) error {
		return func(j int) error {
			s := sub(j)
			if w == 0 {
				s.RequestID = "request-" + strconv.Itoa(j)
			}
			_, err := []*Board{withID, script, native}[w].Submit(ctx, s)
			return err
		}
	}, 3)
	m, _ := redisops.Info(ctx, env.Client, "memory")
	used, _ := strconv.ParseFloat(m["used_memory"], 64)
	mem := used - mem0
	usage, _ := env.Client.Do(ctx, env.Client.B().MemoryUsage().Key(withID.prefix+"r:request-0").Build()).AsInt64()
	b.ReportMetric(cpu[0]/float64(b.N)*1e6, "redis-µs/op")
	b.ReportMetric(cpu[0]/cpu[1], "ratio-script")
	b.ReportMetric(cpu[0]/cpu[2], "ratio-native")
	b.ReportMetric(mem/float64(b.N), "bytes/id")
	b.ReportMetric(float64(usage), "key-bytes")
}

// BenchmarkHiddenReads measures the reads of a board of 10,000 entries
// with 1% of them hidden against the same board with none, in the same
// run (blocks alternating): Redis CPU per read (redis-µs/op of the board
// with hidden members, ratio to the other's) for Top(10), Around(id, 11)
// and Rank.
func BenchmarkHiddenReads(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	hiding := newBoard(b, env.Client, env.Prefix, "hiding", testLayout(b), Options{Hiding: true})
	plain := newBoard(b, env.Client, env.Prefix, "plain", testLayout(b), Options{})
	subs := make([]Submission, 10_000)
	var hidden []string
	for i := range subs {
		subs[i] = Submission{ID: "id" + strconv.Itoa(i), Values: []float64{float64(i % 1000), float64(i % 2), float64(i % 200)}}
		if i%100 == 0 {
			hidden = append(hidden, subs[i].ID)
		}
	}
	for _, bd := range []*Board{hiding, plain} {
		for _, r := range bd.SubmitMany(ctx, subs) {
			if r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	}
	if _, err := hiding.Hide(ctx, hidden...); err != nil {
		b.Fatal(err)
	}
	reads := map[string]func(bd *Board, i int) error{
		"Top10":    func(bd *Board, i int) error { _, err := bd.Top(ctx, 10); return err },
		"Around11": func(bd *Board, i int) error { _, err := bd.Around(ctx, "id"+strconv.Itoa(1+i%99*100), 11); return err },
		"Rank": func(bd *Board, i int) error {
			_, err := bd.Rank(ctx, "id"+strconv.Itoa(1+i%99*100), Competition)
			return err
		},
	}
	for _, name := range []string{"Top10", "Around11", "Rank"} {
		read := reads[name]
		b.Run(name, func(b *testing.B) {
			cpu := cpuAlternating(b, env.Client, func(w int) func(int) error {
				return func(j int) error { return read([]*Board{hiding, plain}[w], j) }
			}, 2)
			b.ReportMetric(cpu[0]/float64(b.N)*1e6, "redis-µs/op")
			b.ReportMetric(cpu[0]/cpu[1], "ratio")
		})
	}
}

// cpuAlternating makes b.N calls of each of n callers (call(w) is caller
// w's, given the call's index), in blocks of 200 alternating between
// them so that all see the same server, and returns the Redis CPU
// seconds (used_cpu_user+sys) each caller's calls cost.
func cpuAlternating(b *testing.B, client rueidis.Client, call func(w int) func(int) error, n int) []float64 {
	ctx := context.Background()
	cpu := make([]float64, n)
	const block = 200
	for i := 0; i < b.N; i += block {
		for w := range n {
			f := call(w)
			before, err := redisops.CPUSeconds(ctx, client)
			if err != nil {
				b.Fatal(err)
			}
			for j := i; j < min(i+block, b.N); j++ {
				if err := f(j); err != nil {
					b.Fatal(err)
				}
			}
			after, err := redisops.CPUSeconds(ctx, client)
			if err != nil {
				b.Fatal(err)
			}
			cpu[w] += after - before
		}
	}
	return cpu
}
