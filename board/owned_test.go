package board

import (
	"errors"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A handle keeps its own copies of the slices it is given and hands out
// copies of its own: a caller that reuses or changes its slice after
// NewGroup, New or NewPeriodic, or changes what Options returns, changes
// no handle (a group writes its own boards; bounds stay those stored).
func TestHandlesOwnTheirSlices(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	tag := env.Prefix + "_owned"
	t.Run("NewGroup", func(t *testing.T) {
		a := newBoard(t, env.Client, env.Prefix, "ga", testLayout(t), Options{Group: tag})
		b := newBoard(t, env.Client, env.Prefix, "gb", testLayout(t), Options{Group: tag})
		other := newBoard(t, env.Client, env.Prefix, "gother", testLayout(t), Options{Group: tag + "x"})
		boards := []*Board{a, b}
		g, err := NewGroup(boards...)
		if err != nil {
			t.Fatal(err)
		}
		boards[1] = other // the caller reuses its slice
		sub := Submission{ID: "x", Values: []float64{1, 0, 0}}
		if _, err := g.Submit(ctx, []Submission{sub, sub}); err != nil {
			t.Fatal(err)
		}
		nb, err1 := b.Len(ctx)
		no, err2 := other.Len(ctx)
		if err := errors.Join(err1, err2); err != nil || nb != 1 || no != 0 {
			t.Errorf("after the caller changed its slice, the group's second board holds %d, the other group's board %d (%v); want 1 and 0", nb, no, err)
		}
	})
	bounds := func() []Bound { return []Bound{{Field: "points", Min: 10, Max: 500}} }
	outside := Submission{ID: "out", Values: []float64{700, 0, 0}}
	for _, kind := range []struct {
		name string
		o    Options
	}{{"plain", Options{}}, {"sharded", Options{Shards: 2}}} {
		t.Run(kind.name, func(t *testing.T) {
			o := kind.o
			o.Bounds = bounds()
			b := newBoard(t, env.Client, env.Prefix, "bounds"+kind.name, testLayout(t), o)
			o.Bounds[0].Max = 1000 // the caller's slice, given to New
			got := b.Options()
			got.Bounds[0].Min, got.Bounds[0].Max = 600, 500 // the caller's copy
			if _, err := b.Submit(ctx, outside); !errors.Is(err, ErrOutOfBounds) {
				t.Errorf("Submit of 700 over a bound of 500 after the caller changed its slices: %v, want ErrOutOfBounds", err)
			}
			if err := b.Drop(ctx); err != nil {
				t.Errorf("Drop after the caller changed its copy of Options().Bounds: %v", err)
			}
		})
	}
	t.Run("periodic", func(t *testing.T) {
		o := Options{Bounds: bounds()}
		p, err := NewPeriodic(env.Client, env.Prefix+"_ownedweekly", testLayout(t), Weekly(time.UTC), time.Hour, o)
		if err != nil {
			t.Fatal(err)
		}
		o.Bounds[0].Max = 1000
		w := p.At(time.Now())
		t.Cleanup(func() { _ = w.Drop(ctx) })
		if _, err := w.Submit(ctx, outside); !errors.Is(err, ErrOutOfBounds) {
			t.Errorf("a window's Submit of 700 over a bound of 500 after the caller changed its slice: %v, want ErrOutOfBounds", err)
		}
	})
}
