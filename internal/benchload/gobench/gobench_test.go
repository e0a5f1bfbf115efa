package gobench

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/tiebreak/tiebreak/internal/benchload"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestMeasureReports runs a variant of known cost through measure, from
// one caller and concurrently, and checks what it reports: every call
// made, its counter per operation, the time Redis spent in the commands
// it names, and the server's CPU.
func TestMeasureReports(t *testing.T) {
	env := redistest.New(t)
	key := env.Prefix + ":z"
	var calls, events atomic.Int64
	v := benchload.Variant{Name: "zadd", Commands: []string{"zadd"}, Counters: []benchload.Counter{{Name: "half", N: &events}},
		Op: func(ctx context.Context) error {
			if calls.Add(1)%2 == 0 {
				events.Add(1)
			}
			return env.Client.Do(ctx, env.Client.B().Zadd().Key(key).ScoreMember().ScoreMember(1, "m").Build()).Error()
		}}
	for _, callers := range []int{1, 0} {
		var ns float64
		r := testing.Benchmark(func(b *testing.B) {
			calls.Store(0) // testing.Benchmark calls this again with a greater b.N
			ns = measure(b, env, v, callers, nil)
		})
		if r.N < 1 || int64(r.N) != calls.Load() || !(ns > 0) {
			t.Fatalf("callers %d: %d ops, %d calls, %v ns/op", callers, r.N, calls.Load(), ns)
		}
		if h := r.Extra["half/op"]; h < 0.4 || h > 0.6 {
			t.Errorf("callers %d: half/op = %v, want about 0.5", callers, h)
		}
		if !(r.Extra["redis-µs/op"] > 0) || !(r.Extra["redis-cpu-µs/op"] > 0) {
			t.Errorf("callers %d: Redis's time not reported: %v", callers, r.Extra)
		}
	}
}
