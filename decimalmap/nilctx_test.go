package decimalmap

import (
	"context"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/internal/zerotest"
)

// Every call given a nil context.Context is refused with ErrArgument
// before anything is sent: none panics or waits.
func TestNilContextIsRefused(t *testing.T) {
	env := redistest.New(t)
	m, err := New(env.Client, env.Prefix+"nilctx", Options{})
	if err != nil {
		t.Fatal(err)
	}
	zerotest.NilContext(t, m, map[string]func(context.Context) error{
		"Add":         func(ctx context.Context) error { _, err := m.Add(ctx, "1.5", "v"); return err },
		"Get":         func(ctx context.Context) error { _, err := m.Get(ctx, "1.5"); return err },
		"Remove":      func(ctx context.Context) error { _, err := m.Remove(ctx, "1.5"); return err },
		"RemoveValue": func(ctx context.Context) error { _, err := m.RemoveValue(ctx, "1.5", "v"); return err },
		"Len":         func(ctx context.Context) error { _, err := m.Len(ctx); return err },
		"Drop":        func(ctx context.Context) error { return m.Drop(ctx) },
		"Range": func(ctx context.Context) error {
			_, err := m.Range(ctx, Query{Min: Inclusive("1"), Max: Unbounded()})
			return err
		},
		"Scan": func(ctx context.Context) error { _, err := m.Scan(ctx, "", 10); return err },
	}, ErrArgument)
}
