package decimalmap

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// TestSeed000 is seed 000's worked example: the inclusive range
// [25500.12346, 25505.2] holds two keys, with their lists in order.
func TestSeed000(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "prices")
	addAll(t, m, seed000)
	ctx := context.Background()
	got, err := m.Range(ctx, Query{Min: Inclusive("25500.12346"), Max: Inclusive("25505.2")})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Key: "25500.12346", Values: []string{"user2", "user3", "user2"}},
		{Key: "25505.05443", Values: []string{"user2", "user1"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("range [25500.12346, 25505.2] (-want +got):\n%s", diff)
	}
	all, err := m.Range(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(seed000, all); diff != "" {
		t.Errorf("whole map (-want +got):\n%s", diff)
	}
}

// TestCanonicalKeys: spellings of one number are one key, returned in
// canonical text, in numeric order across signs and exponents.
func TestCanonicalKeys(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "canon")
	ctx := context.Background()
	adds := [][2]string{
		{"25500.10", "a"}, {"25500.1", "b"}, {"2.55001E4", "c"}, {"+25500.100e0", "d"},
		{"-0", "z1"}, {"0.000", "z2"}, {"1e30", "big"}, {"1E+31", "bigger"},
		{"-1.50", "neg"}, {"7", "int"}, {"0.00001", "tiny"},
	}
	for _, a := range adds {
		if _, err := m.Add(ctx, a[0], a[1]); err != nil {
			t.Fatalf("Add(%q): %v", a[0], err)
		}
	}
	got, err := m.Range(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Key: "-1.5", Values: []string{"neg"}},
		{Key: "0", Values: []string{"z1", "z2"}},
		{Key: "0.00001", Values: []string{"tiny"}},
		{Key: "7", Values: []string{"int"}},
		{Key: "25500.1", Values: []string{"a", "b", "c", "d"}},
		{Key: "1000000000000000000000000000000", Values: []string{"big"}},
		{Key: "1E+31", Values: []string{"bigger"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	vals, err := m.Get(ctx, "25500.1000")
	if diff := cmp.Diff([]string{"a", "b", "c", "d"}, vals); err != nil || diff != "" {
		t.Errorf("Get(25500.1000) err %v (-want +got):\n%s", err, diff)
	}
}

// TestRemove: Remove takes the first occurrence only, and the key goes
// with its last value.
func TestRemove(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "rm")
	ctx := context.Background()
	addAll(t, m, seed000[1:2]) // 25500.12346: user2, user3, user2
	steps := []struct {
		value string
		ok    bool
		left  []string
	}{
		{"user2", true, []string{"user3", "user2"}},
		{"user9", false, []string{"user3", "user2"}},
		{"user2", true, []string{"user3"}},
		{"user3", true, []string{}},
		{"user3", false, []string{}},
	}
	for _, s := range steps {
		ok, err := m.Remove(ctx, "25500.123460", s.value)
		if err != nil || ok != s.ok {
			t.Fatalf("Remove(%q) = %v, %v; want %v", s.value, ok, err, s.ok)
		}
		got, err := m.Get(ctx, "25500.12346")
		if diff := cmp.Diff(s.left, got); err != nil || diff != "" {
			t.Fatalf("after Remove(%q): err %v (-want +got):\n%s", s.value, err, diff)
		}
	}
	if n, err := m.Count(ctx); err != nil || n != 0 {
		t.Errorf("Count after removing every value = %d, %v; want 0", n, err)
	}
	if snap := snapshot(t, env.Client, m.Name()); len(snap) != 0 {
		t.Errorf("Redis keys left: %q", snap)
	}
}

// TestDeleteAndClear: Delete removes one key with its list; Clear removes
// all, over several steps, leaving no Redis key behind.
func TestDeleteAndClear(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "clear")
	ctx := context.Background()
	addAll(t, m, seed000)
	if ok, err := m.Delete(ctx, "25505.2330"); err != nil || !ok {
		t.Fatalf("Delete(25505.2330) = %v, %v; want true", ok, err)
	}
	if ok, err := m.Delete(ctx, "25505.233"); err != nil || ok {
		t.Fatalf("second Delete = %v, %v; want false", ok, err)
	}
	if n, err := m.Count(ctx); err != nil || n != 4 {
		t.Fatalf("Count = %d, %v; want 4", n, err)
	}
	for i := range 2*clearBatch + 7 {
		if _, err := m.Add(ctx, "-"+strings.Repeat("9", i%40+1)+"."+string(rune('1'+i%9)), "v"); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if snap := snapshot(t, env.Client, m.Name()); len(snap) != 0 {
		t.Errorf("Redis keys left after Clear: %d, first %q", len(snap), snap[0])
	}
}

// badKeys are refused by every operation, with the pack sentinel named.
var badKeys = []struct {
	key  string
	want error
}{
	{"", pack.ErrSyntax}, {"abc", pack.ErrSyntax}, {"1e", pack.ErrSyntax}, {"--1", pack.ErrSyntax},
	{"NaN", pack.ErrSyntax}, {"Inf", pack.ErrSyntax}, {"-Inf", pack.ErrSyntax}, {"1.2.3", pack.ErrSyntax},
	{" 1", pack.ErrSyntax}, {"1 ", pack.ErrSyntax}, {"0x10", pack.ErrSyntax}, {"1_000", pack.ErrSyntax},
	{".", pack.ErrSyntax}, {"+", pack.ErrSyntax}, {"1e+", pack.ErrSyntax}, {"e5", pack.ErrSyntax},
	{"1E+2147483648", pack.ErrOverflow}, {"1E-2147483649", pack.ErrOverflow},
	{"12E+2147483647", pack.ErrOverflow}, {"-1E+99999999999", pack.ErrOverflow},
}

// TestBadKeys: every operation refuses a malformed key with ErrKey and the
// pack sentinel, and Redis is left exactly as it was.
func TestBadKeys(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "bad")
	addAll(t, m, seed000)
	before := snapshot(t, env.Client, m.Name())
	ctx := context.Background()
	for _, bk := range badKeys {
		errs := map[string]error{}
		_, errs["Add"] = m.Add(ctx, bk.key, "user9")
		_, errs["Get"] = m.Get(ctx, bk.key)
		_, errs["Delete"] = m.Delete(ctx, bk.key)
		_, errs["Remove"] = m.Remove(ctx, bk.key, "user1")
		_, errs["Range Min"] = m.Range(ctx, Query{Min: Inclusive(bk.key)})
		_, errs["Range Max"] = m.Range(ctx, Query{Max: Exclusive(bk.key)})
		for op, err := range errs {
			if !errors.Is(err, ErrKey) || !errors.Is(err, bk.want) {
				t.Errorf("%s(%q) err = %v; want ErrKey and %v", op, bk.key, err, bk.want)
			}
		}
		if bk.key == "" {
			continue // the zero Cursor: the start of the map
		}
		if _, err := m.Scan(ctx, Cursor(bk.key), 3); !errors.Is(err, ErrArgument) || !errors.Is(err, bk.want) {
			t.Errorf("Scan(%q) err = %v; want ErrArgument and %v", bk.key, err, bk.want)
		}
	}
	if diff := cmp.Diff(before, snapshot(t, env.Client, m.Name())); diff != "" {
		t.Errorf("Redis changed (-before +after):\n%s", diff)
	}
}

// TestBadArguments: the other refusals, none of which writes anything.
func TestBadArguments(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "args")
	addAll(t, m, seed000)
	before := snapshot(t, env.Client, m.Name())
	ctx := context.Background()
	_, errAdd := m.Add(ctx, "1.5")
	_, errLimit := m.Range(ctx, Query{Limit: -1})
	_, errScan := m.Scan(ctx, "", 0)
	_, errKind := m.Range(ctx, Query{Min: Bound{key: "1", kind: 9}})
	for name, err := range map[string]error{"Add no values": errAdd, "negative limit": errLimit, "scan n 0": errScan, "bound kind": errKind} {
		if !errors.Is(err, ErrArgument) {
			t.Errorf("%s: err = %v; want ErrArgument", name, err)
		}
	}
	long := "1." + strings.Repeat("5", DefaultMaxKeyLen)
	if _, err := m.Add(ctx, long, "v"); !errors.Is(err, ErrKey) {
		t.Errorf("Add of a %d-byte key: err = %v; want ErrKey", len(long), err)
	}
	if diff := cmp.Diff(before, snapshot(t, env.Client, m.Name())); diff != "" {
		t.Errorf("Redis changed (-before +after):\n%s", diff)
	}
}

// TestLongKeys: keys of thousands of digits are exact, with a larger
// MaxKeyLen, and neighbours differing in the last digit stay apart.
func TestLongKeys(t *testing.T) {
	env := redistest.New(t)
	m, err := New(env.Client, env.Prefix+"_long", Options{MaxKeyLen: 20000})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	digits := strings.Repeat("1234567890", 1000)
	keys := []string{"-" + digits + "1", "0." + digits + "1", "0." + digits + "2", digits + ".5"}
	for i, k := range keys {
		if _, err := m.Add(ctx, k, string(rune('a'+i))); err != nil {
			t.Fatalf("Add of a %d-digit key: %v", len(k), err)
		}
	}
	got, err := m.Range(ctx, Query{Min: Exclusive("0." + digits + "1")})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Key: "0." + digits + "2", Values: []string{"c"}}, {Key: digits + ".5", Values: []string{"d"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("range above 0.(digits)1 (-want +got):\n%.2000s", diff)
	}
}

func TestNewRefuses(t *testing.T) {
	env := redistest.New(t)
	cases := []struct {
		name string
		opts Options
		want error
	}{
		{"", Options{}, ErrName},
		{"a{b", Options{}, ErrName},
		{"a}b", Options{}, ErrName},
		{strings.Repeat("n", MaxNameLen+1), Options{}, ErrName},
		{"ok", Options{MaxKeyLen: -1}, ErrOptions},
		{"ok", Options{MaxKeyLen: MaxKeyLenLimit + 1}, ErrOptions},
	}
	for _, c := range cases {
		if _, err := New(env.Client, c.name, c.opts); !errors.Is(err, c.want) {
			t.Errorf("New(%.20q, %+v) err = %v; want %v", c.name, c.opts, err, c.want)
		}
	}
	if _, err := New(nil, "ok", Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("New(nil client) err = %v; want ErrOptions", err)
	}
	if _, err := New(env.Client, strings.Repeat("n", MaxNameLen), Options{MaxKeyLen: MaxKeyLenLimit}); err != nil {
		t.Errorf("New at the limits: %v", err)
	}
}

// TestWrongTypes: when a foreign write has put a key of another type
// under the map's names, Add fails and leaves no half-written key.
func TestWrongTypes(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	c := env.Client
	t.Run("list", func(t *testing.T) {
		m := newMap(t, c, env.Prefix, "wl")
		addAll(t, m, seed000[:1])
		enc, _ := pack.EncodeDecimal("2.5")
		if err := c.Do(ctx, c.B().Set().Key(m.keys.list+enc).Value("x").Build()).Error(); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, c, m.Name())
		if _, err := m.Add(ctx, "2.5", "v"); !errors.Is(err, ErrRedis) {
			t.Errorf("Add onto a string list key: err = %v; want ErrRedis", err)
		}
		if diff := cmp.Diff(before, snapshot(t, c, m.Name())); diff != "" {
			t.Errorf("Redis changed (-before +after):\n%s", diff)
		}
	})
	t.Run("index", func(t *testing.T) {
		m := newMap(t, c, env.Prefix, "wi")
		if err := c.Do(ctx, c.B().Set().Key(m.keys.index).Value("x").Build()).Error(); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, c, m.Name())
		if _, err := m.Add(ctx, "2.5", "v", "w"); !errors.Is(err, ErrRedis) {
			t.Errorf("Add onto a string index: err = %v; want ErrRedis", err)
		}
		if diff := cmp.Diff(before, snapshot(t, c, m.Name())); diff != "" {
			t.Errorf("Redis changed (-before +after):\n%s", diff)
		}
	})
}

// TestManyValues: one Add of more values than Lua's unpack takes at once.
func TestManyValues(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "many")
	vals := make([]string, 2500)
	for i := range vals {
		vals[i] = "v" + strings.Repeat("x", i%7) + string(rune('a'+i%26))
	}
	ctx := context.Background()
	if n, err := m.Add(ctx, "1", vals...); err != nil || n != int64(len(vals)) {
		t.Fatalf("Add of %d values = %d, %v", len(vals), n, err)
	}
	got, err := m.Get(ctx, "1")
	if diff := cmp.Diff(vals, got); err != nil || diff != "" {
		t.Errorf("Get: err %v (-want +got):\n%s", err, diff)
	}
}

// TestHugeLimits: limits too large for a Lua number reach ZRANGE exactly.
func TestHugeLimits(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "huge")
	addAll(t, m, seed000)
	ctx := context.Background()
	got, err := m.Range(ctx, Query{Limit: math.MaxInt, Reverse: true})
	if err != nil || len(got) != len(seed000) || got[0].Key != "25506.12345" {
		t.Errorf("Range with Limit MaxInt = %v, %v", got, err)
	}
	p, err := m.Scan(ctx, "25500.12346", math.MaxInt)
	if err != nil || len(p.Entries) != 3 || p.HasMore {
		t.Errorf("Scan with n MaxInt = %+v, %v", p, err)
	}
}
