package observed

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/observe"
)

var (
	errOuter = errors.New("outer")
	errInner = errors.New("inner")
)

// TestKind: the first sentinel err wraps names it; else an error of the
// caller's context its own kind; none, "".
func TestKind(t *testing.T) {
	sentinels := []Sentinel{{errOuter, "p.ErrOuter"}, {errInner, "p.ErrInner"}}
	both := fmt.Errorf("x: %w: %w", errInner, errOuter)
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("other"), ""},
		{fmt.Errorf("wrapped: %w", errInner), "p.ErrInner"},
		{both, "p.ErrOuter"},
		{fmt.Errorf("read: %w", context.Canceled), "context.Canceled"},
		{fmt.Errorf("read: %w", context.DeadlineExceeded), "context.DeadlineExceeded"},
		{fmt.Errorf("%w: %w", errInner, context.Canceled), "p.ErrInner"},
	} {
		if got := Kind(c.err, sentinels); got != c.want {
			t.Errorf("Kind(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

type ctxKey struct{}

// recorder is an Observer that records what it was told.
type recorder struct {
	ops  []observe.Op
	outs []observe.Outcome
}

func (r *recorder) Start(ctx context.Context, op observe.Op) (context.Context, observe.Span) {
	r.ops = append(r.ops, op)
	return context.WithValue(ctx, ctxKey{}, len(r.ops)), r
}

func (r *recorder) End(o observe.Outcome) { r.outs = append(r.outs, o) }

// TestCallAndDo: the call runs with the context Start returned, End is
// called once with the error, its kind and what out adds, and the call's
// results come back unchanged.
func TestCallAndDo(t *testing.T) {
	r := &recorder{}
	sentinels := []Sentinel{{errInner, "p.ErrInner"}}
	op := observe.Op{Package: "p", Name: "Read", N: 3}
	failure := fmt.Errorf("read: %w", errInner)
	v, err := Call(context.Background(), r, op, sentinels, func(ctx context.Context) (int64, error) {
		if ctx.Value(ctxKey{}) != 1 {
			t.Error("the call did not get the context Start returned")
		}
		return 42, failure
	}, func(n int64, o observe.Outcome) observe.Outcome { // sees the result of a failed call too
		o.Count, o.Has = n, observe.HasCount
		return o
	})
	if v != 42 || err != failure {
		t.Errorf("Call returned %d, %v; want 42, %v", v, err, failure)
	}
	err = Do(context.Background(), r, op, sentinels, func(ctx context.Context) error {
		if ctx.Value(ctxKey{}) != 2 {
			t.Error("the call did not get the context Start returned")
		}
		return nil
	})
	if err != nil {
		t.Errorf("Do: %v", err)
	}
	want := []observe.Outcome{
		{Err: failure, ErrKind: "p.ErrInner", Has: observe.HasCount, Count: 42},
		{},
	}
	if diff := cmp.Diff(want, r.outs, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]observe.Op{op, op}, r.ops); diff != "" {
		t.Errorf("ops (-want +got):\n%s", diff)
	}
}

// A call that panics ends its span with ErrPanicked, once, and the
// panic goes on to the caller.
func TestCallPanicking(t *testing.T) {
	r := &recorder{}
	op := observe.Op{Package: "p", Name: "Update"}
	for _, run := range []func(){
		func() {
			_, _ = Call(context.Background(), r, op, nil, func(context.Context) (int, error) { panic("boom") }, nil)
		},
		func() { _ = Do(context.Background(), r, op, nil, func(context.Context) error { panic("boom") }) },
	} {
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Errorf("recovered %v, want the call's panic", p)
				}
			}()
			run()
		}()
	}
	want := []observe.Outcome{{Err: ErrPanicked}, {Err: ErrPanicked}}
	if diff := cmp.Diff(want, r.outs, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// TestCount: a count is reported for a call that succeeded, or was applied
// but not replicated; a failed call's result counts nothing.
func TestCount(t *testing.T) {
	for _, c := range []struct {
		err  error
		want observe.Outcome
	}{
		{nil, observe.Outcome{Has: observe.HasCount, Count: 7}},
		{errInner, observe.Outcome{Err: errInner}},
		{durable.ErrNotReplicated, observe.Outcome{Err: durable.ErrNotReplicated, Has: observe.HasCount, Count: 7}},
	} {
		got := Count(7, observe.Outcome{Err: c.err})
		if diff := cmp.Diff(c.want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
			t.Errorf("Count(7) with error %v (-want +got):\n%s", c.err, diff)
		}
	}
}
