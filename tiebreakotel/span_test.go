package tiebreakotel_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/observe"
	"github.com/tiebreak/tiebreak/pack"
	"github.com/tiebreak/tiebreak/tiebreakotel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// testLayout is points (20 bits, higher first) then time (20 bits, lower
// first).
func testLayout(t testing.TB) *pack.Layout {
	t.Helper()
	l, err := pack.NewLayout(pack.Field{Name: "points", Width: 20}, pack.Field{Name: "time", Width: 20, Dir: pack.LowerIsBetter})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestSubmitNestsUnderCallerAndOverCommands: a Submit's span is a child of
// the caller's span, and every command span of the rueidisotel-wrapped
// client during it is a child of the Submit's, for both ways a Submit
// reaches Redis: its script (EVALSHA) and the native MULTI/EXEC of a
// plain Replace.
func TestSubmitNestsUnderCallerAndOverCommands(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	b, err := board.New(t.Context(), r.client, env.Prefix+"_arena", testLayout(t), board.Options{Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		sub    board.Submission
		policy string
	}{
		{"script", board.Submission{ID: "ada", Values: []float64{10, 5}, Fields: []board.Policy{board.Add, board.Min}}, "Add,Min"},
		{"native", board.Submission{ID: "bob", Values: []float64{7, 9}}, "Replace"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, parent := r.tp.Tracer("test").Start(t.Context(), "request")
			from := len(r.spans.Ended())
			res, err := b.Submit(ctx, c.sub)
			parent.End()
			if err != nil {
				t.Fatal(err)
			}
			ours := r.ours(from)
			if len(ours) != 1 {
				t.Fatalf("%d spans of the observer, want 1 (board.Submit)", len(ours))
			}
			s := ours[0]
			if s.Name() != "board.Submit" || s.SpanKind() != trace.SpanKindInternal {
				t.Errorf("span %q of kind %v, want board.Submit, internal", s.Name(), s.SpanKind())
			}
			if s.Parent().SpanID() != parent.SpanContext().SpanID() {
				t.Errorf("board.Submit's parent is %v, want the caller's span %v", s.Parent().SpanID(), parent.SpanContext().SpanID())
			}
			cmds := r.children(s.SpanContext())
			if len(cmds) == 0 {
				t.Fatal("no command span under board.Submit")
			}
			for _, cmd := range cmds {
				t.Logf("command span %q", cmd.Name())
				if cmd.SpanKind() != trace.SpanKindClient || cmd.InstrumentationScope().Name == tiebreakotel.ScopeName {
					t.Errorf("child %q of kind %v from %q, want the client's command spans", cmd.Name(), cmd.SpanKind(), cmd.InstrumentationScope().Name)
				}
			}
			// No command span of the call escaped the Submit span.
			for _, other := range r.children(parent.SpanContext()) {
				if other.SpanContext().SpanID() != s.SpanContext().SpanID() {
					t.Errorf("span %q is a sibling of board.Submit, want it under it", other.Name())
				}
			}
			got := attrs(s)
			want := map[attribute.Key]attribute.Value{
				"db.system.name":     attribute.StringValue("redis"),
				"db.operation.name":  attribute.StringValue("board.Submit"),
				"db.collection.name": attribute.StringValue(b.Name()),
				"tiebreak.strategy":  attribute.StringValue("PackedScore"),
				"tiebreak.policy":    attribute.StringValue(c.policy),
				"tiebreak.rank":      attribute.Int64Value(res.Entry.Rank),
				"tiebreak.changed":   attribute.BoolValue(res.Changed),
				"tiebreak.trimmed":   attribute.BoolValue(false),
			}
			if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b attribute.Value) bool { return a == b })); diff != "" {
				t.Errorf("attributes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMismatchRecordedBySentinel: a handle whose board another handle
// migrated to other settings gets ErrMismatch; its span says so (error.type,
// status, exception event) and the errors counter counts it once.
func TestMismatchRecordedBySentinel(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	ctx := t.Context()
	name := env.Prefix + "_moved"
	old, err := board.New(ctx, r.client, name, testLayout(t), board.Options{Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Submit(ctx, board.Submission{ID: "ada", Values: []float64{1, 1}}); err != nil {
		t.Fatal(err)
	}
	other, err := board.Open(ctx, env.Client, name, board.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Migrate(ctx, testLayout(t), board.Options{DenseRanks: true}, board.MigrateOptions{}); err != nil {
		t.Fatal(err)
	}

	from := len(r.spans.Ended())
	_, err = old.Submit(ctx, board.Submission{ID: "bob", Values: []float64{2, 2}})
	if !errors.Is(err, board.ErrMismatch) {
		t.Fatalf("Submit after the migration: %v, want ErrMismatch", err)
	}
	ours := r.ours(from)
	if len(ours) != 1 {
		t.Fatalf("%d spans, want 1", len(ours))
	}
	s := ours[0]
	if got := attrs(s)["error.type"]; got != attribute.StringValue("board.ErrMismatch") {
		t.Errorf("error.type = %v, want board.ErrMismatch", got.Emit())
	}
	if s.Status().Code != codes.Error || s.Status().Description != err.Error() {
		t.Errorf("status %v %q, want Error with the error's text", s.Status().Code, s.Status().Description)
	}
	if !hasException(s, err.Error()) {
		t.Errorf("no exception event with the error's text among %v", s.Events())
	}
	if _, ok := attrs(s)["tiebreak.rank"]; ok {
		t.Errorf("a failed Submit reports a rank")
	}
	rm := r.metrics(t)
	op := attribute.String("db.operation.name", "board.Submit")
	if n := counter(t, rm, tiebreakotel.ErrorsMetric, op, attribute.String("error.type", "board.ErrMismatch")); n != 1 {
		t.Errorf("errors{board.Submit, board.ErrMismatch} = %d, want 1", n)
	}
	if n := histCount(t, rm, tiebreakotel.DurationMetric, op); n != 2 {
		t.Errorf("duration of board.Submit recorded %d times, want 2", n)
	}
}

// hasException reports whether s has an exception event with message msg.
func hasException(s sdktrace.ReadOnlySpan, msg string) bool {
	for _, e := range s.Events() {
		if e.Name != "exception" {
			continue
		}
		for _, kv := range e.Attributes {
			if kv.Key == "exception.message" && kv.Value.AsString() == msg {
				return true
			}
		}
	}
	return false
}

// TestMigrateKeepsTheObserver: a Migrate is one span, over its steps'
// commands, and the handle it returns keeps the board's observer when its
// options name none; a Periodic's boards and reads have it too.
func TestMigrateKeepsTheObserver(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	ctx := t.Context()
	b, err := board.New(ctx, r.client, env.Prefix+"_migrating", testLayout(t), board.Options{Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Submit(ctx, board.Submission{ID: "ada", Values: []float64{1, 2}}); err != nil {
		t.Fatal(err)
	}
	from := len(r.spans.Ended())
	moved, err := b.Migrate(ctx, testLayout(t), board.Options{DenseRanks: true}, board.MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := moved.Rank(ctx, "ada", board.Dense); err != nil {
		t.Fatal(err)
	}
	p, err := board.NewPeriodic(r.client, env.Prefix+"_weekly", testLayout(t), board.Weekly(nil), time.Hour, board.Options{Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.At(time.Now()).Submit(ctx, board.Submission{ID: "ada", Values: []float64{1, 2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Windows(ctx); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range r.ours(from) {
		names = append(names, s.Name())
		if s.Name() == "board.Migrate" && len(r.children(s.SpanContext())) < 3 {
			t.Errorf("board.Migrate has %d command spans under it, want its steps' (begin, copy, switch)", len(r.children(s.SpanContext())))
		}
	}
	if diff := cmp.Diff([]string{"board.Migrate", "board.Rank", "board.Submit", "board.Periodic.Windows"}, names); diff != "" {
		t.Errorf("spans (-want +got):\n%s", diff)
	}
}

// TestOpenWithObserver: a handle built by Open takes an observer with
// WithObserver, and the handle it came from stays unobserved.
func TestOpenWithObserver(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	ctx := t.Context()
	name := env.Prefix + "_opened"
	if _, err := board.New(ctx, env.Client, name, testLayout(t), board.Options{Strategy: board.KeySuffix, DenseRanks: true}); err != nil {
		t.Fatal(err)
	}
	opened, err := board.Open(ctx, r.client, name, board.Options{})
	if err != nil {
		t.Fatal(err)
	}
	observed, err := board.Open(ctx, r.client, name, board.Options{Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(opened.Options(), observed.Options(), cmpopts.IgnoreFields(board.Options{}, "Observer"), cmpopts.IgnoreUnexported(board.Options{})); diff != "" {
		t.Errorf("settings (-opened +observed):\n%s", diff)
	}
	if _, err := opened.Submit(ctx, board.Submission{ID: "ada", Values: []float64{3, 4}}); err != nil {
		t.Fatal(err)
	}
	if n := len(r.ours(0)); n != 0 {
		t.Fatalf("the opened handle made %d spans, want none", n)
	}
	rank, err := observed.Rank(ctx, "ada", board.Dense)
	if err != nil {
		t.Fatal(err)
	}
	ours := r.ours(0)
	if len(ours) != 1 || ours[0].Name() != "board.Rank" {
		t.Fatalf("%d spans, want one board.Rank", len(ours))
	}
	got := attrs(ours[0])
	if got["tiebreak.rank"] != attribute.Int64Value(rank) || got["tiebreak.strategy"] != attribute.StringValue("KeySuffix") || got["tiebreak.policy"] != attribute.StringValue("Dense") {
		t.Errorf("attributes %v, want rank %d, strategy KeySuffix, policy Dense", got, rank)
	}
}

// A nil Option, which a list of options built on conditions may hold,
// changes nothing: New takes the others.
func TestNilOptionChangesNothing(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	obs, err := tiebreakotel.New(nil, tiebreakotel.WithTracerProvider(tp), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, span := obs.Start(t.Context(), observe.Op{Package: "board", Name: "Top"})
	span.End(observe.Outcome{})
	if got := len(spans.Ended()); got != 1 {
		t.Errorf("%d spans recorded by the provider given beside nil options, want 1", got)
	}
}

// An Observer not made by New, nil or zero, observes nothing: every call
// of a handle holding one works as without an observer.
func TestObserverNotMadeByNewObservesNothing(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	var none *tiebreakotel.Observer
	for i, obs := range []*tiebreakotel.Observer{none, {}} {
		b, err := board.New(ctx, env.Client, env.Prefix+"_"+string(rune('a'+i)), testLayout(t), board.Options{Observer: obs})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Submit(ctx, board.Submission{ID: "ada", Values: []float64{1, 2}}); err != nil {
			t.Fatal(err)
		}
		if l, err := b.Top(ctx, 10); err != nil || len(l.Entries) != 1 {
			t.Errorf("Top: %+v, %v; want ada", l, err)
		}
	}
}

// An UpdateFunc that panics ends its Update's span, as an error, and the
// panic reaches the caller.
func TestPanickingUpdateEndsItsSpan(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	ctx := t.Context()
	b, err := board.New(ctx, r.client, env.Prefix+"_panicking", testLayout(t), board.Options{Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	from := len(r.spans.Ended())
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Errorf("recovered %v, want the UpdateFunc's panic", p)
			}
		}()
		_, _ = b.Update(ctx, "ada", func(*board.Entry) ([]float64, error) { panic("boom") })
	}()
	spans := r.ours(from)
	if len(spans) != 1 || spans[0].Name() != "board.Update" || spans[0].Status().Code != codes.Error {
		var got []string
		for _, s := range spans {
			got = append(got, s.Name()+" "+s.Status().Code.String())
		}
		t.Errorf("spans ended: %v; want board.Update Error", got)
	}
}

// Start given a nil context starts a span of no parent rather than panic:
// an Observer reports no error, and may be called by code of its own.
func TestStartWithANilContext(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	var none *tiebreakotel.Observer
	for _, obs := range []*tiebreakotel.Observer{r.obs, none, {}} {
		ctx, sp := obs.Start(nil, observe.Op{Package: "board", Name: "Top", Object: "arena"}) //nolint:staticcheck // the nil context tested
		if ctx == nil {
			t.Errorf("Start(nil) returned a nil context")
		}
		sp.End(observe.Outcome{})
	}
	if got := r.ours(0); len(got) != 1 || got[0].Parent().IsValid() {
		t.Errorf("spans %v, want one of no parent", got)
	}
}
