package board

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// Among refuses what it says it refuses, before any Redis call.
func TestAmongRefuses(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newBoard(t, env.Client, env.Prefix, "among", testLayout(t), Options{})
	many := make([]string, maxAmong+1)
	for i := range many {
		many[i] = strconv.Itoa(i)
	}
	for _, c := range []struct {
		ids  []string
		opts []ReadOption
		want error
	}{
		{nil, nil, ErrArgument},
		{many, nil, ErrArgument},
		{[]string{"a", ""}, nil, errID},
		{[]string{strings.Repeat("x", defaultMaxIDLen+1)}, nil, errID},
		{[]string{"a"}, []ReadOption{WithRanks(Dense)}, errDenseDisabled},
		{[]string{"a"}, []ReadOption{WithRanks(RankKind(9))}, ErrArgument},
	} {
		if _, err := b.Among(ctx, c.ids, c.opts...); !errors.Is(err, c.want) {
			t.Errorf("Among(%d ids, %d opts): err = %v, want %v", len(c.ids), len(c.opts), err, c.want)
		}
	}
	if l, err := b.Among(ctx, many[:maxAmong]); err != nil || len(l.Entries) != 0 {
		t.Errorf("Among of maxAmong absent ids: %d entries, %v", len(l.Entries), err)
	}
}

// A friends list: positions among them, ranks on the board of every kind,
// member data, and who is not on the board.
func TestAmongFriends(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		b := newBoard(t, env.Client, env.Prefix, "friends"+s.String(), testLayout(t), Options{Strategy: s, DenseRanks: true})
		for i, v := range [][]float64{{50, 1, 3}, {40, 0, 1}, {40, 0, 1}, {40, 0, 1}, {30, 1, 0}, {10, 0, 0}} {
			mustSubmit(t, b, Submission{ID: "p" + strconv.Itoa(i), Values: v, Data: []byte{byte('a' + i)}})
		}
		got, err := b.Among(ctx, []string{"p5", "ghost", "p3", "p1", "p3"}, WithRanks(Competition, Dense), WithData(), WithTotal())
		if err != nil {
			t.Fatal(err)
		}
		want := List{Total: 6, Entries: []Entry{
			{ID: "p1", Values: []float64{40, 0, 1}, Rank: 2, Competition: 2, Dense: 2, Data: []byte("b")},
			{ID: "p3", Values: []float64{40, 0, 1}, Rank: 4, Competition: 2, Dense: 2, Data: []byte("d")},
			{ID: "p5", Values: []float64{10, 0, 0}, Rank: 6, Competition: 6, Dense: 4, Data: []byte("f")},
		}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v: Among (-want +got):\n%s", s, diff)
		}
		top, err := b.Top(ctx, 6, WithRanks(Competition, Dense))
		if err != nil {
			t.Fatal(err)
		}
		var ranks [][3]int64
		for _, e := range top.Entries {
			ranks = append(ranks, [3]int64{e.Rank, e.Competition, e.Dense})
		}
		if diff := cmp.Diff([][3]int64{{1, 1, 1}, {2, 2, 2}, {3, 2, 2}, {4, 2, 2}, {5, 5, 3}, {6, 6, 4}}, ranks); diff != "" {
			t.Errorf("%v: Top ranks (-want +got):\n%s", s, diff)
		}
	}
}
