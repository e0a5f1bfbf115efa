package decimalmap_test

import (
	"testing"

	"github.com/tiebreak/tiebreak/internal/benchload/gobench"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// BenchmarkRange100 is the bench command's decimalmap workload: a range
// of 100 keys over 20 integer parts, with their lists, read by
// decimalmap's one script and by the two-level decimal index bucket by
// bucket (121 round trips). serial is one caller's latency (the goal's
// case); parallel is throughput with requests pipelined. decimalmap
// reports x-two-level, the index's ns/op over its own.
func BenchmarkRange100(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "decimalmap")
	for _, mode := range []string{"serial", "parallel"} {
		b.Run(mode, func(b *testing.B) { gobench.Run(b, env, gobench.Comparison(b, f, mode)) })
	}
}
