package board

import (
	"bytes"
	"context"
	"errors"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// Member data up to 64 KiB is stored; one byte more is refused, by
// Submit, SubmitMany and SetData, and changes nothing.
func TestDataBound(t *testing.T) {
	bothStrategies(t, Options{DenseRanks: true}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		full, over := bytes.Repeat([]byte("d"), maxDataLen), bytes.Repeat([]byte("o"), maxDataLen+1)
		mustSubmit(t, b, Submission{ID: "a", Values: []float64{5, 1, 1}, Data: full})
		before := snapshotBoard(t, b)
		if _, err := b.Submit(ctx, Submission{ID: "a", Values: []float64{9, 1, 1}, Data: over}); !errors.Is(err, ErrArgument) {
			t.Errorf("Submit with %d bytes of data: %v, want ErrArgument", len(over), err)
		}
		if _, err := b.Submit(ctx, Submission{ID: "new", Values: []float64{9, 1, 1}, Data: over}); !errors.Is(err, ErrArgument) {
			t.Errorf("Submit of a new id with %d bytes of data: %v, want ErrArgument", len(over), err)
		}
		if err := b.SetData(ctx, "a", over); !errors.Is(err, ErrArgument) {
			t.Errorf("SetData with %d bytes: %v, want ErrArgument", len(over), err)
		}
		res := b.SubmitMany(ctx, []Submission{{ID: "m", Values: []float64{9, 1, 1}, Data: over}})
		if !errors.Is(res[0].Err, ErrArgument) {
			t.Errorf("SubmitMany with %d bytes of data: %v, want ErrArgument", len(over), res[0].Err)
		}
		if diff := gocmp.Diff(before, snapshotBoard(t, b)); diff != "" {
			t.Errorf("refused writes changed the board (-want +got):\n%s", diff)
		}
	})
}

// A SubmitMany over 100,000 is refused whole, each submission with
// ErrArgument, and sends nothing.
func TestSubmitManyBound(t *testing.T) {
	env := redistest.New(t)
	b := newBoard(t, env.Client, env.Prefix, "b", testLayout(t), Options{})
	subs := make([]Submission, maxSubmitMany+1)
	for i := range subs {
		subs[i] = Submission{ID: "id", Values: []float64{1, 0, 0}}
	}
	for i, r := range b.SubmitMany(context.Background(), subs) {
		if !errors.Is(r.Err, ErrArgument) {
			t.Fatalf("SubmitMany of %d: result %d: %v, want ErrArgument", len(subs), i, r.Err)
		}
	}
	if n, err := b.Len(context.Background()); err != nil || n != 0 {
		t.Errorf("Len after the refused SubmitMany = %d, %v; want 0", n, err)
	}
}

// snapshotBoard returns every entry of b with its data, best first.
func snapshotBoard(t *testing.T, b *Board) []Entry {
	t.Helper()
	l, err := b.Page(context.Background(), 0, maxCount, WithData())
	if err != nil {
		t.Fatal(err)
	}
	return l.Entries
}
