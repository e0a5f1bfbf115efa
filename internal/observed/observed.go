// Package observed runs an operation of a tiebreak handle under its
// observe.Observer: one call per public method, so that every handle type
// applies its observer the same way.
//
// A method checks its observer first and calls this package only when it
// has one, so that a handle without one pays a nil check and nothing else:
//
//	if b.opts.Observer != nil {
//		return observed.Call(ctx, b.opts.Observer, b.op("Len", 0), errKinds, b.length, observed.Count[int64])
//	}
//	return b.length(ctx)
//
// where op describes the operation, errKinds names the package's
// sentinels, and the last argument reads the outcome from the result.
package observed

import (
	"context"
	"errors"

	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/observe"
)

// Sentinel is one of a package's sentinel errors with its qualified name,
// "board.ErrMismatch".
type Sentinel struct {
	Err  error
	Name string
}

// Kind returns the name of the first of sentinels that err wraps, else
// "context.Canceled" or "context.DeadlineExceeded" for an error of the
// caller's context, "" when err is nil or none of these. List the more
// specific sentinels first (one that wraps another before it).
func Kind(err error, sentinels []Sentinel) string {
	if err == nil {
		return ""
	}
	for _, s := range sentinels {
		if errors.Is(err, s.Err) {
			return s.Name
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return "context.Canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "context.DeadlineExceeded"
	}
	return ""
}

// Call runs call with the context o starts for op, and ends the span with
// call's error, the sentinel it wraps and what out (when not nil) adds
// from its result to the outcome it is given. out sees the result also
// when call failed (a write that was not replicated returns both). It
// takes and returns the outcome by value: a pointer given to a function
// value would move it to the heap, one allocation per call. A call that
// panics (a caller's function it runs, such as an UpdateFunc, panicked)
// ends its span with ErrPanicked, and the panic goes on.
func Call[T any](ctx context.Context, o observe.Observer, op observe.Op, sentinels []Sentinel,
	call func(context.Context) (T, error), out func(T, observe.Outcome) observe.Outcome) (T, error) {
	ctx, span := o.Start(ctx, op)
	ended := false
	defer func() { endPanicked(span, ended) }()
	v, err := call(ctx)
	oc := observe.Outcome{Err: err, ErrKind: Kind(err, sentinels)}
	if out != nil {
		oc = out(v, oc)
	}
	ended = true
	span.End(oc)
	return v, err
}

// Do is Call for an operation that returns only an error.
func Do(ctx context.Context, o observe.Observer, op observe.Op, sentinels []Sentinel, call func(context.Context) error) error {
	ctx, span := o.Start(ctx, op)
	ended := false
	defer func() { endPanicked(span, ended) }()
	err := call(ctx)
	ended = true
	span.End(observe.Outcome{Err: err, ErrKind: Kind(err, sentinels)})
	return err
}

// ErrPanicked is the error of a span whose call panicked.
var ErrPanicked = errors.New("the call panicked")

// endPanicked ends span with ErrPanicked unless ended: deferred, it runs
// before a panic of the call goes on up, without recovering it.
func endPanicked(span observe.Span, ended bool) {
	if !ended {
		span.End(observe.Outcome{Err: ErrPanicked})
	}
}

// Count is an out for Call that reports n as the outcome's Count: when
// the call succeeded, or was applied but not replicated (a failed call's
// result counts nothing).
func Count[N int | int64](n N, o observe.Outcome) observe.Outcome {
	if o.Err != nil && !errors.Is(o.Err, durable.ErrNotReplicated) {
		return o
	}
	o.Count, o.Has = int64(n), o.Has|observe.HasCount
	return o
}
