package board

import (
	"errors"
	"fmt"
	"maps"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// pointsBound bounds testLayout's points to [10, 500].
var pointsBound = []Bound{{Field: "points", Min: 10, Max: 500}}

// On every kind of board of one hash tag, and on a sharded board, on one
// server and on a cluster: a value at a bound is stored, one past it is
// refused with ErrOutOfBounds (an ErrArgument) and changes nothing,
// whatever the policy, the result of a write field by field included.
func TestBoundsEveryKind(t *testing.T) {
	for where, env := range serverAndCluster(t) {
		kinds := append(append([]string{}, tournamentKinds...), "sharded")
		for i, k := range kinds {
			t.Run(where+"/"+k, func(t *testing.T) {
				prefix := fmt.Sprintf("%s%d_", env.Prefix, i)
				var b *Board
				if k == "sharded" {
					var err error
					if b, err = New(t.Context(), env.Client, prefix+"sh", testLayout(t), Options{Shards: 3, Bounds: pointsBound}); err != nil {
						t.Fatal(err)
					}
				} else {
					b = kindBoard(t, env.Client, prefix, k, Options{Bounds: pointsBound})
				}
				checkBounds(t, b, func() map[string]string { return snapshot(t, env.Client, "*"+prefix+"*") })
			})
		}
	}
}

func checkBounds(t *testing.T, b *Board, keys func() map[string]string) {
	ctx := t.Context()
	for _, pts := range []float64{10, 500} {
		if _, err := b.Submit(ctx, Submission{ID: "at", Values: []float64{pts, 0, 1}}); err != nil {
			t.Errorf("a value at its bound, %v: %v", pts, err)
		}
	}
	if _, err := b.Submit(ctx, Submission{ID: "add", Values: []float64{490, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	before := keys()
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrOutOfBounds) || !errors.Is(err, ErrArgument) {
			t.Errorf("%s: %v, want ErrOutOfBounds", what, err)
		}
	}
	for _, s := range []Submission{
		{ID: "low", Values: []float64{9, 0, 1}},
		{ID: "high", Values: []float64{501, 0, 1}, Policy: Best},
		{ID: "add", Values: []float64{11, 0, 1}, Fields: []Policy{Add, Keep, Keep}},
		{ID: "new", Values: []float64{5, 0, 1}, Fields: []Policy{Add, Replace, Replace}},
		{ID: "add", Values: []float64{-481, 0, 1}, Fields: []Policy{Add, Keep, Keep}},
	} {
		_, err := b.Submit(ctx, s)
		refused(fmt.Sprintf("Submit(%+v)", s), err)
	}
	_, err := b.Update(ctx, "add", func(*Entry) ([]float64, error) { return []float64{600, 0, 1}, nil })
	refused("an Update past the bound", err)
	res := b.SubmitMany(ctx, []Submission{{ID: "m1", Values: []float64{600, 0, 1}}, {ID: "add", Values: []float64{20, 0, 1}, Fields: []Policy{Add, Keep, Keep}}})
	refused("SubmitMany's first", res[0].Err)
	refused("SubmitMany's Add", res[1].Err)
	if after := keys(); !maps.Equal(after, before) {
		t.Errorf("refused writes changed the board's keys")
	}
	if r, err := b.Submit(ctx, Submission{ID: "add", Values: []float64{10, 0, 1}, Fields: []Policy{Add, Keep, Keep}}); err != nil || r.Entry.Values[0] != 500 {
		t.Errorf("an Add up to the bound: %v, %v", r.Entry.Values, err)
	}
}

// Bounds are a stored setting: Open reads them, New refuses others, bad
// bounds are refused; a group write checks every board's bounds before
// writing any.
func TestBoundsSettings(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	if _, err := New(ctx, env.Client, env.Prefix+"b", l, Options{Bounds: pointsBound}); err != nil {
		t.Fatal(err)
	}
	o, err := Open(ctx, env.Client, env.Prefix+"b", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Options().Bounds; len(got) != 1 || got[0] != pointsBound[0] {
		t.Errorf("Open's bounds = %v, want %v", got, pointsBound)
	}
	if _, err := New(ctx, env.Client, env.Prefix+"b", l, Options{Bounds: []Bound{{Field: "points", Min: 0, Max: 500}}}); !errors.Is(err, ErrMismatch) {
		t.Errorf("New with other bounds: %v, want ErrMismatch", err)
	}
	if _, err := New(ctx, env.Client, env.Prefix+"b", l, Options{}); !errors.Is(err, ErrMismatch) {
		t.Errorf("New without the bounds: %v, want ErrMismatch", err)
	}
	for _, bad := range [][]Bound{
		{{Field: "nope", Min: 0, Max: 1}},
		{{Field: "points", Min: 5, Max: 4}},
		{{Field: "points", Min: -1, Max: 4}},
		{{Field: "points", Min: 0, Max: 1e9}},
		{{Field: "points", Min: 0, Max: 4}, {Field: "points", Min: 0, Max: 5}},
	} {
		if _, err := New(ctx, env.Client, env.Prefix+"bad", l, Options{Bounds: bad}); !errors.Is(err, ErrOptions) {
			t.Errorf("bounds %v: %v, want ErrOptions", bad, err)
		}
	}
	a, err := New(ctx, env.Client, "a", l, Options{Group: env.Prefix + "g"})
	if err != nil {
		t.Fatal(err)
	}
	bb, err := New(ctx, env.Client, "b", l, Options{Group: env.Prefix + "g", Bounds: pointsBound})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGroup(a, bb)
	if err != nil {
		t.Fatal(err)
	}
	before := dumpKeys(t, env)
	_, err = g.Submit(ctx, []Submission{{ID: "x", Values: []float64{600, 0, 1}}, {ID: "x", Values: []float64{9, 0, 1}, Fields: []Policy{Add, Replace, Replace}}})
	if !errors.Is(err, ErrOutOfBounds) {
		t.Errorf("a group write past one board's bound: %v, want ErrOutOfBounds", err)
	}
	if after := dumpKeys(t, env); !maps.Equal(after, before) {
		t.Errorf("the refused group write changed keys")
	}
}
