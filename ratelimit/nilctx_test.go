package ratelimit

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
	l, err := New(env.Client, Options{Prefix: env.Prefix + ":"})
	if err != nil {
		t.Fatal(err)
	}
	zerotest.NilContext(t, l, map[string]func(context.Context) error{
		"Allow":  func(ctx context.Context) error { _, err := l.Allow(ctx, "k", PerSecond(1)); return err },
		"AllowN": func(ctx context.Context) error { _, err := l.AllowN(ctx, "k", PerSecond(1), 1); return err },
		"Reset":  func(ctx context.Context) error { return l.Reset(ctx, "k") },
	}, ErrArgument)
}
