package decimalmap

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// TestPriceIndexExample is the price-index example: the inclusive range
// [25500.12346, 25505.2] holds two keys, with their lists in order.
func TestPriceIndexExample(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "prices")
	addAll(t, m, priceIndex)
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
	if diff := cmp.Diff(priceIndex, all); diff != "" {
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

// TestRemoveValue: RemoveValue takes the first occurrence only, and the
// key goes with its last value.
func TestRemoveValue(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "rm")
	ctx := context.Background()
	addAll(t, m, priceIndex[1:2]) // 25500.12346: user2, user3, user2
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
		ok, err := m.RemoveValue(ctx, "25500.123460", s.value)
		if err != nil || ok != s.ok {
			t.Fatalf("RemoveValue(%q) = %v, %v; want %v", s.value, ok, err, s.ok)
		}
		got, err := m.Get(ctx, "25500.12346")
		if diff := cmp.Diff(s.left, got); err != nil || diff != "" {
			t.Fatalf("after RemoveValue(%q): err %v (-want +got):\n%s", s.value, err, diff)
		}
	}
	if n, err := m.Len(ctx); err != nil || n != 0 {
		t.Errorf("Len after removing every value = %d, %v; want 0", n, err)
	}
	if snap := snapshot(t, env.Client, m.Name()); len(snap) != 0 {
		t.Errorf("Redis keys left: %q", snap)
	}
}

// TestRemove: Remove takes keys with their lists and counts those that
// were there, two spellings of one number once.
func TestRemove(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "rmkeys")
	ctx := context.Background()
	addAll(t, m, priceIndex)
	for _, c := range []struct {
		keys []string
		want int64
	}{
		{[]string{"25505.2330", "25500.12345", "2.550012345E4", "7"}, 2},
		{[]string{"25505.233"}, 0},
		{[]string{"25506.12345", "25506.12345"}, 1},
	} {
		if n, err := m.Remove(ctx, c.keys...); err != nil || n != c.want {
			t.Fatalf("Remove(%q) = %d, %v; want %d", c.keys, n, err, c.want)
		}
	}
	got, err := m.Range(ctx, Query{})
	if diff := cmp.Diff(priceIndex[1:3], got); err != nil || diff != "" {
		t.Errorf("left after Remove: err %v (-want +got):\n%s", err, diff)
	}
	if n, err := m.Remove(ctx, "25500.12346", "25505.05443"); err != nil || n != 2 {
		t.Fatalf("Remove of the last two = %d, %v; want 2", n, err)
	}
	if snap := snapshot(t, env.Client, m.Name()); len(snap) != 0 {
		t.Errorf("Redis keys left: %q", snap)
	}
}

// TestRemoveAtTheBound: one Remove of MaxRemove keys, half of them in
// the map, removes them all.
func TestRemoveAtTheBound(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "rmmax")
	ctx := context.Background()
	keys := make([]string, MaxRemove)
	for i := range keys {
		keys[i] = strconv.Itoa(i) + ".5"
		if i%2 == 0 {
			if _, err := m.Add(ctx, keys[i], "v"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n, err := m.Remove(ctx, keys...); err != nil || n != MaxRemove/2 {
		t.Fatalf("Remove of %d keys = %d, %v; want %d", len(keys), n, err, MaxRemove/2)
	}
	if snap := snapshot(t, env.Client, m.Name()); len(snap) != 0 {
		t.Errorf("Redis keys left: %d, first %q", len(snap), snap[0])
	}
}

// TestDrop: Drop removes the whole map, more keys than the script reads
// at a time, leaving no Redis key behind; dropping it again does nothing.
func TestDrop(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "drop")
	other := newMap(t, env.Client, env.Prefix, "other")
	addAll(t, other, priceIndex)
	ctx := context.Background()
	for i := range 2507 {
		if _, err := m.Add(ctx, "-"+strconv.Itoa(i)+"."+strings.Repeat("9", i%40+1), "v"); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := m.Len(ctx); err != nil || n != 2507 {
		t.Fatalf("Len = %d, %v; want 2507", n, err)
	}
	for range 2 {
		if err := m.Drop(ctx); err != nil {
			t.Fatal(err)
		}
		if snap := snapshot(t, env.Client, m.Name()); len(snap) != 0 {
			t.Errorf("Redis keys left after Drop: %d, first %q", len(snap), snap[0])
		}
	}
	got, err := other.Range(ctx, Query{})
	if diff := cmp.Diff(priceIndex, got); err != nil || diff != "" {
		t.Errorf("another map after Drop: err %v (-want +got):\n%s", err, diff)
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
	addAll(t, m, priceIndex)
	before := snapshot(t, env.Client, m.Name())
	ctx := context.Background()
	for _, bk := range badKeys {
		errs := map[string]error{}
		_, errs["Add"] = m.Add(ctx, bk.key, "user9")
		_, errs["Get"] = m.Get(ctx, bk.key)
		_, errs["Remove"] = m.Remove(ctx, "25500.12345", bk.key, "25505.233")
		_, errs["RemoveValue"] = m.RemoveValue(ctx, bk.key, "user1")
		_, errs["Range Min"] = m.Range(ctx, Query{Min: Inclusive(bk.key)})
		_, errs["Range Max"] = m.Range(ctx, Query{Max: Exclusive(bk.key)})
		for op, err := range errs {
			if !errors.Is(err, ErrKey) || !errors.Is(err, bk.want) {
				t.Errorf("%s(%q) err = %v; want ErrKey and %v", op, bk.key, err, bk.want)
			}
			checkErrorText(t, err)
		}
		if bk.key == "" {
			continue // the zero Cursor: the start of the map
		}
		_, err := m.Scan(ctx, Cursor(bk.key), 3)
		if !errors.Is(err, ErrArgument) || !errors.Is(err, bk.want) {
			t.Errorf("Scan(%q) err = %v; want ErrArgument and %v", bk.key, err, bk.want)
		}
		checkErrorText(t, err)
	}
	if diff := cmp.Diff(before, snapshot(t, env.Client, m.Name())); diff != "" {
		t.Errorf("Redis changed (-before +after):\n%s", diff)
	}
}

// TestBadArguments: the other refusals, none of which writes anything.
func TestBadArguments(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "args")
	addAll(t, m, priceIndex)
	before := snapshot(t, env.Client, m.Name())
	ctx := context.Background()
	_, errAdd := m.Add(ctx, "1.5")
	_, errLimit := m.Range(ctx, Query{Limit: -1})
	_, errScan := m.Scan(ctx, "", 0)
	_, errKind := m.Range(ctx, Query{Min: Bound{key: "1", kind: 9}})
	_, errNoKeys := m.Remove(ctx)
	_, errManyKeys := m.Remove(ctx, make([]string, MaxRemove+1)...)
	for name, err := range map[string]error{"Add no values": errAdd, "negative limit": errLimit, "scan n 0": errScan,
		"bound kind": errKind, "Remove no keys": errNoKeys, "Remove too many keys": errManyKeys} {
		if !errors.Is(err, ErrArgument) {
			t.Errorf("%s: err = %v; want ErrArgument", name, err)
		}
		checkErrorText(t, err)
	}
	long := "1." + strings.Repeat("5", DefaultMaxKeyLen)
	_, errAddLong := m.Add(ctx, long, "v")
	_, errRemoveLong := m.Remove(ctx, "25500.12345", long)
	for name, err := range map[string]error{"Add": errAddLong, "Remove": errRemoveLong} {
		if !errors.Is(err, ErrKey) {
			t.Errorf("%s of a %d-byte key: err = %v; want ErrKey", name, len(long), err)
		}
		checkErrorText(t, err)
	}
	if diff := cmp.Diff(before, snapshot(t, env.Client, m.Name())); diff != "" {
		t.Errorf("Redis changed (-before +after):\n%s", diff)
	}
}

// TestLongKeys: keys of 240 digits and more are exact, and neighbours
// differing in the last digit stay apart.
func TestLongKeys(t *testing.T) {
	env := redistest.New(t)
	m, err := New(env.Client, env.Prefix+"_long", Options{MaxKeyLen: MaxKeyLenLimit})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	digits := strings.Repeat("1234567890", 24)
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

// A Scan's cursor names a key the map gave: a handle of a smaller
// MaxKeyLen than the handle that stored the key takes it, and pages on.
func TestScanCursorOfALongKey(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	wide, err := New(env.Client, env.Prefix+"_cursor", Options{})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("9", MaxKeyLenLimit)
	for _, k := range []string{"1", long, "1e300"} {
		if _, err := wide.Add(ctx, k, "v"); err != nil {
			t.Fatal(err)
		}
	}
	narrow, err := New(env.Client, env.Prefix+"_cursor", Options{MaxKeyLen: 8})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for cursor := Cursor(""); ; {
		p, err := narrow.Scan(ctx, cursor, 1)
		if err != nil {
			t.Fatalf("Scan after %d keys: %v", len(keys), err)
		}
		for _, e := range p.Entries {
			keys = append(keys, e.Key)
		}
		if !p.HasMore {
			break
		}
		cursor = p.Next
	}
	if len(keys) != 3 || keys[1] != long {
		t.Errorf("scanned %d keys %.40q, want 1, the %d-digit key, 1e300's", len(keys), keys, MaxKeyLenLimit)
	}
	if _, err := narrow.Scan(ctx, Cursor(long+"9"), 1); !errors.Is(err, ErrArgument) {
		t.Errorf("Scan from a cursor of %d bytes: %v, want ErrArgument", MaxKeyLenLimit+1, err)
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
		_, err := New(env.Client, c.name, c.opts)
		if !errors.Is(err, c.want) {
			t.Errorf("New(%.20q, %+v) err = %v; want %v", c.name, c.opts, err, c.want)
		}
		checkErrorText(t, err)
	}
	_, err := New(nil, "ok", Options{})
	if !errors.Is(err, ErrOptions) {
		t.Errorf("New(nil client) err = %v; want ErrOptions", err)
	}
	checkErrorText(t, err)
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
	t.Run("entries", func(t *testing.T) {
		m := newMap(t, c, env.Prefix, "we")
		if err := c.Do(ctx, c.B().Set().Key(m.keys.entries).Value("x").Build()).Error(); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, c, m.Name())
		if _, err := m.Add(ctx, "2.5", "v"); !errors.Is(err, ErrRedis) {
			t.Errorf("Add onto a string entries key: err = %v; want ErrRedis", err)
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
		// The reads' MULTI/EXEC carries Redis's error: ErrRedis, with its
		// text, not a reply of the wrong shape.
		if _, err := m.Range(ctx, Query{}); !errors.Is(err, ErrRedis) || errors.Is(err, ErrReply) || !strings.Contains(err.Error(), "WRONGTYPE") {
			t.Errorf("Range of a string index: err = %v; want ErrRedis with WRONGTYPE", err)
		}
	})
	t.Run("keys without values", func(t *testing.T) {
		// A key whose values are gone (its entries key written over by
		// hand) is damage, not a range too large.
		m := newMap(t, c, env.Prefix, "nov")
		if _, err := m.Add(ctx, "1.5", "v"); err != nil {
			t.Fatal(err)
		}
		if err := c.Do(ctx, c.B().Zadd().Key(m.keys.index).ScoreMember().ScoreMember(0, "junk").Build()).Error(); err != nil {
			t.Fatal(err)
		}
		_, err := m.Range(ctx, Query{Limit: 5})
		if !errors.Is(err, ErrReply) || !strings.Contains(err.Error(), "hold no value") {
			t.Errorf("Range over a key without values: err = %v; want ErrReply saying the keys hold no value", err)
		}
	})
}

// TestManyValues: one Add of MaxAddValues values keeps them in order.
func TestManyValues(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "many")
	vals := make([]string, MaxAddValues)
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
	addAll(t, m, priceIndex)
	ctx := context.Background()
	got, err := m.Range(ctx, Query{Limit: math.MaxInt, Reverse: true})
	if err != nil || len(got) != len(priceIndex) || got[0].Key != "25506.12345" {
		t.Errorf("Range with Limit MaxInt = %v, %v", got, err)
	}
	p, err := m.Scan(ctx, "25500.12346", math.MaxInt)
	if err != nil || len(p.Entries) != 3 || p.HasMore {
		t.Errorf("Scan with n MaxInt = %+v, %v", p, err)
	}
}

// TestTouchesOnlyItsKeys runs every operation as a Redis user that may
// reach the map's two keys and nothing else: a script reaching a key it
// did not declare (a list named from ARGV, say) would fail with NOPERM.
// The scripts declare both keys, so every key they touch is in KEYS.
func TestTouchesOnlyItsKeys(t *testing.T) {
	srv, admin := redistest.Private(t)
	ctx := context.Background()
	m0, err := New(admin, "acl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	setUser := admin.B().AclSetuser().Username("dm").Rule("on", ">pw", "~"+m0.keys.index, "~"+m0.keys.entries, "+@all").Build()
	if err := admin.Do(ctx, setUser).Error(); err != nil {
		t.Fatal(err)
	}
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{srv.Addr}, Username: "dm", Password: "pw", DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m, _ := New(c, "acl", Options{})
	addAll(t, m, priceIndex)
	calls := []error{
		errOf(m.Get(ctx, "25500.12346")), errOf(m.Len(ctx)),
		errOf(m.Range(ctx, Query{Min: Exclusive("25500.12345"), Limit: 2})), errOf(m.Range(ctx, Query{Reverse: true})),
		errOf(m.Scan(ctx, "25500.12346", 2)), errOf(m.RemoveValue(ctx, "25500.12346", "user2")),
		errOf(m.Remove(ctx, "25505.233", "7")), m.Drop(ctx),
	}
	for i, err := range calls {
		if err != nil {
			t.Errorf("call %d as a user limited to the map's keys: %v", i, err)
		}
	}
	if n, err := m0.Len(ctx); err != nil || n != 0 {
		t.Errorf("Len after Drop = %d, %v", n, err)
	}
}

// A key's canonical text can be longer than the text added ("1e20" is 21
// bytes): Add refuses a key whose canonical text is over MaxKeyLen, so
// that every key stored reads back and a Scan pages past it by the
// cursor it returns.
func TestCanonicalTextWithinMaxKeyLen(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	m, err := New(env.Client, env.Prefix+"_canon", Options{MaxKeyLen: 8})
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, env.Client, m.Name())
	if _, err := m.Add(ctx, "1e20", "a"); !errors.Is(err, ErrKey) {
		t.Fatalf("Add of 1e20 (21 canonical bytes) under MaxKeyLen 8: %v, want ErrKey", err)
	}
	if diff := cmp.Diff(before, snapshot(t, env.Client, m.Name())); diff != "" {
		t.Errorf("the refused Add changed Redis (-before +after):\n%s", diff)
	}
	for _, k := range []string{"1e7", "2.5e3", "3"} { // canonical 10000000, 2500, 3
		if _, err := m.Add(ctx, k, "v"); err != nil {
			t.Fatalf("Add(%q): %v", k, err)
		}
	}
	var got []string
	var cur Cursor
	for {
		p, err := m.Scan(ctx, cur, 1)
		if err != nil {
			t.Fatalf("Scan from %q: %v", cur, err)
		}
		for _, e := range p.Entries {
			got = append(got, e.Key)
			if _, err := m.Get(ctx, e.Key); err != nil {
				t.Errorf("Get of the key Scan returned, %q: %v", e.Key, err)
			}
		}
		if !p.HasMore {
			break
		}
		cur = p.Next
	}
	if want := []string{"3", "2500", "10000000"}; !slices.Equal(got, want) {
		t.Errorf("Scan one by one: %q, want %q", got, want)
	}
}
