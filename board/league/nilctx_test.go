package league

import (
	"context"
	"errors"
	"testing"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/internal/zerotest"
)

// Every call given a nil context.Context is refused with ErrArgument
// before anything is sent: none panics or waits.
func TestNilContextIsRefused(t *testing.T) {
	env := redistest.New(t)
	lg, err := New(t.Context(), env.Client, env.Prefix+"nilctx", testLayout(t), period(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := lg.At(origin)
	zerotest.NilContext(t, lg, map[string]func(context.Context) error{
		"Drop":    func(ctx context.Context) error { return lg.Drop(ctx) },
		"Tier":    func(ctx context.Context) error { _, err := lg.Tier(ctx, "p1"); return err },
		"History": func(ctx context.Context) error { _, err := lg.History(ctx, "p1"); return err },
	}, ErrArgument)
	zerotest.NilContext(t, s, map[string]func(context.Context) error{
		"Cohort":  func(ctx context.Context) error { _, err := s.Cohort(ctx, "p1"); return err },
		"Cohorts": func(ctx context.Context) error { _, err := s.Cohorts(ctx, lg.Options().Tiers[0]); return err },
		"Roll":    func(ctx context.Context) error { return s.Roll(ctx) },
		"Submit": func(ctx context.Context) error {
			_, err := s.Submit(ctx, board.Submission{ID: "p1", Values: []float64{1, 1}})
			return err
		},
	}, ErrArgument)
	if _, err := New(nil, env.Client, env.Prefix+"nilctx", testLayout(t), period(), Options{}); !errors.Is(err, ErrArgument) {
		t.Errorf("New with a nil context: %v, want ErrArgument", err)
	}
}
