package board

import (
	"context"
	"encoding/base64"
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// Best on a one-field key-suffix board resubmitting an equal value keeps
// the entry (there is no member prefix to compare).
func TestBestSingleFieldSuffix(t *testing.T) {
	env := redistest.New(t)
	l, _ := pack.NewLayout(pack.Field{Name: "points", Width: 20})
	b := newBoard(t, env.Client, env.Prefix, "one", l, Options{Strategy: KeySuffix})
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{10.5}, Policy: Best})
	r := mustSubmit(t, b, Submission{ID: "a", Values: []float64{10.5}, Policy: Best})
	if r.Changed || r.Entry.Values[0] != 10.5 {
		t.Errorf("equal Best: %+v", r)
	}
}

// Keep stores the submitted value for a new id, so it is checked like Replace:
// a fraction must not spill into the neighbouring field.
func TestKeepOnNewIDIsChecked(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		for _, vals := range [][]float64{{5, 0.5, 3}, {5, 0, 3.25}, {5, 2, 3}} {
			_, err := b.Submit(ctx, Submission{ID: "new", Values: vals, Fields: []Policy{Replace, Keep, Keep}})
			if !errors.Is(err, errValue) {
				t.Errorf("Keep with %v on a new id: err = %v, want errValue", vals, err)
			}
		}
		if n, _ := b.Len(ctx); n != 0 {
			t.Errorf("Len = %d after refused writes", n)
		}
		_, err := b.Submit(ctx, Submission{ID: "a", Values: []float64{1, 1, 1}, Policy: Best, Fields: []Policy{Add, Add, Add}})
		if !errors.Is(err, ErrArgument) {
			t.Errorf("Fields with Best: err = %v, want ErrArgument", err)
		}
	})
}

// Counts and offsets beyond the limits are refused, never sent to Redis as
// numbers it cannot parse.
func TestReadLimits(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		mustSubmit(t, b, Submission{ID: "a", Values: []float64{1, 0, 0}})
		for name, err := range map[string]error{
			"Top(MaxInt)":         errOf(b.Top(ctx, math.MaxInt)),
			"Page(2^53, 10)":      errOf(b.Page(ctx, 1<<53, 10)),
			"Page(MaxInt64, 2)":   errOf(b.Page(ctx, math.MaxInt64, 2)),
			"Around(MaxInt)":      errOf(b.Around(ctx, "a", math.MaxInt)),
			"Scan(MaxInt)":        errOf(b.Scan(ctx, "", math.MaxInt)),
			"Between(n=MaxInt)":   errOf(b.Between(ctx, 0, 1000, 0, math.MaxInt)),
			"Between(offset=-1)":  errOf(b.Between(ctx, 0, 1000, -1, 5)),
			"Top(maxCount+1)":     errOf(b.Top(ctx, maxCount+1)),
			"Around(0)":           errOf(b.Around(ctx, "a", 0)),
			"Between(NaN, 1)":     errOf(b.Between(ctx, 1, math.NaN(), 0, 5)),
			"Rank(unknown kind)":  errOf(b.Rank(ctx, "a", 9)),
			"Scan(bad base64)":    errOf(b.Scan(ctx, "!!", 5)),
			"Page(offset -1)":     errOf(b.Page(ctx, -1, 5)),
			"Scan(0)":             errOf(b.Scan(ctx, "", 0)),
			"Page(maxOffset, 10)": nil,
		} {
			if name == "Page(maxOffset, 10)" {
				err = errOf(b.Page(ctx, maxOffset, maxCount))
				if err != nil {
					t.Errorf("%s: %v", name, err)
				}
				continue
			}
			if !errors.Is(err, ErrArgument) {
				t.Errorf("%s: err = %v, want ErrArgument", name, err)
			}
		}
		if l, err := b.Top(ctx, maxCount); err != nil || len(l.Entries) != 1 {
			t.Errorf("Top(maxCount) = %+v, %v", l, err)
		}
	})
}

// Only cursors Scan wrote are accepted.
func TestMalformedCursors(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		mustSubmit(t, b, Submission{ID: "a", Values: []float64{1, 0, 0}})
		for _, raw := range []string{"NaN\nx", "0x1p3\nx", "Inf\nx", "-Inf\nx", "1.0\nx", "nonewline", "\nx"} {
			c := string(base64.RawURLEncoding.EncodeToString([]byte(raw)))
			if _, err := b.Scan(ctx, c, 5); !errors.Is(err, ErrArgument) {
				t.Errorf("Scan(%q): err = %v, want ErrArgument", raw, err)
			}
		}
	})
}

// A dense index that lacks an entry's tuple (its keys removed) says so
// instead of failing inside the script: a reply Redis should not have
// given (ErrReply), not the caller's mistake.
func TestDenseIndexMissing(t *testing.T) {
	env := redistest.New(t)
	dense := newBoard(t, env.Client, env.Prefix, "mm", testLayout(t), Options{DenseRanks: true})
	mustSubmit(t, dense, Submission{ID: "x", Values: []float64{1, 0, 0}})
	k := dense.gen.Load().keys
	if err := env.Client.Do(t.Context(), env.Client.B().Del().Key(k.v, k.c).Build()).Error(); err != nil {
		t.Fatal(err)
	}
	if _, err := dense.Rank(context.Background(), "x", Dense); !errors.Is(err, errDenseMissing) || !errors.Is(err, ErrReply) || errors.Is(err, ErrArgument) {
		t.Errorf("err = %v, want errDenseMissing, an ErrReply and no ErrArgument", err)
	}
}

// The differential test again on other layouts (signed and lower-is-better
// first fields, digits, all 53 bits), with and without a cap, checking the
// side indexes against the model as it goes.
func TestDifferentialLayoutsAndCap(t *testing.T) {
	layouts := map[string][]pack.Field{
		"signed-lower-first": {{Name: "a", Width: 4, Dir: pack.LowerIsBetter, Signed: true}, {Name: "b", Width: 2, Signed: true}, {Name: "c", Width: 3, Dir: pack.LowerIsBetter}},
		"53bits":             {{Name: "a", Width: 3, Dir: pack.LowerIsBetter}, {Name: "b", Width: 49}, {Name: "c", Width: 1}},
	}
	digits, _ := pack.NewDigitLayout(pack.Field{Name: "a", Width: 2}, pack.Field{Name: "b", Width: 1, Dir: pack.LowerIsBetter, Signed: true}, pack.Field{Name: "c", Width: 2, Dir: pack.LowerIsBetter})
	built := map[string]*pack.Layout{"digits": digits}
	for name, fields := range layouts {
		l, err := pack.NewLayout(fields...)
		if err != nil {
			t.Fatal(err)
		}
		built[name] = l
	}
	for name, l := range built {
		for _, capN := range []int64{0, 5} {
			t.Run(name+"/cap"+string(rune('0'+capN)), func(t *testing.T) {
				w := newWorkload(t, l, Options{DenseRanks: true, Cap: capN})
				w.cap = capN
				w.run(800, true)
			})
		}
	}
}

// checkIndexes compares the dense index and the key-suffix id HASH with
// the model.
func (w *workload) checkIndexes() {
	w.t.Helper()
	ctx := context.Background()
	counts := map[string]int64{}
	for _, e := range w.model.sorted() {
		counts[fmtTuple(e.Values)]++
	}
	for _, b := range w.boards {
		got, err := b.rc().Do(ctx, b.rc().B().Hvals().Key(b.gen.Load().keys.c).Build()).AsIntSlice()
		if err != nil {
			w.t.Fatal(err)
		}
		var sum int64
		for _, n := range got {
			sum += n
		}
		nv, _ := b.rc().Do(ctx, b.rc().B().Zcard().Key(b.gen.Load().keys.v).Build()).AsInt64()
		if len(got) != len(counts) || sum != w.model.visible() || nv != int64(len(counts)) {
			w.t.Fatalf("%v: dense index holds %d tuples (%d in the ZSET) counting %d entries; model %d tuples, %d entries",
				b.Options().Strategy, len(got), nv, sum, len(counts), w.model.visible())
		}
		if b.suffix() {
			if n := len(lookupIDs(w.t, b)); n != len(w.model.vals) {
				w.t.Fatalf("id lookup holds %d ids, model %d entries", n, len(w.model.vals))
			}
			checkLookup(w.t, b)
		}
	}
}

// A nil ReadOption, which a list of options built on conditions may hold,
// changes nothing: every read answers as without it, on a board of one
// hash tag and on a sharded one.
func TestNilReadOptionChangesNothing(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	for _, b := range []*Board{
		newBoard(t, env.Client, env.Prefix, "nilopt", testLayout(t), Options{}),
		newSharded(t, env.Client, env.Prefix, "niloptsharded", testLayout(t), Options{Shards: 2}),
	} {
		for i := range 5 {
			mustSubmit(t, b, Submission{ID: string(rune('a' + i)), Values: []float64{float64(i), 0, 0}})
		}
		reads := map[string]func(...ReadOption) (any, error){
			"Top":     func(o ...ReadOption) (any, error) { return b.Top(ctx, 3, o...) },
			"Page":    func(o ...ReadOption) (any, error) { return b.Page(ctx, 1, 3, o...) },
			"Around":  func(o ...ReadOption) (any, error) { return b.Around(ctx, "c", 3, o...) },
			"Between": func(o ...ReadOption) (any, error) { return b.Between(ctx, 0, 3, 0, 3, o...) },
			"Scan":    func(o ...ReadOption) (any, error) { return b.Scan(ctx, "", 3, o...) },
			"Among":   func(o ...ReadOption) (any, error) { return b.Among(ctx, []string{"a", "e"}, o...) },
			"Get":     func(o ...ReadOption) (any, error) { return b.Get(ctx, "b", o...) },
		}
		for name, read := range reads {
			want, err1 := read(WithTotal())
			got, err2 := read(nil, WithTotal(), nil)
			if err := errors.Join(err1, err2); err != nil {
				t.Fatalf("%s: %s: %v", b.Name(), name, err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Errorf("%s: %s with nil options: %+v, want %+v", b.Name(), name, got, want)
			}
		}
		err := Watch(ctx, time.Millisecond, topOf(b, 3, nil), func(List) error { return errWatchedOnce })
		if !errors.Is(err, errWatchedOnce) {
			t.Errorf("%s: Watch with a nil option: %v", b.Name(), err)
		}
	}
}

var errWatchedOnce = errors.New("watched once")
