package pack

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/clip"
)

// decRat parses s with math/big, independently of the package's parser.
func decRat(t testing.TB, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("big.Rat cannot parse %q", s)
	}
	return r
}

func mustEncodeDecimal(t testing.TB, s string) string {
	t.Helper()
	e, err := EncodeDecimal(s)
	if err != nil {
		t.Fatalf("EncodeDecimal(%q): %v", s, err)
	}
	return e
}

// TestDecimalGolden pins the persistent format: members already stored in
// Redis must keep decoding, so any change here is a breaking change.
func TestDecimalGolden(t *testing.T) {
	rows := []struct{ in, enc, canon string }{
		{"0", "O", "0"},
		{"1", "Pa01.", "1"},
		{"1.5", "Pa015.", "1.5"},
		{"10", "Pa11.", "10"},
		{"25500.1", "Pa4255001.", "25500.1"},
		{"25500.12345", "Pa42550012345.", "25500.12345"},
		{"1E+30", "Pb301.", "1000000000000000000000000000000"},
		{"1e31", "Pb311.", "1E+31"},
		{"0.00001", "PJ41.", "0.00001"},
		{".5", "PJ85.", "0.5"},
		{"5.", "Pa05.", "5"},
		{"-1", "Na08~", "-1"},
		{"-1.5", "Na084~", "-1.5"},
		{"-10", "NJ88~", "-10"},
		{"-9.99", "Na0000~", "-9.99"},
		{"-0.00001", "Na58~", "-0.00001"},
		{"1E-1000", "PG89991.", "1E-1000"},
		{"-1.25e-40", "Nb40874~", "-1.25E-40"},
		{"1e2147483647", "Pj21474836471.", "1E+2147483647"},
		{"1e-2147483648", "PA78525163511.", "1E-2147483648"},
		{"-1e-2147483648", "Nj21474836488~", "-1E-2147483648"},
		{"-1e2147483647", "NA78525163528~", "-1E+2147483647"},
		{"1200", "Pa312.", "1200"},
		{"1.5e30", "Pb3015.", "1500000000000000000000000000000"},
		{"123e40", "Pb42123.", "1.23E+42"},
		{"1e-31", "PI681.", "0.0000000000000000000000000000001"},
		{"1e-32", "PI671.", "1E-32"},
	}
	for _, r := range rows {
		enc := mustEncodeDecimal(t, r.in)
		if diff := cmp.Diff(r.enc, enc); diff != "" {
			t.Errorf("EncodeDecimal(%q) (-want +got):\n%s", r.in, diff)
		}
		canon, n, err := DecodeDecimal(enc)
		if err != nil || n != len(enc) {
			t.Errorf("DecodeDecimal(%q) = %q, %d, %v", enc, canon, n, err)
		}
		if diff := cmp.Diff(r.canon, canon); diff != "" {
			t.Errorf("DecodeDecimal(EncodeDecimal(%q)) (-want +got):\n%s", r.in, diff)
		}
		if c, err := CanonicalDecimal(r.in); err != nil || c != r.canon {
			t.Errorf("CanonicalDecimal(%q) = %q, %v; want %q", r.in, c, err, r.canon)
		}
	}
}

// TestDecimalPriceIndexOrder: the price-index example's keys sort as
// numbers.
func TestDecimalPriceIndexOrder(t *testing.T) {
	want := []string{"25500.12345", "25500.12346", "25505.05443", "25505.233", "25506.12345"}
	shuffled := []string{"25505.233", "25500.12346", "25506.12345", "25500.12345", "25505.05443"}
	byEnc := map[string]string{}
	var encs []string
	for _, k := range shuffled {
		e := mustEncodeDecimal(t, k)
		byEnc[e] = k
		encs = append(encs, e)
	}
	slices.Sort(encs) // byte order, as ZRANGE BYLEX
	var got []string
	for _, e := range encs {
		got = append(got, byEnc[e])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keys in byte order (-want +got):\n%s", diff)
	}
}

// TestDecimalPriceIndexRange runs the price-index range query as Redis would:
// members "key:i:user" (i keeps a key's repeated users in order) in byte
// order, and ZRANGE BYLEX between the bounds.
func TestDecimalPriceIndexRange(t *testing.T) {
	members := []string{}
	for k, users := range map[string][]string{
		"25500.12345": {"user1", "user2"}, "25500.12346": {"user2", "user3", "user2"},
		"25505.05443": {"user2", "user1"}, "25505.233": {"user3"}, "25506.12345": {"user3", "user5"},
	} {
		for i, u := range users {
			members = append(members, mustEncodeDecimal(t, k)+":"+string(rune('0'+i))+":"+u)
		}
	}
	slices.Sort(members)
	// ZRANGE key [lo (hiEnd BYLEX: lo is enc(25500.12346), a prefix of all
	// its members; hiEnd is enc(25505.2) with its last byte raised, above
	// every member whose key is <= 25505.2 (no encoding is a prefix of
	// another) and below every larger key.
	lo, hi := mustEncodeDecimal(t, "25500.12346"), mustEncodeDecimal(t, "25505.2")
	hiEnd := hi[:len(hi)-1] + string(hi[len(hi)-1]+1)
	var keys []string
	for _, m := range members {
		if m < lo || m >= hiEnd {
			continue
		}
		canon, n, err := DecodeDecimal(m)
		if err != nil || m[n] != ':' {
			t.Fatalf("DecodeDecimal(%q) = %q, %d, %v", m, canon, n, err)
		}
		keys = append(keys, canon+" "+m[n+3:])
	}
	wantKeys := []string{"25500.12346 user2", "25500.12346 user3", "25500.12346 user2", "25505.05443 user2", "25505.05443 user1"}
	if diff := cmp.Diff(wantKeys, keys); diff != "" {
		t.Errorf("range [25500.12346, 25505.2] (-want +got):\n%s", diff)
	}
}

// decLadder is strictly increasing.
var decLadder = []string{
	"-1E+2147483647", "-1E+1000", "-1E+31", "-25500.12346", "-25500.1234", "-10", "-9.99",
	"-1.5", "-1", "-0.5", "-0.00001", "-1E-1000", "-1E-2147483648",
	"0",
	"1E-2147483648", "1E-1000", "0.00001", "0.099", "0.1", "0.5", "1", "1.00000000000000000001",
	"1.5", "9.99", "10", "25500.1", "25500.12345", "25500.12346", "25505.05443", "25505.233",
	"25506.12345", "9007199254740993", "1E+30", "1E+31", "1E+1000", "9.9E+2147483647",
}

func TestDecimalLadder(t *testing.T) {
	for i := 1; i < len(decLadder); i++ {
		a, b := decLadder[i-1], decLadder[i]
		if decLadderExpOK(a) && decLadderExpOK(b) && decRat(t, a).Cmp(decRat(t, b)) >= 0 {
			t.Fatalf("ladder is not increasing at %q, %q", a, b) // the test's own data
		}
		ea, eb := mustEncodeDecimal(t, a), mustEncodeDecimal(t, b)
		if ea >= eb {
			t.Errorf("enc(%q) = %q >= enc(%q) = %q", a, ea, b, eb)
		}
	}
	for _, a := range decLadder {
		for _, b := range decLadder {
			ea, eb := mustEncodeDecimal(t, a), mustEncodeDecimal(t, b)
			if a != b && strings.HasPrefix(eb, ea) {
				t.Errorf("enc(%q) = %q is a prefix of enc(%q) = %q", a, ea, b, eb)
			}
		}
	}
}

// decLadderExpOK reports whether big.Rat can parse s quickly.
func decLadderExpOK(s string) bool {
	return !strings.Contains(s, "E+2147") && !strings.Contains(s, "E-2147")
}

func TestDecimalEqualForms(t *testing.T) {
	groups := [][]string{
		{"25500.1", "25500.10", "2.55001E4", "2.55001e+4", "255001e-1", "+25500.100", "0025500.1", "0.0255001e6"},
		{"0", "-0", "+0", "0.000", "0e10", "-0.0e-99", "0.", ".0", "00", "0e99999999999999999999"},
		{"-0.00001", "-1e-5", "-.00001", "-0.000010", "-10E-6"},
		{"1E+30", "1e30", "1000000000000000000000000000000", "1000000000000000000000000000000.000"},
	}
	for _, g := range groups {
		want := mustEncodeDecimal(t, g[0])
		for _, s := range g[1:] {
			if got := mustEncodeDecimal(t, s); got != want {
				t.Errorf("EncodeDecimal(%q) = %q, want %q as for %q", s, got, want, g[0])
			}
		}
	}
}

func TestDecimalRefuses(t *testing.T) {
	rows := []struct {
		s   string
		err error
	}{
		{"", ErrSyntax}, {"abc", ErrSyntax}, {"1e", ErrSyntax}, {"--1", ErrSyntax},
		{"NaN", ErrSyntax}, {"Inf", ErrSyntax}, {"-Inf", ErrSyntax}, {"Infinity", ErrSyntax},
		{"1.2.3", ErrSyntax}, {" 1", ErrSyntax}, {"1 ", ErrSyntax}, {"1 0", ErrSyntax},
		{".", ErrSyntax}, {"+", ErrSyntax}, {"-", ErrSyntax}, {"e5", ErrSyntax}, {".e5", ErrSyntax},
		{"1e+", ErrSyntax}, {"1e-", ErrSyntax}, {"1e5.5", ErrSyntax}, {"0x10", ErrSyntax},
		{"1_000", ErrSyntax}, {"1,5", ErrSyntax}, {"+-1", ErrSyntax}, {"1e--5", ErrSyntax},
		{"\u0661", ErrSyntax}, {"1\x00", ErrSyntax},
		{"1e2147483648", ErrOverflow}, {"10e2147483647", ErrOverflow},
		{"9.99e2147483647.5", ErrSyntax},
		{"1e-2147483649", ErrOverflow}, {"0.1e-2147483648", ErrOverflow},
		{"1.5e-2147483648", ErrOverflow}, {"-1e99999999999999999999", ErrOverflow},
		{"1e18446744073709551621", ErrOverflow}, // 2^64+5: must not wrap to 1e5
	}
	for _, r := range rows {
		dst, err := AppendDecimal([]byte("keep"), r.s)
		if !errors.Is(err, r.err) {
			t.Errorf("AppendDecimal(%q): err = %v, want %v", r.s, err, r.err)
			continue
		}
		if string(dst) != "keep" {
			t.Errorf("AppendDecimal(%q) changed dst on error: %q", r.s, dst)
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", r.s)) {
			t.Errorf("AppendDecimal(%q): error %q does not name the input", r.s, err)
		}
		if _, err := CanonicalDecimal(r.s); !errors.Is(err, r.err) {
			t.Errorf("CanonicalDecimal(%q): err = %v, want %v", r.s, err, r.err)
		}
	}
}

func TestDecimalLongInputs(t *testing.T) {
	digits := strings.Repeat("1234567890", 100) + "1" // 1001 digits
	s := "-" + digits + "." + digits
	canon, err := CanonicalDecimal(s)
	if err != nil || canon != s {
		t.Fatalf("CanonicalDecimal(2003-digit value) = %.40q..., %v", canon, err)
	}
	enc := mustEncodeDecimal(t, s)
	if back, n, err := DecodeDecimal([]byte(enc)); err != nil || back != s || n != len(enc) {
		t.Fatalf("DecodeDecimal(EncodeDecimal(s)) = %.40q..., %d, %v", back, n, err)
	}
	_, err = CanonicalDecimal(s + "x")
	if !errors.Is(err, ErrSyntax) || len(err.Error()) > 200 {
		t.Errorf("error for a long bad input = %q, want a short ErrSyntax", err)
	}
}

func TestAppendDecimalBig(t *testing.T) {
	rows := []struct {
		coef string
		exp  int32
		want string // canonical text of the value, or "" for an error
		err  error
	}{
		{"255001", -1, "25500.1", nil},
		{"2550010", -2, "25500.1", nil},
		{"-1", -5, "-0.00001", nil},
		{"0", 5, "0", nil},
		{"-0", math.MinInt32, "0", nil},
		{"1", math.MaxInt32, "1E+2147483647", nil},
		{"1", math.MinInt32, "1E-2147483648", nil},
		{"-15", math.MinInt32, "-1.5E-2147483647", nil},
		{"100", math.MaxInt32 - 2, "1E+2147483647", nil},
		{"10", math.MaxInt32, "", ErrOverflow},
		{"12", math.MaxInt32, "", ErrOverflow},
		{"123456789012345678901234567890", -20, "1234567890.1234567890123456789", nil},
	}
	for _, r := range rows {
		coef, _ := new(big.Int).SetString(r.coef, 10)
		enc, err := AppendDecimalBig(nil, coef, r.exp)
		if r.err != nil {
			if !errors.Is(err, r.err) || !strings.Contains(err.Error(), r.coef) {
				t.Errorf("AppendDecimalBig(%s, %d): err = %v, want %v naming the input", r.coef, r.exp, err, r.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("AppendDecimalBig(%s, %d): %v", r.coef, r.exp, err)
			continue
		}
		if canonEnc := mustEncodeDecimal(t, r.want); string(enc) != canonEnc {
			t.Errorf("AppendDecimalBig(%s, %d) = %q, want %q (the encoding of %s)", r.coef, r.exp, enc, canonEnc, r.want)
		}
	}
	if _, err := AppendDecimalBig(nil, nil, 3); !errors.Is(err, ErrSyntax) {
		t.Errorf("AppendDecimalBig(nil, 3): err = %v, want ErrSyntax", err)
	}
}

func TestDecodeDecimalBig(t *testing.T) {
	rows := []struct {
		in   string
		coef string
		exp  int32
	}{
		{"25500.1", "255001", -1},
		{"1200", "12", 2},
		{"0", "0", 0},
		{"-0.00001", "-1", -5},
		{"-1.5e-2147483647", "-15", math.MinInt32},
		{"9.99e2147483647", "999", math.MaxInt32 - 2},
	}
	for _, r := range rows {
		enc := mustEncodeDecimal(t, r.in) + "|id"
		coef, exp, n, err := DecodeDecimalBig(enc)
		if err != nil || n != len(enc)-3 {
			t.Errorf("DecodeDecimalBig(%q) = %v, %d, %d, %v", enc, coef, exp, n, err)
			continue
		}
		got := []any{coef.String(), exp}
		if diff := cmp.Diff([]any{r.coef, r.exp}, got); diff != "" {
			t.Errorf("DecodeDecimalBig(enc(%q)) (-want +got):\n%s", r.in, diff)
		}
	}
}

func TestDecodeDecimalRefuses(t *testing.T) {
	bad := []string{
		"", "X", "o", "P", "N", "Pa", "Pa0", "Pa01", "Pa0.", "Pa00.", "Pa010.", "Pa01~",
		"Na08.", "Na09~", "Na0~", "Na089~", "Pb05.", "Pb5.", "PJ91.", "PJ", "PJ9", "Pk01.", "PK01.",
		"P@01.", "Pj21474836481.", "PA78525163501.", "Nj21474836498~", "Pa0x1.", "Pa0١.",
		"PA785251635112.", // last digit at 10^(MinInt32-1)
		"Na58", "Na5~", "\xff", "O"[:0],
	}
	for _, s := range bad {
		for _, in := range []any{s, []byte(s)} {
			var err error
			switch v := in.(type) {
			case string:
				_, _, err = DecodeDecimal(v)
			case []byte:
				_, _, _, err = DecodeDecimalBig(v)
			}
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("decode %s (%T): err = %v, want ErrSyntax", s, in, err)
			} else if !strings.Contains(err.Error(), clip.Quote(s)) {
				t.Errorf("decode %q: error %q does not name the input", s, err)
			}
		}
	}
}

func TestDecodeDecimalConsumed(t *testing.T) {
	for _, s := range []string{"0", "25500.1", "-9.99", "1E-1000"} {
		enc := mustEncodeDecimal(t, s)
		for _, suffix := range []string{"", ":user1", "0", "9", ".", "~", "O", enc} {
			in := []byte(enc + suffix)
			got, n, err := DecodeDecimal(in)
			if err != nil || n != len(enc) || !bytes.Equal(in[n:], []byte(suffix)) {
				t.Errorf("DecodeDecimal(%q) = %q, %d, %v; want n = %d", in, got, n, err, len(enc))
			}
		}
	}
}

func TestDecimalAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf, _ = AppendDecimal(buf[:0], "-25500.12345") }); n != 0 {
		t.Errorf("AppendDecimal with capacity: %v allocs, want 0", n)
	}
	var sink string
	if n := testing.AllocsPerRun(100, func() { sink, _ = EncodeDecimal("-25500.12345") }); n > 1 {
		t.Errorf("EncodeDecimal: %v allocs, want at most 1", n)
	}
	enc := mustEncodeDecimal(t, "-25500.12345")
	if n := testing.AllocsPerRun(100, func() { sink, _, _ = DecodeDecimal(enc) }); n > 1 {
		t.Errorf("DecodeDecimal: %v allocs, want at most 1", n)
	}
	_ = sink
}
