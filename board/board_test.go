package board

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

func mustSubmit(t *testing.T, b *Board, s Submission) Result {
	t.Helper()
	r, err := b.Submit(context.Background(), s)
	if err != nil {
		t.Fatalf("Submit(%+v): %v", s, err)
	}
	return r
}

func idsOf(l List) []string {
	out := []string{}
	for _, e := range l.Entries {
		out = append(out, e.ID)
	}
	return out
}

// Points high first, then paid first, then earliest.
func TestPointsThenPaidThenEarliest(t *testing.T) {
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 20},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 32, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run(s.String(), func(t *testing.T) {
			env := redistest.New(t)
			b := newBoard(t, env.Client, env.Prefix, "ppt", l, Options{Strategy: s})
			for _, p := range []struct {
				id                string
				points, paid, sec float64
			}{{"A", 100, 1, 1571819021}, {"B", 200, 0, 1571819021}, {"C", 200, 1, 1571819021}, {"D", 400, 0, 1571819021}, {"E", 200, 1, 1571810001}} {
				mustSubmit(t, b, Submission{ID: p.id, Values: []float64{p.points, p.paid, p.sec}})
			}
			top, err := b.Top(context.Background(), 10)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"D", "E", "C", "B", "A"}, idsOf(top)); diff != "" {
				t.Errorf("ranking (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBestKeepsWholeTuple(t *testing.T) {
	l, _ := pack.NewLayout(pack.Field{Name: "points", Width: 20}, pack.Field{Name: "bonus", Width: 20})
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run(s.String(), func(t *testing.T) {
			env := redistest.New(t)
			b := newBoard(t, env.Client, env.Prefix, "best", l, Options{Strategy: s})
			mustSubmit(t, b, Submission{ID: "p", Values: []float64{100, 5}, Policy: Best})
			r := mustSubmit(t, b, Submission{ID: "p", Values: []float64{90, 9}, Policy: Best})
			if diff := cmp.Diff(Result{Entry: Entry{ID: "p", Values: []float64{100, 5}, Rank: 1}}, r); diff != "" {
				t.Errorf("worse submission (-want +got):\n%s", diff)
			}
			r = mustSubmit(t, b, Submission{ID: "p", Values: []float64{100, 6}, Policy: Best})
			if !r.Changed || r.Entry.Values[1] != 6 {
				t.Errorf("better submission: %+v", r)
			}
		})
	}
}

func TestFieldsAddAndRangeLeavesBoardUnchanged(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		mustSubmit(t, b, Submission{ID: "p", Values: []float64{1000, 1, 200}})
		r := mustSubmit(t, b, Submission{ID: "p", Values: []float64{20, 0, 50}, Fields: []Policy{Add, Keep, Replace}})
		if diff := cmp.Diff([]float64{1020, 1, 50}, r.Entry.Values); diff != "" {
			t.Errorf("add+keep+set (-want +got):\n%s", diff)
		}
		// time is 8 bits: 50 + 250 leaves the range; nothing may change,
		// nothing may carry into paid.
		_, err := b.Submit(ctx, Submission{ID: "p", Values: []float64{1, 0, 250}, Fields: []Policy{Add, Keep, Add}})
		if !errors.Is(err, errValue) || !errors.Is(err, pack.ErrOverflow) {
			t.Fatalf("overflowing add: err = %v, want errValue and pack.ErrOverflow", err)
		}
		e, err := b.Get(ctx, "p")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]float64{1020, 1, 50}, e.Values); diff != "" {
			t.Errorf("after a refused add (-want +got):\n%s", diff)
		}
		r = mustSubmit(t, b, Submission{ID: "p", Values: []float64{1, 0, 40}, Fields: []Policy{Max, Min, Min}})
		if diff := cmp.Diff([]float64{1020, 0, 40}, r.Entry.Values); diff != "" {
			t.Errorf("max+min (-want +got):\n%s", diff)
		}
	})
}

func TestRankKinds(t *testing.T) {
	bothStrategies(t, Options{DenseRanks: true}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		for _, p := range []struct {
			id  string
			pts float64
		}{{"a", 50}, {"b", 40}, {"c", 40}, {"d", 30}, {"e", 30}, {"f", 30}, {"g", 10}} {
			mustSubmit(t, b, Submission{ID: p.id, Values: []float64{p.pts, 1, 7}})
		}
		want := map[RankKind][]int64{
			Ordinal:     {1, 2, 3, 4, 5, 6, 7},
			Competition: {1, 2, 2, 4, 4, 4, 7},
			Dense:       {1, 2, 2, 3, 3, 3, 4},
		}
		for kind, w := range want {
			var got []int64
			for _, id := range []string{"a", "b", "c", "d", "e", "f", "g"} {
				r, err := b.Rank(ctx, id, kind)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, r)
			}
			if diff := cmp.Diff(w, got); diff != "" {
				t.Errorf("kind %d (-want +got):\n%s", kind, diff)
			}
		}
		// Removing the only 40s... one of them keeps dense ranks exact.
		if _, err := b.Remove(ctx, "b", "c"); err != nil {
			t.Fatal(err)
		}
		if r, _ := b.Rank(ctx, "g", Dense); r != 3 {
			t.Errorf("dense rank of g after removing the 40s = %d, want 3", r)
		}
	})
}

func TestDenseDisabled(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		mustSubmit(t, b, Submission{ID: "a", Values: []float64{1, 1, 1}})
		if _, err := b.Rank(context.Background(), "a", Dense); !errors.Is(err, errDenseDisabled) {
			t.Errorf("err = %v, want errDenseDisabled", err)
		}
	})
}

// The cap trims the worst entries whichever direction the first field
// sorts.
func TestCapBothDirections(t *testing.T) {
	for _, dir := range []pack.Direction{pack.HigherIsBetter, pack.LowerIsBetter} {
		l, _ := pack.NewLayout(pack.Field{Name: "v", Width: 16, Dir: dir}, pack.Field{Name: "w", Width: 4})
		for _, s := range []Strategy{PackedScore, KeySuffix} {
			t.Run(dir.String()+"/"+s.String(), func(t *testing.T) {
				env := redistest.New(t)
				b := newBoard(t, env.Client, env.Prefix, "cap", l, Options{Strategy: s, Cap: 3, DenseRanks: true})
				for i, v := range []float64{5, 1, 9, 3, 7} {
					r := mustSubmit(t, b, Submission{ID: string(rune('a' + i)), Values: []float64{v, 0}, Data: []byte("x")})
					// 7 is second best when higher wins, worst of four when lower does.
					if i == 4 && r.Trimmed != (dir == pack.LowerIsBetter) {
						t.Errorf("last submit: %+v", r)
					}
				}
				top, _ := b.Top(context.Background(), 10)
				want := []string{"c", "e", "a"} // 9, 7, 5
				if dir == pack.LowerIsBetter {
					want = []string{"b", "d", "a"} // 1, 3, 5
				}
				if diff := cmp.Diff(want, idsOf(top)); diff != "" {
					t.Errorf("capped board (-want +got):\n%s", diff)
				}
				r := mustSubmit(t, b, Submission{ID: "z", Values: []float64{map[pack.Direction]float64{0: 0, 1: 100}[dir], 0}})
				if !r.Trimmed || r.Entry.Rank != 0 {
					t.Errorf("a worst entry must be trimmed at once: %+v", r)
				}
				assertKeysHold(t, b, 3)
			})
		}
	}
}

// assertKeysHold checks that the side keys hold exactly n entries: the
// cap and removals clean up member data and the id HASH too.
func assertKeysHold(t *testing.T, b *Board, n int64) {
	t.Helper()
	ctx := context.Background()
	if b.suffix() {
		if got := len(lookupIDs(t, b)); int64(got) != n {
			t.Errorf("id lookup holds %d ids; want %d", got, n)
		}
		checkLookup(t, b)
	}
	for _, k := range []string{b.gen.Load().keys.d} {
		got, err := b.rc().Do(ctx, b.rc().B().Hlen().Key(k).Build()).AsInt64()
		if err != nil || got != n {
			t.Errorf("HLEN %s = %d, %v; want %d", k, got, err, n)
		}
	}
}

func TestMemberData(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		mustSubmit(t, b, Submission{ID: "a", Values: []float64{5, 0, 0}, Data: []byte(`{"name":"Ann"}`)})
		mustSubmit(t, b, Submission{ID: "b", Values: []float64{4, 0, 0}})
		if err := b.SetData(ctx, "b", []byte("\x00bin\xff")); err != nil {
			t.Fatal(err)
		}
		if err := b.SetData(ctx, "nobody", []byte("x")); !errors.Is(err, ErrNotFound) {
			t.Errorf("SetData of an absent id: err = %v, want ErrNotFound", err)
		}
		top, err := b.Top(ctx, 5, WithData())
		if err != nil {
			t.Fatal(err)
		}
		want := []Entry{
			{ID: "a", Values: []float64{5, 0, 0}, Rank: 1, Data: []byte(`{"name":"Ann"}`)},
			{ID: "b", Values: []float64{4, 0, 0}, Rank: 2, Data: []byte("\x00bin\xff")},
		}
		if diff := cmp.Diff(want, top.Entries); diff != "" {
			t.Errorf("Top with data (-want +got):\n%s", diff)
		}
		if e, _ := b.Get(ctx, "a"); e.Data != nil {
			t.Errorf("Get without WithData returned data %q", e.Data)
		}
		if e, _ := b.Get(ctx, "a", WithData()); string(e.Data) != `{"name":"Ann"}` {
			t.Errorf("Get WithData = %q", e.Data)
		}
		if _, err := b.Remove(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		assertKeysHold(t, b, 1)
	})
}

func TestAroundEdges(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		for i := 0; i < 10; i++ {
			mustSubmit(t, b, Submission{ID: string(rune('a' + i)), Values: []float64{float64(100 - i), 0, 0}})
		}
		for _, c := range []struct {
			id         string
			n          int
			firstRank  int64
			wantLength int
		}{{"a", 5, 1, 5}, {"b", 5, 1, 5}, {"e", 5, 3, 5}, {"e", 4, 4, 4}, {"j", 5, 6, 5}, {"e", 50, 1, 10}, {"e", 1, 5, 1}} {
			l, err := b.Around(ctx, c.id, c.n, WithTotal())
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Entries) != c.wantLength || l.Entries[0].Rank != c.firstRank || l.Total != 10 {
				t.Errorf("Around(%s, %d) = ranks from %d, %d entries; want from %d, %d", c.id, c.n, l.Entries[0].Rank, len(l.Entries), c.firstRank, c.wantLength)
			}
			// With no option a packed board reads with ZRANK and ZRANGE
			// (around.lua near the last entry): the same entries.
			bare, err := b.Around(ctx, c.id, c.n)
			if err != nil {
				t.Fatal(err)
			}
			l.Total = -1
			if diff := cmp.Diff(l, bare); diff != "" {
				t.Errorf("Around(%s, %d) with no option (-script +bare):\n%s", c.id, c.n, diff)
			}
		}
		if _, err := b.Around(ctx, "zz", 3); !errors.Is(err, ErrNotFound) {
			t.Errorf("Around absent: err = %v, want ErrNotFound", err)
		}
	})
}

func TestBetweenAndStrategyFirstField(t *testing.T) {
	env := redistest.New(t)
	l := testLayout(t)
	b := newBoard(t, env.Client, env.Prefix, "ks", l, Options{Strategy: KeySuffix})
	ctx := context.Background()
	// Key suffix: the first field is any finite float64, beyond 10 bits.
	for i, v := range []float64{1234.5, 0.25, 1e15, 77} {
		mustSubmit(t, b, Submission{ID: string(rune('a' + i)), Values: []float64{v, 1, 3}})
	}
	got, err := b.Between(ctx, 1, 2000, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "d"}, idsOf(got)); diff != "" || got.Entries[0].Rank != 2 {
		t.Errorf("Between(1, 2000) ranks from %d (-want +got):\n%s", got.Entries[0].Rank, diff)
	}
	if e, _ := b.Get(ctx, "c"); e.Values[0] != 1e15 || e.Rank != 1 {
		t.Errorf("Get(c) = %+v", e)
	}
	empty, err := b.Between(ctx, 5000, 10, 0, 10, WithTotal())
	if err != nil || len(empty.Entries) != 0 || empty.Total != 4 {
		t.Errorf("inverted range = %+v, %v", empty, err)
	}
}

func TestBadInputChangesNothing(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		mustSubmit(t, b, Submission{ID: "a", Values: []float64{5, 1, 1}})
		long := strings.Repeat("x", defaultMaxIDLen+1)
		for _, c := range []struct {
			name string
			s    Submission
			want error
		}{
			{"empty id", Submission{ID: "", Values: []float64{1, 1, 1}}, errID},
			{"long id", Submission{ID: long, Values: []float64{1, 1, 1}}, errID},
			{"NaN", Submission{ID: "a", Values: []float64{math.NaN(), 1, 1}}, errValue},
			{"+Inf", Submission{ID: "a", Values: []float64{math.Inf(1), 1, 1}}, errValue},
			{"-Inf", Submission{ID: "a", Values: []float64{1, 1, math.Inf(-1)}}, errValue},
			{"negative", Submission{ID: "a", Values: []float64{-1, 1, 1}}, errValue},
			{"too big", Submission{ID: "a", Values: []float64{1, 2, 1}}, pack.ErrOverflow},
			{"fraction", Submission{ID: "a", Values: []float64{1, 1, 1.5}}, errValue},
			{"few values", Submission{ID: "a", Values: []float64{1, 1}}, errValue},
			{"many values", Submission{ID: "a", Values: []float64{1, 1, 1, 1}}, errValue},
			{"few ops", Submission{ID: "a", Values: []float64{1, 1, 1}, Fields: []Policy{Add}}, errValue},
			{"bad op", Submission{ID: "a", Values: []float64{1, 1, 1}, Fields: []Policy{9, 0, 0}}, ErrArgument},
			{"best in fields", Submission{ID: "a", Values: []float64{1, 1, 1}, Fields: []Policy{Replace, Best, Replace}}, ErrArgument},
			{"fields with max", Submission{ID: "a", Values: []float64{1, 1, 1}, Policy: Max, Fields: []Policy{Replace, Add, Replace}}, ErrArgument},
			{"bad policy", Submission{ID: "a", Values: []float64{1, 1, 1}, Policy: 9}, ErrArgument},
		} {
			if _, err := b.Submit(ctx, c.s); !errors.Is(err, c.want) || !errors.Is(err, ErrArgument) {
				t.Errorf("%s: err = %v, want %v and ErrArgument", c.name, err, c.want)
			}
		}
		for name, err := range map[string]error{
			"Get absent":    errOf(b.Get(ctx, "nobody")),
			"Get empty":     errOf(b.Get(ctx, "")),
			"Rank kind":     errOf(b.Rank(ctx, "a", 9)),
			"Top 0":         errOf(b.Top(ctx, 0)),
			"Page negative": errOf(b.Page(ctx, -1, 5)),
			"Scan cursor":   errOf(b.Scan(ctx, "!!notbase64", 5)),
			"Between NaN":   errOf(b.Between(ctx, math.NaN(), 1, 0, 5)),
			"Remove empty":  errOf(b.Remove(ctx, "a", "")),
		} {
			if err == nil {
				t.Errorf("%s: no error", name)
			} else if name != "Get absent" && !errors.Is(err, ErrArgument) {
				t.Errorf("%s: err = %v, want ErrArgument (bad input)", name, err)
			}
		}
		if _, err := b.Get(ctx, "nobody"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Get absent: err = %v, want ErrNotFound", err)
		}
		e, err := b.Get(ctx, "a")
		if err != nil || e.Rank != 1 || cmp.Diff([]float64{5, 1, 1}, e.Values) != "" {
			t.Errorf("board changed by bad input: %+v, %v", e, err)
		}
		if n, _ := b.Len(ctx); n != 1 {
			t.Errorf("Len = %d, want 1", n)
		}
	})
}

func errOf[T any](_ T, err error) error { return err }

func TestNewRefuses(t *testing.T) {
	env := redistest.New(t)
	l := testLayout(t)
	for name, c := range map[string]struct {
		name string
		o    Options
		want error
	}{
		"empty":    {"", Options{}, errName},
		"brace":    {"a{b", Options{}, errName},
		"close":    {"a}b", Options{}, errName},
		"long":     {strings.Repeat("n", maxNameLen+1), Options{}, errName},
		"cap":      {"x", Options{Cap: -1}, ErrOptions},
		"strategy": {"x", Options{Strategy: 7}, ErrOptions},
		"idlen":    {"x", Options{MaxIDLen: -3}, ErrOptions},
		"attempts": {"x", Options{UpdateAttempts: -1}, ErrOptions},
	} {
		_, err := New(t.Context(), env.Client, c.name, l, c.o)
		if !errors.Is(err, c.want) || !errors.Is(err, ErrArgument) {
			t.Errorf("%s: err = %v, want %v and ErrArgument", name, err, c.want)
		}
		checkErrorText(t, err)
	}
	if _, err := New(t.Context(), nil, "x", l, Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("nil client: err = %v", err)
	}
	if _, err := New(t.Context(), env.Client, "x", nil, Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("nil layout: err = %v", err)
	}
	// A layout of no fields (not made by pack's constructors), plain and
	// sharded: refused, storing nothing.
	for _, o := range []Options{{}, {Shards: 2}} {
		if _, err := New(t.Context(), env.Client, env.Prefix+"nofields", &pack.Layout{}, o); !errors.Is(err, ErrOptions) {
			t.Errorf("a layout of no fields, %d shards: err = %v", o.Shards, err)
		}
	}
	if n, err := env.Client.Do(t.Context(), env.Client.B().Exists().Key("tb:{"+env.Prefix+"nofields}:meta").Build()).AsInt64(); err != nil || n != 0 {
		t.Errorf("a refused layout stored a descriptor: EXISTS = %d, %v", n, err)
	}
}

func TestCancelledContext(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := b.Submit(ctx, Submission{ID: "a", Values: []float64{1, 1, 1}})
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrRedis) {
			t.Errorf("Submit: err = %v, want context.Canceled and not ErrRedis (the caller's context is no Redis error)", err)
		}
		if _, err := b.Top(ctx, 3); !errors.Is(err, context.Canceled) {
			t.Errorf("Top: err = %v, want context.Canceled", err)
		}
		if n, _ := b.Len(context.Background()); n != 0 {
			t.Errorf("Len = %d after a cancelled submit", n)
		}
	})
}

// A reply of an unexpected shape is an error, never a panic: real Redis
// replies of the wrong shape fed to the parsers.
func TestUnexpectedReplies(t *testing.T) {
	env := redistest.New(t)
	b := newBoard(t, env.Client, env.Prefix, "r", testLayout(t), Options{})
	ctx := context.Background()
	for _, lua := range []string{"return {1}", "return {'ok'}", "return 7", "return {1, 1, 'a'}", "return {'x', 'y', 'a', 'b'}",
		"return {1, 1, 'a', 'notanumber'}", "return {1, 1, 'a', '0.5'}", "return 'weird'", "return {1, 1, 0, 'a', 'x'}", "return {1, 1, 0, 'a', '0.5'}",
		"return {1, 1, 0, 0, 'a', 'x'}", "return {1, 1, 'c', 0, 'a', '1'}", "return {1, 1, 0, 0, 'a'}"} {
		r := env.Client.Do(ctx, env.Client.B().Eval().Script(lua).Numkeys(0).Build())
		if _, err := b.listing("test", rdb.Result(r), readConfig{}); !errors.Is(err, ErrReply) {
			t.Errorf("listing(%s): err = %v, want ErrReply", lua, err)
		}
		r = env.Client.Do(ctx, env.Client.B().Eval().Script(lua).Numkeys(0).Build())
		p := writePlan{id: "a", values: []float64{1, 1, 1}}
		if _, _, err := b.finish(&p, rdb.Result(r)); !errors.Is(err, ErrReply) {
			t.Errorf("finish(%s): err = %v, want ErrReply", lua, err)
		}
	}
}
