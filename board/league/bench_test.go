package league

import (
	"context"
	"strconv"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// BenchmarkLeagueWrite measures what a league write costs Redis per call
// (used_cpu_user+sys, the metric redis-µs/op) against a board's scripted
// write of the same entry (a board whose cap no write reaches) and a
// plain board's native write, in the same run: blocks of writes alternate
// between the three. Members' first results place them (1,000 members,
// cohorts of 50), later ones find their cohort: the metrics ratio-script
// and ratio-native.
func BenchmarkLeagueWrite(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	l := newLeague(b, env.Client, env.Prefix+"lg", Options{})
	s := season(l, 0)
	script, err := board.New(ctx, env.Client, env.Prefix+"script", testLayout(b), board.Options{Cap: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	native, err := board.New(ctx, env.Client, env.Prefix+"native", testLayout(b), board.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = "id" + strconv.Itoa(i)
	}
	writers := []func(board.Submission) error{
		func(sub board.Submission) error { _, err := s.Submit(ctx, sub); return err },
		func(sub board.Submission) error { _, err := script.Submit(ctx, sub); return err },
		func(sub board.Submission) error { _, err := native.Submit(ctx, sub); return err },
	}
	var cpu [3]float64
	const block = 200
	for i := 0; i < b.N; i += block {
		for k, w := range writers {
			d, err := cpuOf(ctx, env.Client, func() error {
				for j := i; j < min(i+block, b.N); j++ {
					if err := w(result(ids[j%len(ids)], float64(j%1000), float64(j%200))); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			cpu[k] += d
		}
	}
	b.ReportMetric(cpu[0]/float64(b.N)*1e6, "redis-µs/op")
	b.ReportMetric(cpu[0]/cpu[1], "ratio-script")
	b.ReportMetric(cpu[0]/cpu[2], "ratio-native")
}

// cpuOf returns the server CPU seconds that f cost.
func cpuOf(ctx context.Context, c rueidis.Client, f func() error) (float64, error) {
	before, err := redisops.CPUSeconds(ctx, c)
	if err != nil {
		return 0, err
	}
	if err := f(); err != nil {
		return 0, err
	}
	after, err := redisops.CPUSeconds(ctx, c)
	return after - before, err
}
