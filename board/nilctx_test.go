package board

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/errs"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/internal/zerotest"
)

// Every call given a nil context.Context, on every kind of board, is
// refused with ErrArgument before anything is sent: none panics or waits.
func TestNilContextIsRefused(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	b, err1 := New(ctx, env.Client, env.Prefix+"nilctx", l, Options{Hiding: true})
	sb, err2 := New(ctx, env.Client, env.Prefix+"nilctxs", l, Options{Shards: 2})
	gb, err3 := New(ctx, env.Client, "a", l, Options{Group: env.Prefix + "nilctxg"})
	p, err4 := NewPeriodic(env.Client, env.Prefix+"nilctxp", l, Weekly(time.UTC), 30*24*time.Hour, Options{})
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}
	last, err := p.period.Window(time.Now().Add(-7 * 24 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	sub := Submission{ID: "p1", Values: []float64{1, 0, 1}}
	if _, err := p.At(last.Start).Submit(ctx, sub); err != nil {
		t.Fatal(err)
	}
	for _, b := range []*Board{b, sb, gb, p.At(time.Now())} {
		zerotest.NilContext(t, b, boardCalls(b, sub), ErrArgument)
	}
	g, err := NewGroup(gb)
	if err != nil {
		t.Fatal(err)
	}
	zerotest.NilContext(t, g, map[string]func(context.Context) error{
		"Submit": func(ctx context.Context) error { _, err := g.Submit(ctx, []Submission{sub}); return err },
		"Remove": func(ctx context.Context) error { _, err := g.Remove(ctx, "p1"); return err },
	}, ErrArgument)
	zerotest.NilContext(t, p, map[string]func(context.Context) error{
		"Windows":  func(ctx context.Context) error { _, err := p.Windows(ctx); return err },
		"Archive":  func(ctx context.Context) error { _, err := p.Archive(ctx, last, ArchiveOptions{}); return err },
		"Archived": func(ctx context.Context) error { _, err := p.Archived(ctx, last); return err },
	}, ErrArgument)
	if _, err := New(nil, env.Client, env.Prefix+"nilctx", l, Options{}); !errors.Is(err, ErrArgument) {
		t.Errorf("New with a nil context: %v, want ErrArgument", err)
	}
	if _, err := Open(nil, env.Client, env.Prefix+"nilctx", Options{}); !errors.Is(err, ErrArgument) {
		t.Errorf("Open with a nil context: %v, want ErrArgument", err)
	}
	if err := Watch(nil, time.Second, topOf(b, 10), func(List) error { return nil }); !errors.Is(err, errs.NilCtx) {
		t.Errorf("Watch with a nil context: %v, want ErrArgument refusing the context", err)
	}
}

// boardCalls are b's methods taking a context, each with arguments it
// takes; those another argument or setting refuses (Join on a board
// without rules) still count, as the context is refused first.
func boardCalls(b *Board, sub Submission) map[string]func(context.Context) error {
	l := b.Layout()
	return map[string]func(context.Context) error{
		"Among": func(ctx context.Context) error { _, err := b.Among(ctx, []string{"p1"}); return err },
		"Drop":  func(ctx context.Context) error { return b.Drop(ctx) },
		"Clear": func(ctx context.Context) error { return b.Clear(ctx) },
		"Hide":  func(ctx context.Context) error { _, err := b.Hide(ctx, "p1"); return err },
		"Show":  func(ctx context.Context) error { _, err := b.Show(ctx, "p1"); return err },
		"Migrate": func(ctx context.Context) error {
			_, err := b.Migrate(ctx, l, Options{DenseRanks: true}, MigrateOptions{})
			return err
		},
		"Percentile": func(ctx context.Context) error { _, err := b.Percentile(ctx, "p1"); return err },
		"Get":        func(ctx context.Context) error { _, err := b.Get(ctx, "p1"); return err },
		"Rank":       func(ctx context.Context) error { _, err := b.Rank(ctx, "p1", Ordinal); return err },
		"Len":        func(ctx context.Context) error { _, err := b.Len(ctx); return err },
		"Top":        func(ctx context.Context) error { _, err := b.Top(ctx, 10); return err },
		"Page":       func(ctx context.Context) error { _, err := b.Page(ctx, 0, 10); return err },
		"Around":     func(ctx context.Context) error { _, err := b.Around(ctx, "p1", 5); return err },
		"Between":    func(ctx context.Context) error { _, err := b.Between(ctx, 0, 100, 0, 10); return err },
		"Remove":     func(ctx context.Context) error { _, err := b.Remove(ctx, "p1"); return err },
		"SetData":    func(ctx context.Context) error { return b.SetData(ctx, "p1", []byte("x")) },
		"Join":       func(ctx context.Context) error { return b.Join(ctx, "p1") },
		"Entrant":    func(ctx context.Context) error { _, err := b.Entrant(ctx, "p1"); return err },
		"Scan":       func(ctx context.Context) error { _, err := b.Scan(ctx, "", 10); return err },
		"Reshard":    func(ctx context.Context) error { _, err := b.Reshard(ctx, 3, MigrateOptions{}); return err },
		"Submit":     func(ctx context.Context) error { _, err := b.Submit(ctx, sub); return err },
		"Update": func(ctx context.Context) error {
			_, err := b.Update(ctx, "p1", func(*Entry) ([]float64, error) { return sub.Values, nil })
			return err
		},
		"SubmitMany": func(ctx context.Context) error { return b.SubmitMany(ctx, []Submission{sub})[0].Err },
	}
}
