package league

import (
	"testing"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/observetest"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/observe"
)

// Every call of a league that talks to Redis is reported once, under the
// league's name (and the season's label, for a Season's, named
// Season.Method): a Submit with its policy and the rank and change it
// stored, as board's Submit reports them.
func TestObserved(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	rec := &observetest.Recorder{}
	l := newLeague(t, env.Client, env.Prefix+"obs", Options{Board: board.Options{Observer: rec}})
	s := season(l, 0)
	label := s.Window().Label
	for _, c := range []struct {
		name, object string
		call         func() error
	}{
		{"Season.Submit", l.Name() + ":" + label, func() error { _, err := s.Submit(ctx, result("a", 5, 1)); return err }},
		{"Season.Cohort", l.Name() + ":" + label, func() error { _, err := s.Cohort(ctx, "a"); return err }},
		{"Season.Cohorts", l.Name() + ":" + label, func() error { _, err := s.Cohorts(ctx, l.Options().Tiers[0]); return err }},
		{"Season.Roll", l.Name() + ":" + label, func() error { return s.Roll(ctx) }},
		{"Tier", l.Name(), func() error { _, err := l.Tier(ctx, "a"); return err }},
		{"History", l.Name(), func() error { _, err := l.History(ctx, "a"); return err }},
		{"Drop", l.Name(), func() error { return l.Drop(ctx) }},
	} {
		rec.Take()
		if err := c.call(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ops, outs := rec.Take()
		if len(ops) != 1 || ops[0].Package != "league" || ops[0].Name != c.name || ops[0].Object != c.object {
			t.Errorf("%s reported %+v, want league.%s of %q once", c.name, ops, c.name, c.object)
			continue
		}
		if o := outs[0]; c.name == "Season.Submit" && (o.Has&observe.HasRank == 0 || o.Rank != 1 || !o.Changed || ops[0].Policy != board.Best.String()) {
			t.Errorf("Season.Submit reported %+v of %+v, want rank 1, changed, policy Best", o, ops[0])
		}
	}
	// A write field by field is reported with its fields' policies, as
	// board reports it.
	l = newLeague(t, env.Client, env.Prefix+"obsfields", Options{Board: board.Options{Observer: rec}})
	s = season(l, 0)
	rec.Take()
	if _, err := s.Submit(ctx, board.Submission{ID: "a", Values: []float64{5, 1}, Fields: []board.Policy{board.Add, board.Keep}}); err != nil {
		t.Fatal(err)
	}
	if ops, _ := rec.Take(); len(ops) != 1 || ops[0].Policy != "Add,Keep" {
		t.Errorf("Season.Submit field by field reported %+v, want policy Add,Keep", ops)
	}
}
