package pack

import (
	"bytes"
	"cmp"
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The oracles here are independent of the code under test: strconv and
// math/big for values, a regular expression for the decimal grammar, and a
// text generator that writes one value in several notations.

func FuzzUintCodec(f *testing.F) {
	f.Add(uint64(0), uint64(1), uint8(0))
	f.Add(uint64(9), uint64(10), uint8(1))
	f.Add(uint64(1<<53-1), uint64(1<<53), uint8(15))
	f.Add(uint64(math.MaxUint64), uint64(math.MaxUint64-1), uint8(19))
	f.Add(uint64(1e19-1), uint64(1e19), uint8(18))
	f.Fuzz(func(t *testing.T, a, b uint64, w uint8) {
		width := 1 + int(w)%MaxUintWidth
		ea, va := fuzzUintEnc(t, a, width)
		eb, vb := fuzzUintEnc(t, b, width)
		if got, want := bytes.Compare(ea[0], eb[0]), cmp.Compare(va, vb); got != want {
			t.Errorf("width %d: AppendUint %d -> %q, %d -> %q: byte order %d, numeric %d", width, va, ea[0], vb, eb[0], got, want)
		}
		if got, want := bytes.Compare(ea[1], eb[1]), cmp.Compare(vb, va); got != want {
			t.Errorf("width %d: AppendUintDesc %d -> %q, %d -> %q: byte order %d, want %d", width, va, ea[1], vb, eb[1], got, want)
		}
	})
}

// fuzzUintEnc checks the overflow rule for v, reduces v into range and
// returns its ascending and descending encodings, checked against strconv.
func fuzzUintEnc(t *testing.T, v uint64, width int) ([2][]byte, uint64) {
	if width < MaxUintWidth {
		limit := uint64(math.Pow10(width)) // exact: 10^width < 2^64 for width < 20
		if _, err := AppendUint(nil, v, width); (v >= limit) != errors.Is(err, ErrOverflow) {
			t.Fatalf("AppendUint(%d, %d): err = %v, limit %d", v, width, err, limit)
		}
		v %= limit
	}
	asc, err1 := AppendUint(nil, v, width)
	desc, err2 := AppendUintDesc(nil, v, width)
	if err1 != nil || err2 != nil || len(asc) != width || len(desc) != width {
		t.Fatalf("encode %d width %d: %q %v, %q %v", v, width, asc, err1, desc, err2)
	}
	if n, err := strconv.ParseUint(string(asc), 10, 64); err != nil || n != v {
		t.Fatalf("AppendUint(%d, %d) = %q, strconv reads %d, %v", v, width, asc, n, err)
	}
	for i := range asc {
		if asc[i]-'0'+desc[i]-'0' != 9 {
			t.Fatalf("AppendUintDesc(%d, %d) = %q is not the complement of %q", v, width, desc, asc)
		}
	}
	b1, err1 := ParseUint(asc, width)
	b2, err2 := ParseUintDesc(string(desc), width)
	if err1 != nil || err2 != nil || b1 != v || b2 != v {
		t.Fatalf("parse back %d: %d %v, %d %v", v, b1, err1, b2, err2)
	}
	return [2][]byte{asc, desc}, v
}

func FuzzIntCodec(f *testing.F) {
	f.Add(int64(0), int64(-1), uint8(0))
	f.Add(int64(-10), int64(9), uint8(0))
	f.Add(int64(-1<<53), int64(1<<53-1), uint8(15))
	f.Add(int64(math.MinInt64), int64(math.MaxInt64), uint8(18))
	f.Add(int64(math.MinInt64), int64(-1e18), uint8(17))
	f.Fuzz(func(t *testing.T, a, b int64, w uint8) {
		width := 1 + int(w)%MaxIntWidth
		ea, va := fuzzIntEnc(t, a, width)
		eb, vb := fuzzIntEnc(t, b, width)
		if got, want := bytes.Compare(ea[0], eb[0]), cmp.Compare(va, vb); got != want {
			t.Errorf("width %d: AppendInt %d -> %q, %d -> %q: byte order %d, numeric %d", width, va, ea[0], vb, eb[0], got, want)
		}
		if got, want := bytes.Compare(ea[1], eb[1]), cmp.Compare(vb, va); got != want {
			t.Errorf("width %d: AppendIntDesc %d -> %q, %d -> %q: byte order %d, want %d", width, va, ea[1], vb, eb[1], got, want)
		}
	})
}

func fuzzIntEnc(t *testing.T, v int64, width int) ([2][]byte, int64) {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(width)), nil)
	bv := big.NewInt(v)
	inRange := bv.CmpAbs(p) < 0 || bv.Cmp(new(big.Int).Neg(p)) == 0
	if _, err := AppendInt(nil, v, width); inRange == errors.Is(err, ErrOverflow) {
		t.Fatalf("AppendInt(%d, %d): err = %v, in range %v", v, width, err, inRange)
	}
	if !inRange {
		v %= p.Int64() // width < 19 here, so p fits
	}
	asc, err1 := AppendInt(nil, v, width)
	desc, err2 := AppendIntDesc(nil, v, width)
	if err1 != nil || err2 != nil || len(asc) != width+1 || len(desc) != width+1 {
		t.Fatalf("encode %d width %d: %q %v, %q %v", v, width, asc, err1, desc, err2)
	}
	// Independent reading of the format: '1' digits, or '0' (10^width+v).
	digits, _ := new(big.Int).SetString(string(asc[1:]), 10)
	if asc[0] == '0' {
		digits.Sub(digits, p)
	}
	if (asc[0] != '0' && asc[0] != '1') || digits.Cmp(big.NewInt(v)) != 0 {
		t.Fatalf("AppendInt(%d, %d) = %q reads as %v", v, width, asc, digits)
	}
	b1, err1 := ParseInt(string(asc), width)
	b2, err2 := ParseIntDesc(desc, width)
	if err1 != nil || err2 != nil || b1 != v || b2 != v {
		t.Fatalf("parse back %d: %d %v, %d %v", v, b1, err1, b2, err2)
	}
	return [2][]byte{asc, desc}, v
}

// FuzzIntParse feeds arbitrary text to the parsers: each must accept
// exactly its encoder's outputs (checked against strconv and math/big) and
// never panic.
func FuzzIntParse(f *testing.F) {
	for _, s := range []string{"", "0", "00", "10", "09", "1005", "0995", "18446744073709551615",
		"18446744073709551616", "19223372036854775807", "00776627963145224192", "00776627963145224191", "+1", "1a"} {
		f.Add(s, uint8(len(s)))
		f.Add(s, uint8(len(s)-1))
	}
	f.Fuzz(func(t *testing.T, s string, w uint8) {
		width := int(w) % 22 // also outside the allowed widths
		u, err := ParseUint(s, width)
		want, ok := fuzzUintOracle(s, width)
		if ok && err == nil && u != want {
			t.Fatalf("ParseUint(%q, %d) = %d, strconv reads %d", s, width, u, want)
		}
		fuzzCheckParse(t, "ParseUint", s, width, ok, err, func() []byte { b, _ := AppendUint(nil, u, width); return b })

		u, err = ParseUintDesc(s, width)
		want, ok = fuzzUintOracle(fuzzComplement(s), width)
		if ok && err == nil && u != want {
			t.Fatalf("ParseUintDesc(%q, %d) = %d, want %d", s, width, u, want)
		}
		fuzzCheckParse(t, "ParseUintDesc", s, width, ok, err, func() []byte { b, _ := AppendUintDesc(nil, u, width); return b })

		v, err := ParseInt([]byte(s), width)
		wantI, okI := fuzzIntOracle(s, width)
		if okI && err == nil && v != wantI {
			t.Fatalf("ParseInt(%q, %d) = %d, want %d", s, width, v, wantI)
		}
		fuzzCheckParse(t, "ParseInt", s, width, okI, err, func() []byte { b, _ := AppendInt(nil, v, width); return b })

		v, err = ParseIntDesc(s, width)
		if okI && err == nil && v != ^wantI {
			t.Fatalf("ParseIntDesc(%q, %d) = %d, want %d", s, width, v, ^wantI)
		}
		fuzzCheckParse(t, "ParseIntDesc", s, width, okI, err, func() []byte { b, _ := AppendIntDesc(nil, v, width); return b })
	})
}

// fuzzUintOracle reads s as AppendUint's format, with strconv.
func fuzzUintOracle(s string, width int) (uint64, bool) {
	if width < 1 || width > MaxUintWidth || len(s) != width || !fuzzAllDigits(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// fuzzIntOracle reads s as AppendInt's format, with math/big.
func fuzzIntOracle(s string, width int) (int64, bool) {
	if width < 1 || width > MaxIntWidth || len(s) != width+1 || (s[0] != '0' && s[0] != '1') || !fuzzAllDigits(s[1:]) {
		return 0, false
	}
	v, _ := new(big.Int).SetString(s[1:], 10)
	if s[0] == '0' {
		v.Sub(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(width)), nil))
	}
	return v.Int64(), v.IsInt64()
}

// fuzzComplement replaces each ASCII digit d of s by 9-d.
func fuzzComplement(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= '0' && c <= '9' {
			b[i] = '9' - c + '0'
		}
	}
	return string(b)
}

func fuzzAllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// fuzzCheckParse checks that a parser accepted s exactly when the oracle
// says so, that errors wrap a sentinel, and that an accepted s is what the
// encoder writes for the parsed value.
func fuzzCheckParse(t *testing.T, fn, s string, width int, ok bool, err error, reenc func() []byte) {
	t.Helper()
	if ok != (err == nil) {
		t.Fatalf("%s(%q, %d): err = %v, oracle accepts: %v", fn, s, width, err, ok)
	}
	if err != nil {
		if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrOverflow) && !errors.Is(err, ErrLayout) {
			t.Fatalf("%s(%q, %d): error wraps no sentinel: %v", fn, s, width, err)
		}
		return
	}
	if got := reenc(); string(got) != s {
		t.Fatalf("%s(%q, %d): re-encoding gives %q", fn, s, width, got)
	}
}

// fuzzDecTexts writes coef × 10^exp in several notations; coef is an
// optional '-' and decimal digits. All of them must encode alike.
func fuzzDecTexts(coef string, exp int) []string {
	sign, digits := "", coef
	if strings.HasPrefix(coef, "-") {
		sign, digits = "-", coef[1:]
	}
	n := len(digits)
	texts := []string{
		coef + "e" + strconv.Itoa(exp),
		sign + "00" + digits + "000E" + fuzzSigned(exp-3),
		sign + digits[:1] + "." + digits[1:] + "e" + fuzzSigned(exp+n-1),
		sign + "." + digits + "0e" + strconv.Itoa(exp+n),
	}
	if sign == "" {
		texts = append(texts, "+"+digits+"E"+strconv.Itoa(exp))
	}
	if exp >= 0 && exp <= 400 {
		texts = append(texts, coef+strings.Repeat("0", exp), coef+strings.Repeat("0", exp)+".000")
	}
	if exp < 0 && exp >= -400 {
		padded := strings.Repeat("0", max(0, -exp-n+1)) + digits
		cut := len(padded) + exp
		texts = append(texts, sign+padded[:cut]+"."+padded[cut:]+"00")
	}
	return texts
}

func fuzzSigned(x int) string {
	if x >= 0 {
		return "+" + strconv.Itoa(x)
	}
	return strconv.Itoa(x)
}

// fuzzCoef builds a coefficient of up to 39 digits from fuzz inputs.
func fuzzCoef(hi int64, lo uint64, long bool) string {
	s := strconv.FormatInt(hi, 10)
	if long {
		s += strconv.FormatUint(lo%1e19+1e19, 10)[1:] // 19 more digits
	}
	return s
}

func FuzzDecimalOrder(f *testing.F) {
	f.Add(int64(2550012345), uint64(0), false, int16(-5), int64(2550012346), uint64(0), false, int16(-5))
	f.Add(int64(25505233), uint64(0), false, int16(-3), int64(2550505443), uint64(0), false, int16(-5))
	f.Add(int64(-1), uint64(0), false, int16(0), int64(-5), uint64(0), false, int16(-1))
	f.Add(int64(-10), uint64(0), false, int16(0), int64(-999), uint64(0), false, int16(-2))
	f.Add(int64(1), uint64(0), false, int16(0), int64(15), uint64(0), false, int16(-1))
	f.Add(int64(0), uint64(5), true, int16(7), int64(-0), uint64(0), false, int16(-9))
	f.Add(int64(1), uint64(1), true, int16(-32768), int64(1), uint64(0), false, int16(32767))
	f.Add(int64(math.MinInt64), uint64(math.MaxUint64), true, int16(100), int64(math.MaxInt64), uint64(1e18), true, int16(-100))
	f.Fuzz(func(t *testing.T, ah int64, al uint64, along bool, ae int16, bh int64, bl uint64, blong bool, be int16) {
		ca, cb := fuzzCoef(ah, al, along), fuzzCoef(bh, bl, blong)
		ea, ra := fuzzDecEncode(t, ca, int(ae))
		eb, rb := fuzzDecEncode(t, cb, int(be))
		if got, want := bytes.Compare(ea, eb), ra.Cmp(rb); got != want {
			t.Fatalf("%se%d -> %q, %se%d -> %q: byte order %d, numeric %d", ca, ae, ea, cb, be, eb, got, want)
		}
		if !bytes.Equal(ea, eb) && (bytes.HasPrefix(eb, ea) || bytes.HasPrefix(ea, eb)) {
			t.Fatalf("%q and %q: one is a prefix of the other", ea, eb)
		}
		joined := append(append([]byte(nil), ea...), eb...)
		if _, n, err := DecodeDecimal(joined); err != nil || n != len(ea) {
			t.Fatalf("DecodeDecimal(%q) consumed %d, %v; want %d", joined, n, err, len(ea))
		}
	})
}

// fuzzDecEncode encodes coef × 10^exp from every notation, checks that they
// agree and round-trip, and returns the encoding and the exact value.
func fuzzDecEncode(t *testing.T, coef string, exp int) ([]byte, *big.Rat) {
	texts := fuzzDecTexts(coef, exp)
	want := decRat(t, texts[0])
	enc, err := AppendDecimal(nil, texts[0])
	if err != nil {
		t.Fatalf("AppendDecimal(%q): %v", texts[0], err)
	}
	for _, s := range texts[1:] {
		if got, err := EncodeDecimal(s); err != nil || got != string(enc) {
			t.Fatalf("EncodeDecimal(%q) = %q, %v; want %q as for %q", s, got, err, enc, texts[0])
		}
	}
	bc, _ := new(big.Int).SetString(coef, 10)
	if got, err := AppendDecimalBig(nil, bc, int32(exp)); err != nil || !bytes.Equal(got, enc) {
		t.Fatalf("AppendDecimalBig(%s, %d) = %q, %v; want %q", coef, exp, got, err, enc)
	}
	canon, n, err := DecodeDecimal(enc)
	if err != nil || n != len(enc) || decRat(t, canon).Cmp(want) != 0 {
		t.Fatalf("DecodeDecimal(%q) = %q, %d, %v; want %v", enc, canon, n, err, want)
	}
	if c, err := CanonicalDecimal(texts[0]); err != nil || c != canon {
		t.Fatalf("CanonicalDecimal(%q) = %q, %v; DecodeDecimal gave %q", texts[0], c, err, canon)
	}
	gc, ge, n, err := DecodeDecimalBig(enc)
	if err != nil || n != len(enc) || decRat(t, gc.String()+"e"+strconv.Itoa(int(ge))).Cmp(want) != 0 {
		t.Fatalf("DecodeDecimalBig(%q) = %v, %d, %d, %v; want %v", enc, gc, ge, n, err, want)
	}
	if gc.Sign() != 0 && new(big.Int).Rem(gc, big.NewInt(10)).Sign() == 0 {
		t.Fatalf("DecodeDecimalBig(%q) = %v, %d: coefficient has a trailing zero", enc, gc, ge)
	}
	return enc, want
}

// decGrammar is the accepted decimal syntax, written independently.
var decGrammar = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE]([+-]?[0-9]+))?$`)

// FuzzDecimalParse feeds arbitrary text to the parser: it must accept
// exactly the grammar (refusing only out-of-range exponents besides), never
// panic, and round-trip through the canonical text.
func FuzzDecimalParse(f *testing.F) {
	for _, s := range []string{"0", "-0", "25500.10", ".5", "5.", "1E+30", "-0.00001", "1e", "--1", "NaN",
		"Inf", "1.2.3", " 1", "1e2147483647", "1e2147483648", "0.1e-2147483648", "0e99999999999999999999", "1_0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		canon, err := CanonicalDecimal(s)
		enc, err2 := EncodeDecimal(s)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("%q: CanonicalDecimal err %v, EncodeDecimal err %v", s, err, err2)
		}
		m := decGrammar.FindStringSubmatch(s)
		if err != nil {
			fuzzCheckDecRefusal(t, s, m, err)
			return
		}
		if m == nil {
			t.Fatalf("%q is outside the grammar but accepted as %q", s, canon)
		}
		if back, n, err := DecodeDecimal(enc); err != nil || back != canon || n != len(enc) {
			t.Fatalf("%q: DecodeDecimal(%q) = %q, %d, %v; want %q", s, enc, back, n, err, canon)
		}
		if c2, err := CanonicalDecimal(canon); err != nil || c2 != canon {
			t.Fatalf("%q: canonical %q is not a fixed point: %q, %v", s, canon, c2, err)
		}
		if e2, _ := EncodeDecimal(canon); e2 != enc {
			t.Fatalf("%q: canonical %q encodes as %q, not %q", s, canon, e2, enc)
		}
		if x, err := strconv.Atoi(m[3]); (m[3] == "" || (err == nil && x > -5000 && x < 5000)) && len(s) < 5000 {
			if decRat(t, s).Cmp(decRat(t, canon)) != 0 {
				t.Fatalf("%q: canonical %q has another value", s, canon)
			}
		}
	})
}

// fuzzCheckDecRefusal checks that a refused s is outside the grammar
// (ErrSyntax) or has an exponent whose magnitude nears 2^31 (ErrOverflow).
func fuzzCheckDecRefusal(t *testing.T, s string, m []string, err error) {
	if m == nil {
		if !errors.Is(err, ErrSyntax) {
			t.Fatalf("%q: err = %v, want ErrSyntax", s, err)
		}
		return
	}
	x, _ := new(big.Int).SetString(strings.TrimPrefix(m[3], "+"), 10)
	if !errors.Is(err, ErrOverflow) || x == nil || x.CmpAbs(big.NewInt(math.MaxInt32-int64(len(s))-1)) < 0 {
		t.Fatalf("%q matches the grammar but is refused: %v", s, err)
	}
}

// FuzzDecimalDecode feeds arbitrary bytes to the decoders: they must never
// panic, and accept exactly the encodings the encoder writes.
func FuzzDecimalDecode(f *testing.F) {
	for _, s := range []string{"O", "Pa01.", "Na08~", "Pa4255001.:user1", "PA78525163511.", "Pj21474836481.",
		"Pa00.", "Pb05.", "PJ91.", "Na09~", "", "\xff", "PG89991.Pa01."} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		dec, n, err := DecodeDecimal(b)
		dec2, n2, err2 := DecodeDecimal(string(b))
		coef, exp, n3, err3 := DecodeDecimalBig(b)
		if dec != dec2 || n != n2 || n != n3 || (err == nil) != (err2 == nil) || (err == nil) != (err3 == nil) {
			t.Fatalf("%q: decoders disagree: %q %d %v / %q %d %v / %v %d %d %v", b, dec, n, err, dec2, n2, err2, coef, exp, n3, err3)
		}
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("%q: err = %v, want ErrSyntax", b, err)
			}
			return
		}
		if n < 1 || n > len(b) {
			t.Fatalf("%q: consumed %d", b, n)
		}
		if enc, err := EncodeDecimal(dec); err != nil || enc != string(b[:n]) {
			t.Fatalf("%q: decoded %q re-encodes as %q, %v; want %q", b, dec, enc, err, b[:n])
		}
		if enc, err := AppendDecimalBig(nil, coef, exp); err != nil || string(enc) != string(b[:n]) {
			t.Fatalf("%q: DecodeDecimalBig gave %v, %d, which re-encodes as %q, %v", b, coef, exp, enc, err)
		}
	})
}
