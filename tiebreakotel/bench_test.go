package tiebreakotel_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/observe"
	"github.com/tiebreak/tiebreak/tiebreakotel"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// observers are the cases of the benchmarks: no observer (the default),
// the Observer on OpenTelemetry's no-op providers (the API alone), and on
// the SDK's, every span sampled and every metric aggregated (nothing
// exported).
func observers(b *testing.B) []struct {
	name string
	obs  observe.Observer
} {
	noop, err := tiebreakotel.New(tiebreakotel.WithTracerProvider(tracenoop.NewTracerProvider()), tiebreakotel.WithMeterProvider(metricnoop.NewMeterProvider()))
	if err != nil {
		b.Fatal(err)
	}
	sdk, err := tiebreakotel.New(
		tiebreakotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()))),
		tiebreakotel.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))))
	if err != nil {
		b.Fatal(err)
	}
	return []struct {
		name string
		obs  observe.Observer
	}{{"observer=none", nil}, {"observer=otel-noop", noop}, {"observer=otel-sdk", sdk}}
}

// BenchmarkSubmit is the packed board write (Replace, ids uniform over
// 100,000) without an observer and with the OpenTelemetry one on no-op and
// SDK providers, in one run, so that their ratios hold on a busy machine.
func BenchmarkSubmit(b *testing.B) {
	env := redistest.New(b)
	l, err := board.New(context.Background(), env.Client, env.Prefix+"_layout", testLayout(b), board.Options{})
	if err != nil {
		b.Fatal(err)
	}
	layout := l.Layout()
	for i, c := range observers(b) {
		b.Run(c.name, func(b *testing.B) {
			bd, err := board.New(b.Context(), env.Client, env.Prefix+"_"+strconv.Itoa(i), layout, board.Options{Observer: c.obs})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				rng := rand.New(rand.NewPCG(rand.Uint64(), 0))
				for pb.Next() {
					s := board.Submission{ID: "p" + strconv.Itoa(rng.IntN(100_000)), Values: []float64{float64(rng.IntN(1 << 20)), float64(rng.IntN(1 << 20))}}
					if _, err := bd.Submit(context.Background(), s); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkStartEnd is the observer's own work for one operation, without
// Redis: Start, then End with a write's outcome (or a failure's).
func BenchmarkStartEnd(b *testing.B) {
	op := observe.Op{Package: "board", Name: "Submit", Object: "arena", Strategy: "PackedScore", Policy: "Replace"}
	ok := observe.Outcome{Has: observe.HasRank | observe.HasChanged | observe.HasTrimmed, Rank: 7, Changed: true}
	failed := observe.Outcome{Err: errors.New("board: id \"\": invalid id"), ErrKind: "board.ErrArgument"}
	for _, c := range observers(b) {
		if c.obs == nil {
			continue
		}
		for _, out := range []struct {
			name string
			o    observe.Outcome
		}{{"ok", ok}, {"failed", failed}} {
			b.Run(c.name+"/outcome="+out.name, func(b *testing.B) {
				b.ReportAllocs()
				ctx := context.Background()
				for b.Loop() {
					_, s := c.obs.Start(ctx, op)
					s.End(out.o)
				}
			})
		}
	}
}
