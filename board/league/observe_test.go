package league

import (
	"context"
	"sync"
	"testing"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/observe"
)

// opRecorder is an Observer that records every operation it is told of,
// with its outcome.
type opRecorder struct {
	mu   sync.Mutex
	ops  []observe.Op
	outs []observe.Outcome
}

func (r *opRecorder) Start(ctx context.Context, op observe.Op) (context.Context, observe.Span) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops = append(r.ops, op)
	r.outs = append(r.outs, observe.Outcome{})
	return ctx, &opSpan{r: r, i: len(r.ops) - 1}
}

type opSpan struct {
	r *opRecorder
	i int
}

func (s *opSpan) End(o observe.Outcome) {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.r.outs[s.i] = o
}

// Every call of a league that talks to Redis is reported once, under the
// league's name (and the season's label, for a Season's): a Submit with
// the rank and change it stored, as board's Submit reports them.
func TestObserved(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	rec := &opRecorder{}
	l := newLeague(t, env.Client, env.Prefix+"obs", Options{Board: board.Options{Observer: rec}})
	s := season(l, 0)
	label := s.Window().Label
	for _, c := range []struct {
		name, object string
		call         func() error
	}{
		{"Submit", l.Name() + ":" + label, func() error { _, err := s.Submit(ctx, result("a", 5, 1)); return err }},
		{"Cohort", l.Name() + ":" + label, func() error { _, err := s.Cohort(ctx, "a"); return err }},
		{"Cohorts", l.Name() + ":" + label, func() error { _, err := s.Cohorts(ctx, l.Options().Tiers[0]); return err }},
		{"Tier", l.Name(), func() error { _, err := l.Tier(ctx, "a"); return err }},
		{"History", l.Name(), func() error { _, err := l.History(ctx, "a"); return err }},
		{"Drop", l.Name(), func() error { return l.Drop(ctx) }},
	} {
		rec.mu.Lock()
		rec.ops, rec.outs = nil, nil
		rec.mu.Unlock()
		if err := c.call(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(rec.ops) != 1 || rec.ops[0].Package != "league" || rec.ops[0].Name != c.name || rec.ops[0].Object != c.object {
			t.Errorf("%s reported %+v, want league.%s of %q once", c.name, rec.ops, c.name, c.object)
			continue
		}
		if o := rec.outs[0]; c.name == "Submit" && (o.Has&observe.HasRank == 0 || o.Rank != 1 || !o.Changed) {
			t.Errorf("Submit reported %+v, want rank 1, changed", o)
		}
	}
}
