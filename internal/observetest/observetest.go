// Package observetest is an observe.Observer for tests: it records every
// operation it is told of, with its outcome.
package observetest

import (
	"context"
	"sync"

	"github.com/tiebreak/tiebreak/observe"
)

// Recorder records the operations started and their outcomes, in the
// order they started; safe for concurrent use.
type Recorder struct {
	mu   sync.Mutex
	ops  []observe.Op
	outs []observe.Outcome
}

// Start records op; its outcome is the zero Outcome until End.
func (r *Recorder) Start(ctx context.Context, op observe.Op) (context.Context, observe.Span) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops = append(r.ops, op)
	r.outs = append(r.outs, observe.Outcome{})
	return ctx, &span{r: r, i: len(r.ops) - 1}
}

// Take returns the operations and outcomes recorded since the last Take.
func (r *Recorder) Take() ([]observe.Op, []observe.Outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ops, outs := r.ops, r.outs
	r.ops, r.outs = nil, nil
	return ops, outs
}

type span struct {
	r *Recorder
	i int
}

func (s *span) End(o observe.Outcome) {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.r.outs[s.i] = o
}
