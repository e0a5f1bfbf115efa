package board

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// readMetaRaw returns every field of b's meta HASH.
func readMetaRaw(t *testing.T, b *Board) map[string]string {
	t.Helper()
	m, err := b.rc().Do(t.Context(), b.rc().B().Hgetall().Key(b.gen.Load().keys.meta).Build()).AsStrMap()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A handle that differs from the stored descriptor in any one setting is
// refused, the error names the setting with the stored and given value,
// and the stored descriptor stays as it was.
func TestNewRefusesEveryMismatch(t *testing.T) {
	env := redistest.New(t)
	base := []pack.Field{{Name: "points", Width: 20}, {Name: "paid", Width: 1}, {Name: "time", Width: 8, Dir: pack.LowerIsBetter}}
	with := func(f func(fs []pack.Field) []pack.Field) []pack.Field {
		return f(append([]pack.Field(nil), base...))
	}
	cases := []struct {
		name   string
		fields []pack.Field
		digits bool
		opts   Options
		want   string
	}{
		{"digits", []pack.Field{{Name: "points", Width: 5}, {Name: "paid", Width: 1}, {Name: "time", Width: 8, Dir: pack.LowerIsBetter}}, true, Options{}, "layout radix: stored 2, given 10"},
		{"fewer fields", base[:2], false, Options{}, "number of fields: stored 3 (points, paid, time), given 2 (points, paid)"},
		{"field name", with(func(fs []pack.Field) []pack.Field { fs[1].Name = "vip"; return fs }), false, Options{}, "field 1: stored paid:1, given vip:1"},
		{"field width", with(func(fs []pack.Field) []pack.Field { fs[0].Width = 21; return fs }), false, Options{}, "field 0: stored points:20, given points:21"},
		{"field direction", with(func(fs []pack.Field) []pack.Field { fs[2].Dir = pack.HigherIsBetter; return fs }), false, Options{}, "field 2: stored time:8/lower, given time:8"},
		{"field signed", with(func(fs []pack.Field) []pack.Field { fs[0].Signed = true; return fs }), false, Options{}, "field 0: stored points:20, given points:20/signed"},
		{"strategy", base, false, Options{Strategy: KeySuffix}, "Strategy: stored PackedScore, given KeySuffix"},
		{"cap", base, false, Options{Cap: 10}, "Cap: stored 0, given 10"},
		{"dense ranks", base, false, Options{DenseRanks: true}, "DenseRanks: stored false, given true"},
	}
	l, err := pack.NewLayout(base...)
	if err != nil {
		t.Fatal(err)
	}
	first := newBoard(t, env.Client, env.Prefix, "mismatch", l, Options{})
	mustSubmit(t, first, Submission{ID: "a", Values: []float64{1, 1, 1}})
	stored := readMetaRaw(t, first)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			newLayout := pack.NewLayout
			if c.digits {
				newLayout = pack.NewDigitLayout
			}
			l2, err := newLayout(c.fields...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = New(t.Context(), env.Client, first.Name(), l2, c.opts)
			if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("New: err = %v, want ErrMismatch saying %q", err, c.want)
			}
			if diff := cmp.Diff(stored, readMetaRaw(t, first)); diff != "" {
				t.Errorf("meta HASH changed (-want +got):\n%s", diff)
			}
		})
	}
	// Per-handle settings are not part of the descriptor.
	if _, err := New(t.Context(), env.Client, first.Name(), l, Options{MaxIDLen: 9, UpdateAttempts: 3}); err != nil {
		t.Errorf("New with other MaxIDLen and UpdateAttempts: %v", err)
	}
}

// layoutKinds are layouts of every kind a descriptor must carry.
func layoutKinds(t *testing.T) map[string]*pack.Layout {
	t.Helper()
	bits := map[string][]pack.Field{
		"one field":        {{Name: "score", Width: 40}},
		"points paid time": {{Name: "points", Width: 20}, {Name: "paid", Width: 1}, {Name: "time", Width: 32, Dir: pack.LowerIsBetter}},
		"signed 53 bits":   {{Name: "a", Width: 3, Dir: pack.LowerIsBetter, Signed: true}, {Name: "b", Width: 49, Signed: true}, {Name: "c", Width: 1}},
		"odd names":        {{Name: `a "quoted" ]] name`, Width: 10}, {Name: "ünï\ncode", Width: 10}},
	}
	out := map[string]*pack.Layout{}
	for name, fs := range bits {
		l, err := pack.NewLayout(fs...)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = l
	}
	l, err := pack.NewDigitLayout(pack.Field{Name: "points", Width: 3}, pack.Field{Name: "flag", Width: 1}, pack.Field{Name: "time", Width: 9, Dir: pack.LowerIsBetter, Signed: true})
	if err != nil {
		t.Fatal(err)
	}
	out["digits"] = l
	return out
}

// Open builds, from the stored descriptor alone, a handle equal in
// layout, options and answers to the one that wrote the board.
func TestOpenRoundTrip(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	for name, l := range layoutKinds(t) {
		for _, o := range []Options{{}, {Strategy: KeySuffix}, {DenseRanks: true, Cap: 7}, {Strategy: KeySuffix, DenseRanks: true}} {
			t.Run(name+"/"+o.Strategy.String(), func(t *testing.T) {
				b := newBoard(t, env.Client, env.Prefix, strings.NewReplacer(" ", "_", "{", "", "}", "").Replace(name)+o.Strategy.String()+strconvBool(o.DenseRanks), l, o)
				for i := 0; i < 10; i++ {
					vals := make([]float64, l.Len())
					for j := range vals {
						vals[j] = float64((i*7 + j) % 2)
					}
					mustSubmit(t, b, Submission{ID: string(rune('a' + i)), Values: vals, Data: []byte{byte(i)}})
				}
				o2, err := Open(ctx, env.Client, b.Name(), Options{})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(b.descriptorOf(), o2.descriptorOf()); diff != "" {
					t.Errorf("descriptor (-want +got):\n%s", diff)
				}
				if l.String() != o2.Layout().String() || o2.Options().Strategy != b.Options().Strategy {
					t.Errorf("layout %v %v, want %v %v", o2.Layout(), o2.Options().Strategy, l, b.Options().Strategy)
				}
				want, err1 := b.Top(ctx, 20, WithData())
				got, err2 := o2.Top(ctx, 20, WithData())
				if err := errors.Join(err1, err2); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("Top through Open (-want +got):\n%s", diff)
				}
				if _, err := o2.Submit(ctx, Submission{ID: "z", Values: make([]float64, l.Len())}); err != nil {
					t.Errorf("Submit through Open: %v", err)
				}
			})
		}
	}
}

func strconvBool(b bool) string {
	if b {
		return "_dense"
	}
	return ""
}

// Open refuses a board with no descriptor and one it cannot read.
func TestOpenRefuses(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	if _, err := Open(ctx, env.Client, env.Prefix+"none", Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open of no board: err = %v, want ErrNotFound", err)
	}
	if _, err := Open(ctx, nil, env.Prefix+"none", Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("Open with nil client: err = %v, want ErrOptions", err)
	}
	// A plain board of that name exists: a name with an empty group must
	// still be refused, not read as the plain one.
	plain := newBoard(t, env.Client, env.Prefix, "plain", testLayout(t), Options{}).Name()
	for _, bad := range []string{"a{b", "/" + plain, "g{/" + plain, "g/", "a/b/c"} {
		if _, err := Open(ctx, env.Client, bad, Options{}); !errors.Is(err, errName) || !errors.Is(err, ErrArgument) {
			t.Errorf("Open of the bad name %q: err = %v, want errName (ErrArgument)", bad, err)
		}
	}
	for _, bad := range []string{`not json`, `{"version":2}`, `{"version":1,"radix":3}`, `{"version":1,"radix":2,"fields":[]}`,
		`{"version":1,"radix":2,"fields":[{"name":"a","width":1,"dir":"Sideways"}],"strategy":"PackedScore"}`,
		`{"version":1,"radix":2,"fields":[{"name":"a","width":1,"dir":"HigherIsBetter"}],"strategy":"Other"}`,
		`{"version":1,"radix":2,"fields":[{"name":"a","width":1,"dir":"HigherIsBetter"}],"strategy":"PackedScore","cap":-1}`,
		`{"version":1,"radix":2,"fields":[{"name":"a","width":1,"dir":"HigherIsBetter"}],"strategy":"PackedScore","lookup":"hashed-buckets"}`,
		`{"version":1,"radix":2,"fields":[{"name":"a","width":1,"dir":"HigherIsBetter"},{"name":"b","width":1,"dir":"HigherIsBetter"}],"strategy":"KeySuffix","lookup":"buckets"}`,
		`{"version":1,"radix":2,"fields":[{"name":"a","width":1,"dir":"HigherIsBetter"}],"strategy":"KeySuffix","lookup":"other"}`,
		`{"version":1,"radix":2,"fields":[{"name":"a","width":1,"dir":"HigherIsBetter"}],"strategy":"KeySuffix"}`} {
		name := env.Prefix + "bad"
		key := names(prefixOf("", name), 0).meta
		if err := env.Client.Do(ctx, env.Client.B().Hset().Key(key).FieldValue().FieldValue("desc", bad).Build()).Error(); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(ctx, env.Client, name, Options{}); !errors.Is(err, errDescriptor) {
			t.Errorf("Open of %s: err = %v, want errDescriptor", bad, err)
		}
	}
}

// Entries with no descriptor are not a board: Open finds none, and New
// refuses them and writes no descriptor.
func TestBoardWithoutDescriptor(t *testing.T) {
	env := redistest.New(t)
	b := newBoard(t, env.Client, env.Prefix, "nodesc", testLayout(t), Options{Strategy: KeySuffix})
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{5, 1, 2}, Data: []byte("x")})
	forgetDescriptor(t, b)
	if _, err := Open(t.Context(), env.Client, b.Name(), Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open: err = %v, want ErrNotFound", err)
	}
	if _, err := New(t.Context(), env.Client, b.Name(), testLayout(t), Options{Strategy: KeySuffix}); !errors.Is(err, errDescriptor) {
		t.Errorf("New: err = %v, want errDescriptor", err)
	}
	if got := readMetaRaw(t, b); len(got) != 0 {
		t.Errorf("meta HASH %v after a refused New, want none", got)
	}
}

// A periodic window stores its descriptor with its first write, with the
// instant its keys expire: Open reads the window by name, and a handle
// of other settings is refused on write, changing nothing.
func TestPeriodicWindowDescriptor(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	p, err := NewPeriodic(env.Client, env.Prefix+"season", testLayout(t), Daily(nil), time.Hour, Options{DenseRanks: true})
	if err != nil {
		t.Fatal(err)
	}
	w := p.At(time.Now())
	if _, err := Open(ctx, env.Client, w.Name(), Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open before the first write: err = %v, want ErrNotFound", err)
	}
	mustSubmit(t, w, Submission{ID: "a", Values: []float64{3, 0, 9}})
	o, err := Open(ctx, env.Client, w.Name(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !o.opts.expireAt.Equal(w.opts.expireAt.Truncate(time.Millisecond)) || !o.opts.DenseRanks {
		t.Errorf("opened window expires at %v dense %t, want %v true", o.opts.expireAt, o.opts.DenseRanks, w.opts.expireAt)
	}
	ttl, err := env.Client.Do(ctx, env.Client.B().Pttl().Key(w.gen.Load().keys.meta).Build()).AsInt64()
	if err != nil || ttl <= 0 {
		t.Errorf("meta PTTL = %d, %v: want the window's expiry", ttl, err)
	}
	other, err := NewPeriodic(env.Client, env.Prefix+"season", testLayout(t), Daily(nil), time.Hour, Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := readMetaRaw(t, w)
	if _, err := other.At(time.Now()).Submit(ctx, Submission{ID: "b", Values: []float64{1, 0, 0}}); !errors.Is(err, ErrMismatch) {
		t.Errorf("write with other settings: err = %v, want ErrMismatch", err)
	}
	if n, _ := o.Len(ctx); n != 1 {
		t.Errorf("Len = %d after a refused write, want 1", n)
	}
	if diff := cmp.Diff(before, readMetaRaw(t, w)); diff != "" {
		t.Errorf("meta changed by a refused write (-want +got):\n%s", diff)
	}
}

// A key-suffix periodic window keeps its ids in buckets, as every
// key-suffix board does, and Open of it agrees.
func TestPeriodicWindowBuckets(t *testing.T) {
	env := redistest.New(t)
	p, err := NewPeriodic(env.Client, env.Prefix+"season", testLayout(t), Daily(nil), time.Hour, Options{Strategy: KeySuffix, DenseRanks: true})
	if err != nil {
		t.Fatal(err)
	}
	w := p.At(time.Now())
	for i, id := range []string{"a", "b\x00\x03", "c"} {
		mustSubmit(t, w, Submission{ID: id, Values: []float64{float64(i % 2), 1, float64(i)}})
	}
	if l := w.descriptorOf().Lookup; l != lookupBuckets {
		t.Errorf("window lookup %q, want %q", l, lookupBuckets)
	}
	checkLookup(t, w)
	o, err := Open(t.Context(), env.Client, w.Name(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w.descriptorOf(), o.descriptorOf()); diff != "" {
		t.Errorf("opened window's descriptor (-window +opened):\n%s", diff)
	}
}

// FuzzDescriptor: any stored text is read without a panic, and a
// descriptor that reads builds a board whose descriptor is itself.
func FuzzDescriptor(f *testing.F) {
	l, _ := pack.NewLayout(pack.Field{Name: "p", Width: 20}, pack.Field{Name: "t", Width: 9, Dir: pack.LowerIsBetter, Signed: true})
	f.Add(describe(l, Options{Strategy: KeySuffix, Cap: 3}).encoded())
	f.Add(`{"version":1,"radix":10,"fields":[{"name":"a","width":16,"dir":"HigherIsBetter"}],"strategy":"PackedScore"}`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseDescriptor("fuzz", s)
		if err != nil {
			if !errors.Is(err, errDescriptor) {
				t.Fatalf("err = %v, want errDescriptor", err)
			}
			return
		}
		l, o, err := d.build("fuzz")
		if err != nil {
			return
		}
		if _, err := o.withDefaults(); err != nil {
			return
		}
		if got := describe(l, o); diff(d, got) != "" {
			t.Errorf("rebuilt descriptor differs: %s", diff(d, got))
		}
	})
}
