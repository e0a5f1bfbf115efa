package board

import (
	"context"
	"strconv"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// BenchmarkShardHistogramWrite measures what the score histogram costs a
// sharded board's writes: Redis CPU per write (used_cpu_user+sys,
// redis-µs/op) of a board over 4 shards keeping histograms, and its ratio
// to the same board whose shards keep none, in the same run (blocks of
// writes alternating, cpuAlternating). Replace writes a new score each
// time, of 1,000 ids, so that most writes move their entry to another
// bucket (two HINCRBY); Best over 1,000 ids rarely changes a score; Add
// adds 1 to 3 points to one of 1,000 entries (Add), which
// moves it to another bucket now and then, as a game's scores grow;
// New adds a new id each write (one HINCRBY). SkipWriteRank keeps the
// ranking's reads out of the measure, but for ReplaceRanked: Replace as
// Submit makes it by default, ranked over the shards.
func BenchmarkShardHistogramWrite(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	with := newSharded(b, env.Client, env.Prefix, "hist", testLayout(b), Options{Shards: 4, SkipWriteRank: true})
	without := newSharded(b, env.Client, env.Prefix, "nohist", testLayout(b), Options{Shards: 4, SkipWriteRank: true, noHistogram: true})
	run := 0 // New's ids are new in every run
	writes := map[string]func(j int) Submission{
		"Replace": func(j int) Submission {
			return Submission{ID: "id" + strconv.Itoa(j%1000), Values: []float64{float64((j*7919 + j/1000*131) % 1000), float64(j % 2), float64(j % 200)}}
		},
		"Best": func(j int) Submission {
			return Submission{ID: "id" + strconv.Itoa(j%1000), Values: []float64{float64(j % 1000), float64(j % 2), float64(j % 200)}, Policy: Best}
		},
		"Add": func(j int) Submission {
			return Submission{ID: "add" + strconv.Itoa(j%1000), Values: []float64{float64(1 + j%3), 0, 0}, Fields: []Policy{Add, Replace, Replace}}
		},
		"New": func(j int) Submission {
			return Submission{ID: "new" + strconv.Itoa(run) + "." + strconv.Itoa(j), Values: []float64{float64(j * 7919 % 1000), float64(j % 2), float64(j % 200)}}
		},
	}
	ranked := newSharded(b, env.Client, env.Prefix, "rhist", testLayout(b), Options{Shards: 4})
	rankedWithout := newSharded(b, env.Client, env.Prefix, "rnohist", testLayout(b), Options{Shards: 4, noHistogram: true})
	for _, name := range []string{"Replace", "Best", "Add", "New", "ReplaceRanked"} {
		sub, boards := writes[name], []*Board{with, without}
		if name == "ReplaceRanked" {
			// Replace as Submit makes it by default: the write, then the
			// count before it on every other shard (its rank).
			sub, boards = writes["Replace"], []*Board{ranked, rankedWithout}
		}
		b.Run(name, func(b *testing.B) {
			run++
			cpu := cpuAlternating(b, env.Client, func(w int) func(int) error {
				return func(j int) error {
					_, err := boards[w].Submit(ctx, sub(j))
					return err
				}
			}, 2)
			b.ReportMetric(cpu[0]/float64(b.N)*1e6, "redis-µs/op")
			b.ReportMetric(cpu[1]/float64(b.N)*1e6, "redis-µs/op-without")
			b.ReportMetric(cpu[0]/cpu[1], "ratio")
		})
	}
}
