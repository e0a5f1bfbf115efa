package board

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// pts is a submission of id with points, asking for k ids passed.
func pts(id string, points float64, k int) Submission {
	return Submission{ID: id, Values: []float64{points, 0, 0}, Overtaken: k}
}

// On every kind of board of one hash tag, on one server and a cluster, a
// write returns the ids it passed, best first, at most as many as asked:
// those between its old place and its new one, those right behind a new
// entry, none for an entry that did not rise. A sharded board refuses to
// be asked (ErrArgument), writing nothing.
func TestOvertakenEveryKind(t *testing.T) {
	for where, env := range serverAndCluster(t) {
		for i, k := range tournamentKinds {
			t.Run(where+"/"+k, func(t *testing.T) {
				for _, s := range []Strategy{PackedScore, KeySuffix} {
					b := kindBoard(t, env.Client, fmt.Sprintf("%s%d%v_", env.Prefix, i, s), k, Options{Strategy: s, DenseRanks: s == KeySuffix})
					checkOvertaken(t, b)
				}
			})
		}
		sh, err := New(t.Context(), env.Client, env.Prefix+"sh", testLayout(t), Options{Shards: 2})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sh.Submit(t.Context(), pts("a", 1, 3)); !errors.Is(err, ErrArgument) {
			t.Errorf("%s: Overtaken on a sharded board: %v, want ErrArgument", where, err)
		}
		if n, _ := sh.Len(t.Context()); n != 0 {
			t.Errorf("%s: the refused write wrote %d entries", where, n)
		}
	}
}

func checkOvertaken(t *testing.T, b *Board) {
	ctx := t.Context()
	for _, s := range []Submission{pts("a", 10, 0), pts("b", 20, 0), pts("c", 30, 0)} {
		if _, err := b.Submit(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		s    Submission
		want []string
	}{
		{pts("d", 25, 5), []string{"b", "a"}},   // new: those behind it
		{pts("a", 35, 2), []string{"c", "d"}},   // from last to first: the best two passed
		{pts("a", 40, 3), []string{}},           // first already
		{pts("c", 5, 3), []string{}},            // down
		{pts("b", 50, 9), []string{"a", "d"}},   // from second to first
		{pts("e", 0, 0), nil},                   // not asked
		{pts("e", 26, 100), []string{"d", "c"}}, // up two
	} {
		got, err := b.Submit(ctx, c.s)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Overtaken, c.want) || (got.Overtaken == nil) != (c.want == nil) {
			t.Errorf("%s: Submit(%s to %v, Overtaken %d) passed %q, want %q", b.Name(), c.s.ID, c.s.Values[0], c.s.Overtaken, got.Overtaken, c.want)
		}
	}
	if _, err := b.Submit(ctx, pts("a", 1, 101)); !errors.Is(err, ErrArgument) {
		t.Errorf("Overtaken 101: %v, want ErrArgument", err)
	}
}

// A group's write returns each board's ids passed.
func TestOvertakenGroup(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	a, err := New(ctx, env.Client, "a", testLayout(t), Options{Group: env.Prefix + "g"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(ctx, env.Client, "b", testLayout(t), Options{Group: env.Prefix + "g", Strategy: KeySuffix})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGroup(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Submit(ctx, pts("x", 5, 0)); err != nil {
		t.Fatal(err)
	}
	res, err := g.Submit(ctx, []Submission{pts("y", 9, 3), pts("y", 9, 3)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res[0].Overtaken, []string{}) || !slices.Equal(res[1].Overtaken, []string{"x"}) {
		t.Errorf("a group write's ids passed: %q, %q; want none, x", res[0].Overtaken, res[1].Overtaken)
	}
}
