package timeline

import (
	"context"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/internal/zerotest"
	"github.com/tiebreak/tiebreak/tsid"
)

// Every call given a nil context.Context is refused with ErrArgument
// before anything is sent: none panics or waits.
func TestNilContextIsRefused(t *testing.T) {
	env := redistest.New(t)
	const id = uint64(1) << 40
	for _, s := range []Strategy{LexID, SplitScore} {
		tl, err := New(env.Client, env.Prefix+"nilctx"+s.String(), tsid.TSID, Options{Strategy: s})
		if err != nil {
			t.Fatal(err)
		}
		zerotest.NilContext(t, tl, map[string]func(context.Context) error{
			"Get":    func(ctx context.Context) error { _, err := tl.Get(ctx, id); return err },
			"Latest": func(ctx context.Context) error { _, err := tl.Latest(ctx, 10); return err },
			"Oldest": func(ctx context.Context) error { _, err := tl.Oldest(ctx, 10); return err },
			"Before": func(ctx context.Context) error { _, err := tl.Before(ctx, id, 10); return err },
			"After":  func(ctx context.Context) error { _, err := tl.After(ctx, id, 10); return err },
			"Around": func(ctx context.Context) error { _, err := tl.Around(ctx, id, 10); return err },
			"Len":    func(ctx context.Context) error { _, err := tl.Len(ctx); return err },
			"Drop":   func(ctx context.Context) error { return tl.Drop(ctx) },
			"Append": func(ctx context.Context) error { return tl.Append(ctx, id, []byte("x")) },
			"AppendMany": func(ctx context.Context) error {
				return tl.AppendMany(ctx, []Message[uint64]{{ID: id, Payload: []byte("x")}})
			},
			"Remove": func(ctx context.Context) error { _, err := tl.Remove(ctx, id); return err },
			"Trim":   func(ctx context.Context) error { _, err := tl.Trim(ctx); return err },
		}, ErrArgument)
	}
}
