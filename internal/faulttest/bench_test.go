package faulttest

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
)

// benchCallers is how many goroutines the "many callers" runs use.
const benchCallers = 16

// BenchmarkWriteWait measures one write of each package to a master with
// one replica, without waiting and waiting for the replica
// (Options.WaitReplicas 1), interleaved in the same run: "one caller" is
// a write's latency, "16 callers" the time per write of 16 concurrent
// callers (the inverse of throughput).
func BenchmarkWriteWait(b *testing.B) {
	_, _, client := redistest.PrivateReplicated(b)
	var seq atomic.Uint64
	objs := []objects{openObjects(b, client, "bench0", 0), openObjects(b, client, "bench1", 1)}
	for _, op := range benchWrites(&seq) {
		for replicas, o := range objs {
			name := fmt.Sprintf("%s/wait=%d", op.name, replicas)
			b.Run(name+"/one caller", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := op.write(o); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/%d callers", name, benchCallers), func(b *testing.B) {
				b.ReportAllocs()
				b.SetParallelism(max(1, benchCallers/runtime.GOMAXPROCS(0)))
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if err := op.write(o); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
	}
}

// benchWrite is one write of one package, on the objects given.
type benchWrite struct {
	name  string
	write func(o objects) error
}

func benchWrites(seq *atomic.Uint64) []benchWrite {
	ctx := context.Background()
	return []benchWrite{
		{"board Submit", func(o objects) error {
			n := seq.Add(1)
			_, err := o.board.Submit(ctx, board.Submission{ID: fmt.Sprint(n % 10_000), Values: []float64{float64(n % 50), 1, 2}})
			return err
		}},
		{"timeline Append", func(o objects) error { return o.tl.Append(ctx, seq.Add(1)<<22, []byte("hello")) }},
		{"decimalmap Add", func(o objects) error {
			_, err := o.dm.Add(ctx, fmt.Sprint(seq.Add(1)%10_000), "v")
			return err
		}},
		{"ratelimit Allow", func(o objects) error {
			_, err := o.lim.Allow(ctx, fmt.Sprint(seq.Add(1)%100), ratelimit.Limit{N: ratelimit.MaxN, Window: time.Second})
			return err
		}},
	}
}
