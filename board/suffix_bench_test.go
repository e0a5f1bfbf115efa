package board

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// BenchmarkSubmitSuffixRatio holds a key-suffix board's Submit (Best) to
// a packed board's at 64 concurrent callers, on new ids and on ids
// already on the board (10,000 of them, each write improving its entry):
// blocks of 64 callers' writes alternate between the two boards, so that
// both see the same server. It reports each board's writes per second
// (packed-ops/s, suffix-ops/s), the Redis CPU per write
// (packed-redis-µs/op, suffix-redis-µs/op; used_cpu_user+sys), and the
// median over the blocks of suffix's throughput over packed's (ratio),
// which the project holds to at least 0.7. The layout is the bench
// command's: points (30 bits), paid (1), time (22, lower first).
func BenchmarkSubmitSuffixRatio(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 30},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 22, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		b.Fatal(err)
	}
	const ids = 10000
	for _, repeated := range []bool{false, true} {
		name := map[bool]string{false: "new", true: "repeated"}[repeated]
		b.Run(name, func(b *testing.B) {
			boards := []*Board{
				newBoard(b, env.Client, env.Prefix, name+"_packed", l, Options{}),
				newBoard(b, env.Client, env.Prefix, name+"_suffix", l, Options{Strategy: KeySuffix}),
			}
			sub := func(i int64) Submission {
				x := uint64(i) * 0x9e3779b97f4a7c15
				id := "n" + strconv.FormatInt(i, 10)
				if repeated {
					id = "u" + strconv.FormatUint(x%ids, 10)
				}
				return Submission{ID: id, Values: []float64{float64(i + 1), float64(x >> 40 & 1), float64(x >> 41 & (1<<22 - 1))}, Policy: Best}
			}
			if repeated {
				for _, bd := range boards {
					subs := make([]Submission, 0, ids)
					for i := range int64(ids) {
						s := sub(i)
						s.ID, s.Values[0] = "u"+strconv.FormatInt(i, 10), 0
						subs = append(subs, s)
					}
					for _, r := range bd.SubmitMany(ctx, subs) {
						if r.Err != nil {
							b.Fatal(r.Err)
						}
					}
				}
			}
			m := throughputAlternating(b, env.Client, 64, func(w int) func(i int64) error {
				return func(i int64) error {
					_, err := boards[w].Submit(ctx, sub(i))
					return err
				}
			}, 2)
			b.ReportMetric(m[0].opsPerSec(), "packed-ops/s")
			b.ReportMetric(m[1].opsPerSec(), "suffix-ops/s")
			b.ReportMetric(m[0].cpu/float64(m[0].ops)*1e6, "packed-redis-µs/op")
			b.ReportMetric(m[1].cpu/float64(m[1].ops)*1e6, "suffix-redis-µs/op")
			b.ReportMetric(medianRatio(m[1].blocks, m[0].blocks), "ratio")
		})
	}
}

// measured is what throughputAlternating measured of one variant: its
// calls, their time and the Redis CPU seconds they cost, in all and each
// block's throughput and CPU per call.
type measured struct {
	ops    int64
	wall   time.Duration
	cpu    float64
	blocks []float64
	// cpus is each block's Redis CPU seconds per call.
	cpus []float64
}

func (m measured) opsPerSec() float64 { return float64(m.ops) / m.wall.Seconds() }

// medianRatio is the median over the blocks of a[i] / b[i].
func medianRatio(a, b []float64) float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = a[i] / b[i]
	}
	slices.Sort(r)
	if len(r) == 0 {
		return 0
	}
	return r[len(r)/2]
}

// throughputAlternating makes b.N calls of each of n variants (call(w) is
// variant w's, given the call's index, the same indexes for each) from
// callers concurrent goroutines, in blocks alternating between the
// variants so that all see the same server, after a block of each that
// is not measured.
func throughputAlternating(b *testing.B, client rueidis.Client, callers int, call func(w int) func(int64) error, n int) []measured {
	ctx := context.Background()
	out := make([]measured, n)
	block := int64(max(callers*40, 1))
	next := make([]int64, n)
	// A first block of each, not counted, warms the server and the client
	// (a fresh server's first allocations cost it page faults).
	for done := -block; done < int64(b.N); done += block {
		size := min(block, int64(b.N)-done)
		for w := range n {
			f := call(w)
			before, err := redisops.CPUSeconds(ctx, client)
			if err != nil {
				b.Fatal(err)
			}
			var i atomic.Int64
			i.Store(next[w])
			end := next[w] + size
			var wg sync.WaitGroup
			var failed atomic.Pointer[error]
			start := time.Now()
			for range callers {
				wg.Go(func() {
					for {
						j := i.Add(1) - 1
						if j >= end {
							return
						}
						if err := f(j); err != nil {
							failed.CompareAndSwap(nil, &err)
							return
						}
					}
				})
			}
			wg.Wait()
			wall := time.Since(start)
			if err := failed.Load(); err != nil {
				b.Fatal(*err)
			}
			after, err := redisops.CPUSeconds(ctx, client)
			if err != nil {
				b.Fatal(err)
			}
			next[w] = end
			if done < 0 {
				continue
			}
			m := &out[w]
			m.ops += size
			m.wall += wall
			m.cpu += after - before
			m.blocks = append(m.blocks, float64(size)/wall.Seconds())
			m.cpus = append(m.cpus, (after-before)/float64(size))
		}
	}
	return out
}

// BenchmarkSubmitWithScoreRatio measures what ZRANK ... WITHSCORE saves a
// packed board's Best write on an engine that takes it (Redis 7.2+,
// Valkey 8): blocks of 16 concurrent callers' writes (10,000 ids, each
// write improving its entry) alternate between a board whose client sends
// it and one whose client is taken to be of an engine that refused it,
// and so sends ZSCORE and ZRANK as on Redis 7.0, on the same server. It
// reports each form's Redis CPU per write (withscore-redis-µs/op,
// zscore-redis-µs/op; used_cpu_user+sys) and the median over the blocks
// of the first over the second (cpu-ratio). On Redis 7.0 both boards send
// the 7.0 form, and the ratio is the run's noise.
func BenchmarkSubmitWithScoreRatio(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	boards := []*Board{
		newBoard(b, env.Client, env.Prefix, "withscore", testLayout(b), Options{}),
		newBoard(b, WithoutZRankWithScore(env.Client), env.Prefix, "zscore", testLayout(b), Options{}),
	}
	const ids = 10000
	sub := func(i int64) Submission {
		return Submission{ID: "u" + strconv.FormatInt(i%ids, 10), Values: []float64{float64(i/ids%1000 + 1), 1, 1}, Policy: Best}
	}
	m := throughputAlternating(b, env.Client, 16, func(w int) func(i int64) error {
		return func(i int64) error {
			_, err := boards[w].Submit(ctx, sub(i))
			return err
		}
	}, 2)
	b.ReportMetric(m[0].cpu/float64(m[0].ops)*1e6, "withscore-redis-µs/op")
	b.ReportMetric(m[1].cpu/float64(m[1].ops)*1e6, "zscore-redis-µs/op")
	b.ReportMetric(medianRatio(m[0].cpus, m[1].cpus), "cpu-ratio")
}
