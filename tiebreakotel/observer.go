package tiebreakotel

import (
	"context"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tiebreak/tiebreak/observe"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/tiebreak/tiebreak/tiebreakotel"

// Attribute keys of the tiebreak namespace (see the package
// documentation).
const (
	// GroupKey is a board's group (Options.Group).
	GroupKey = attribute.Key("tiebreak.group")
	// KeyKey is a limiter's limited key.
	KeyKey = attribute.Key("tiebreak.key")
	// StrategyKey is the handle's storage strategy.
	StrategyKey = attribute.Key("tiebreak.strategy")
	// PolicyKey is a submission's policy, a Rank's kind or a limiter's
	// limit.
	PolicyKey = attribute.Key("tiebreak.policy")
	// NKey is the count the call asks for or gives.
	NKey = attribute.Key("tiebreak.n")
	// RankKey is the rank read or stored.
	RankKey = attribute.Key("tiebreak.rank")
	// CountKey is how many the call returned or affected.
	CountKey = attribute.Key("tiebreak.count")
	// ChangedKey says that a write changed the stored entry.
	ChangedKey = attribute.Key("tiebreak.changed")
	// TrimmedKey says that a board's cap removed the entry at once.
	TrimmedKey = attribute.Key("tiebreak.trimmed")
	// AllowedKey says that a limiter admitted the requests.
	AllowedKey = attribute.Key("tiebreak.allowed")
	// UpdateAttemptsKey is how many rounds an Update made.
	UpdateAttemptsKey = attribute.Key("tiebreak.update.attempts")
	// ConflictsKey is how many compare-and-sets an Update lost.
	ConflictsKey = attribute.Key("tiebreak.update.conflicts")
)

// Metric names (see the package documentation).
const (
	// DurationMetric is the histogram of every operation's duration, in
	// seconds.
	DurationMetric = "tiebreak.operation.duration"
	// ErrorsMetric counts failed operations by error.type.
	ErrorsMetric = "tiebreak.operation.errors"
	// RetriesMetric counts Update rounds after the first.
	RetriesMetric = "tiebreak.update.retries"
	// ConflictsMetric counts Update compare-and-sets lost.
	ConflictsMetric = "tiebreak.update.conflicts"
	// AdmitsMetric counts limiter calls that admitted.
	AdmitsMetric = "tiebreak.ratelimit.admits"
	// RefusalsMetric counts limiter calls that refused.
	RefusalsMetric = "tiebreak.ratelimit.refusals"
)

// durationBuckets are the histogram's bounds, in seconds: the database
// conventions' (1 ms to 10 s), with finer ones below a millisecond, where
// most Redis calls end.
var durationBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10}

// Option configures New. A nil Option changes nothing.
type Option func(*config)

type config struct {
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// WithTracerProvider sets the provider of the spans. Default: the global
// one, otel.GetTracerProvider().
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider sets the provider of the metrics. Default: the global
// one, otel.GetMeterProvider().
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.mp = mp }
}

// Observer traces and measures tiebreak operations; set it as a handle's
// Options.Observer. It is safe for concurrent use, and one Observer may
// serve any number of handles. Make one with New: a nil or zero Observer
// observes nothing.
type Observer struct {
	tracer    trace.Tracer
	duration  metric.Float64Histogram
	errors    metric.Int64Counter
	retries   metric.Int64Counter
	conflicts metric.Int64Counter
	admits    metric.Int64Counter
	refusals  metric.Int64Counter
	mu        sync.Mutex                        // serializes the writers of ops
	ops       atomic.Pointer[map[opKey]*opInfo] // copied on write: read without a lock
}

var _ observe.Observer = (*Observer)(nil)

// New returns an Observer with the providers of opts. It fails only when
// the meter refuses an instrument.
func New(opts ...Option) (*Observer, error) {
	c := config{}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	m := c.mp.Meter(ScopeName)
	o := &Observer{tracer: c.tp.Tracer(ScopeName)}
	var err error
	if o.duration, err = m.Float64Histogram(DurationMetric, metric.WithUnit("s"),
		metric.WithDescription("Duration of tiebreak operations, each one or more Redis calls."),
		metric.WithExplicitBucketBoundaries(durationBuckets...)); err != nil {
		return nil, err
	}
	counters := []struct {
		c          *metric.Int64Counter
		name, unit string
		desc       string
	}{
		{&o.errors, ErrorsMetric, "{error}", "Failed tiebreak operations, by the sentinel error they wrap (error.type)."},
		{&o.retries, RetriesMetric, "{retry}", "Rounds of board Updates after their first, each after a lost compare-and-set."},
		{&o.conflicts, ConflictsMetric, "{conflict}", "Compare-and-sets of board Updates lost to another writer."},
		{&o.admits, AdmitsMetric, "{call}", "Limiter calls (Allow, AllowN) that admitted their requests."},
		{&o.refusals, RefusalsMetric, "{call}", "Limiter calls (Allow, AllowN) that refused their requests."},
	}
	for _, k := range counters {
		if *k.c, err = m.Int64Counter(k.name, metric.WithUnit(k.unit), metric.WithDescription(k.desc)); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// opKey identifies an operation's name.
type opKey struct{ pkg, name string }

// opInfo is what every call of one operation shares: its name and its
// metric attributes, built once.
type opInfo struct {
	name   string
	attrs  []attribute.KeyValue    // db.system.name, db.operation.name
	start  []trace.SpanStartOption // kind internal, attrs
	record []metric.RecordOption   // metrics, as Record takes it (no slice per call)
	add    []metric.AddOption      // metrics, as Add takes it
}

func (o *Observer) info(op observe.Op) *opInfo {
	k := opKey{op.Package, op.Name}
	if m := o.ops.Load(); m != nil {
		if info, ok := (*m)[k]; ok {
			return info
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	old := o.ops.Load()
	if old != nil {
		if info, ok := (*old)[k]; ok {
			return info
		}
	}
	name := op.FullName()
	attrs := []attribute.KeyValue{semconv.DBSystemNameRedis, semconv.DBOperationName(name)}
	set := metric.WithAttributeSet(attribute.NewSet(attrs...))
	info := &opInfo{name: name, attrs: attrs, record: []metric.RecordOption{set}, add: []metric.AddOption{set},
		start: []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...)}}
	m := make(map[opKey]*opInfo)
	if old != nil {
		maps.Copy(m, *old)
	}
	m[k] = info
	o.ops.Store(&m)
	return info
}

// Start starts the operation's span, a child of ctx's, and returns its
// context. The span starts with db.system.name and db.operation.name, for
// samplers; the other attributes are set only on a span that records. A
// nil ctx (which tiebreak's packages never pass: they refuse it) starts a
// span of no parent, as context.Background() would, rather than panic.
func (o *Observer) Start(ctx context.Context, op observe.Op) (context.Context, observe.Span) {
	if ctx == nil {
		ctx = context.Background()
	}
	if o == nil || o.tracer == nil {
		return ctx, noSpan{} // not made by New
	}
	info := o.info(op)
	ctx, sp := o.tracer.Start(ctx, info.name, info.start...)
	if sp.IsRecording() {
		sp.SetAttributes(opAttrs(op)...)
	}
	return ctx, &span{o: o, ctx: ctx, span: sp, info: info, object: op.Object, start: time.Now()}
}

// opAttrs are the attributes of op beside its name.
func opAttrs(op observe.Op) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 6)
	if op.Object != "" {
		attrs = append(attrs, semconv.DBCollectionName(op.Object))
	}
	if op.Group != "" {
		attrs = append(attrs, GroupKey.String(op.Group))
	}
	if op.Key != "" {
		attrs = append(attrs, KeyKey.String(op.Key))
	}
	if op.Strategy != "" {
		attrs = append(attrs, StrategyKey.String(op.Strategy))
	}
	if op.Policy != "" {
		attrs = append(attrs, PolicyKey.String(op.Policy))
	}
	if op.N != 0 {
		attrs = append(attrs, NKey.Int64(op.N))
	}
	return attrs
}

// noSpan is the span of an Observer not made by New: it records nothing.
type noSpan struct{}

// End does nothing.
func (noSpan) End(observe.Outcome) {}

// span is one operation under way.
type span struct {
	o      *Observer
	ctx    context.Context
	span   trace.Span
	info   *opInfo
	object string
	start  time.Time
}

// End ends the span with the outcome's attributes and status and records
// the metrics.
func (s *span) End(out observe.Outcome) {
	elapsed := time.Since(s.start).Seconds()
	if s.span.IsRecording() {
		s.span.SetAttributes(outcomeAttrs(out)...)
		if out.Err != nil {
			s.span.SetAttributes(semconv.ErrorTypeKey.String(errType(out)))
			s.span.RecordError(out.Err)
			s.span.SetStatus(codes.Error, out.Err.Error())
		}
	}
	s.span.End()
	s.record(out, elapsed)
}

// record adds the operation to the metrics.
func (s *span) record(out observe.Outcome, elapsed float64) {
	o, ctx := s.o, s.ctx
	if out.Err == nil {
		o.duration.Record(ctx, elapsed, s.info.record...)
	} else {
		failed := metric.WithAttributes(append(s.info.attrs[:len(s.info.attrs):len(s.info.attrs)], semconv.ErrorTypeKey.String(errType(out)))...)
		o.duration.Record(ctx, elapsed, failed)
		o.errors.Add(ctx, 1, failed)
	}
	if out.Has&observe.HasAttempts != 0 {
		if out.Attempts > 1 {
			o.retries.Add(ctx, int64(out.Attempts-1), s.info.add...)
		}
		if out.Conflicts > 0 {
			o.conflicts.Add(ctx, int64(out.Conflicts), s.info.add...)
		}
	}
	if out.Has&observe.HasAllowed != 0 {
		limiter := metric.WithAttributes(append(s.info.attrs[:len(s.info.attrs):len(s.info.attrs)], semconv.DBCollectionName(s.object))...)
		if out.Allowed {
			o.admits.Add(ctx, 1, limiter)
		} else {
			o.refusals.Add(ctx, 1, limiter)
		}
	}
}

// errType is the outcome's error.type: the sentinel's name, or _OTHER.
func errType(out observe.Outcome) string {
	if out.ErrKind != "" {
		return out.ErrKind
	}
	return semconv.ErrorTypeOther.Value.AsString()
}

// outcomeAttrs are the attributes of the outcome's result fields.
func outcomeAttrs(out observe.Outcome) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 6)
	if out.Has&observe.HasRank != 0 {
		attrs = append(attrs, RankKey.Int64(out.Rank))
	}
	if out.Has&observe.HasCount != 0 {
		attrs = append(attrs, CountKey.Int64(out.Count))
	}
	if out.Has&observe.HasChanged != 0 {
		attrs = append(attrs, ChangedKey.Bool(out.Changed))
	}
	if out.Has&observe.HasTrimmed != 0 {
		attrs = append(attrs, TrimmedKey.Bool(out.Trimmed))
	}
	if out.Has&observe.HasAllowed != 0 {
		attrs = append(attrs, AllowedKey.Bool(out.Allowed))
	}
	if out.Has&observe.HasAttempts != 0 {
		attrs = append(attrs, UpdateAttemptsKey.Int(out.Attempts), ConflictsKey.Int(out.Conflicts))
	}
	return attrs
}
