package tiebreakotel_test

import (
	"context"
	"slices"
	"testing"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidisotel"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tiebreakotel"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// rig is an Observer on in-memory providers, and a client wrapped with
// rueidisotel on the same tracer provider, so that command spans land
// beside the operations'.
type rig struct {
	spans  *tracetest.SpanRecorder
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
	obs    *tiebreakotel.Observer
	client rueidis.Client
}

// newRig builds a rig over client (not closed: the tests share it).
func newRig(t testing.TB, client rueidis.Client) *rig {
	t.Helper()
	r := &rig{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	r.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))
	var err error
	if r.obs, err = tiebreakotel.New(tiebreakotel.WithTracerProvider(r.tp), tiebreakotel.WithMeterProvider(mp)); err != nil {
		t.Fatal(err)
	}
	r.client = rueidisotel.WithClient(client, rueidisotel.WithTracerProvider(r.tp))
	return r
}

// ours returns the ended spans of the Observer (not the client's), from
// the from-th ended span on.
func (r *rig) ours(from int) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range r.spans.Ended()[from:] {
		if s.InstrumentationScope().Name == tiebreakotel.ScopeName {
			out = append(out, s)
		}
	}
	return out
}

// children returns the ended spans whose parent is p.
func (r *rig) children(p trace.SpanContext) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range r.spans.Ended() {
		if s.Parent().SpanID() == p.SpanID() && s.Parent().TraceID() == p.TraceID() {
			out = append(out, s)
		}
	}
	return out
}

// metrics collects the metrics recorded so far.
func (r *rig) metrics(t testing.TB) metricdata.ResourceMetrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	return rm
}

// find returns the metric named name, or the zero Metrics.
func find(rm metricdata.ResourceMetrics, name string) metricdata.Metrics {
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				return m
			}
		}
	}
	return metricdata.Metrics{}
}

// counter returns the sum of the counter named name over the data points
// that hold every attribute of want.
func counter(t testing.TB, rm metricdata.ResourceMetrics, name string, want ...attribute.KeyValue) int64 {
	t.Helper()
	m := find(rm, name)
	if m.Name == "" {
		return 0
	}
	sum, ok := m.Data.(metricdata.Sum[int64])
	if !ok {
		t.Fatalf("%s is a %T, want a Sum[int64]", name, m.Data)
	}
	var n int64
	for _, dp := range sum.DataPoints {
		if holds(dp.Attributes, want) {
			n += dp.Value
		}
	}
	return n
}

// histCount returns how many values the histogram named name recorded
// with every attribute of want.
func histCount(t testing.TB, rm metricdata.ResourceMetrics, name string, want ...attribute.KeyValue) uint64 {
	t.Helper()
	m := find(rm, name)
	if m.Name == "" {
		return 0
	}
	h, ok := m.Data.(metricdata.Histogram[float64])
	if !ok {
		t.Fatalf("%s is a %T, want a Histogram[float64]", name, m.Data)
	}
	var n uint64
	for _, dp := range h.DataPoints {
		if holds(dp.Attributes, want) {
			n += dp.Count
		}
	}
	return n
}

func holds(set attribute.Set, want []attribute.KeyValue) bool {
	for _, kv := range want {
		v, ok := set.Value(kv.Key)
		if !ok || v != kv.Value {
			return false
		}
	}
	return true
}

// attrs returns a span's attributes by key.
func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := make(map[attribute.Key]attribute.Value)
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// keys returns the sorted keys of m.
func keys(m map[attribute.Key]attribute.Value) []string {
	var out []string
	for k := range m {
		out = append(out, string(k))
	}
	slices.Sort(out)
	return out
}
