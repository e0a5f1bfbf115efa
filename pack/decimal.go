package pack

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"

	"github.com/tiebreak/tiebreak/internal/clip"
)

// decPlainZeros is the most padding zeros the canonical text writes in plain
// notation; a value needing more is written in scientific notation.
const decPlainZeros = 30

const (
	decNeg    = 'N'
	decZero   = 'O'
	decPos    = 'P'
	decPosEnd = '.'
	decNegEnd = '~'
	decBufLen = 64
)

// decNum is a normalised decimal: value = ±d1.d2...dn × 10^exp with digits
// d1...dn as ASCII, no leading or trailing '0'. Zero has no digits, neg
// false and exp 0.
type decNum struct {
	neg    bool
	exp    int64
	digits []byte
}

// AppendDecimal appends to dst the order-preserving encoding of the exact
// decimal number written in s. On error dst is returned unchanged.
//
// s is an optional sign ('+' or '-'), digits with at most one '.' and at
// least one digit on either side of it ("5.", ".5" and "007" are accepted),
// and an optional exponent: 'e' or 'E', an optional sign, at least one
// digit ("1E+30", "2.55001e4"). Anything else is refused with ErrSyntax:
// "", "abc", "1e", "--1", "1.2.3", spaces, underscores, hex, NaN and
// infinities.
//
// Format. A nonzero decimal is normalised to a sign, its significant digits
// d1 d2 ... dn (no leading or trailing zero) and its adjusted exponent e,
// the power of ten of d1: value = ±d1.d2...dn × 10^e. So 25500.1,
// 25500.10 and 2.55001E4 all become +, "255001", e=4, and zero (0, -0,
// 0.000, 0e10) has a single form. The encoding is printable ASCII:
//
//	zero      "O"
//	positive  "P" exp(e)  d1 d2 ... dn      "."
//	negative  "N" exp(-e) (9-d1) ... (9-dn) "~"
//
// exp(x) is an order-preserving, self-delimiting integer code: a letter
// giving the sign of x and its number of digits L, then the L digits of
// |x| with no leading zero, complemented (9-d) when x < 0:
//
//	x                        exp(x)
//	0 .. 9                   "a" d          4 -> "a4"
//	10 .. 99                 "b" dd         30 -> "b30"
//	...                      ...
//	10^9 .. 2^31             "j" 10 digits
//	-1 .. -9                 "J" (9-d)      -1 -> "J8", -5 -> "J4"
//	-10 .. -99               "I" 2 digits   -10 -> "I89"
//	...                      ...
//	-10^9 .. -2^31           "A" 10 digits
//
// Examples:
//
//	0            "O"
//	1            "Pa01."
//	1.5          "Pa015."
//	25500.1      "Pa4255001."
//	1E+30        "Pb301."
//	0.00001      "PJ41."
//	-1           "Na08~"
//	-0.00001     "Na58~"
//
// Why it sorts: "N" < "O" < "P"; within a sign, exp is ordered ("A".."J" <
// "a".."j", fewer digits nearer zero) and self-delimiting, and for
// negatives it holds -e so a larger magnitude sorts first; the digits then
// compare left to right, and the terminator ("." below every digit, "~"
// above every complemented digit) makes 1 < 1.5 and -1.5 < -1. Every
// encoding ends at a byte that its own header and digits determine, so no
// encoding is a proper prefix of another and a separator and an id may
// follow it.
//
// Range: every nonzero digit's place value 10^k must have k in int32 range:
// e <= math.MaxInt32 and e-(n-1) >= math.MinInt32 (ErrOverflow otherwise).
// The number of digits is not limited.
func AppendDecimal(dst []byte, s string) ([]byte, error) {
	var buf [decBufLen]byte
	d, err := decParse(s, buf[:0])
	if err != nil {
		return dst, err
	}
	return decEncode(dst, d), nil
}

// EncodeDecimal returns the order-preserving encoding of the decimal
// number in s, as a string ready to be a sorted-set member or its prefix.
// It accepts and refuses what AppendDecimal does.
func EncodeDecimal(s string) (string, error) {
	var out [decBufLen]byte
	b, err := AppendDecimal(out[:0], s)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendDecimalBig appends the encoding of coef × 10^exp, so values held as
// shopspring/decimal (Coefficient, Exponent) or apd (Coeff, Exponent) can be
// encoded without going through text. Trailing zeros of coef are
// normalised away, so (2550010, -2) and (255001, -1) encode alike. A nil
// coef is an error wrapping ErrSyntax; a value whose leading digit's power
// of ten exceeds math.MaxInt32 one wrapping ErrOverflow.
func AppendDecimalBig(dst []byte, coef *big.Int, exp int32) ([]byte, error) {
	if coef == nil {
		return dst, fmt.Errorf("pack: AppendDecimalBig: nil coefficient (exponent %d): %w", exp, ErrSyntax)
	}
	var buf [decBufLen]byte
	digits := coef.Append(buf[:0], 10)
	neg := coef.Sign() < 0
	if neg {
		digits = digits[1:]
	}
	d := decNorm(neg, digits, int64(len(digits))-1+int64(exp))
	if decOutOfRange(d) {
		return dst, fmt.Errorf("pack: AppendDecimalBig: %s×10^%d: exponent outside int32 range: %w",
			clip.Quote(coef.String()), exp, ErrOverflow)
	}
	return decEncode(dst, d), nil
}

// DecodeDecimal decodes the encoding at the start of b and returns the
// number's canonical text and the count of bytes the encoding took, so
// whatever follows it (a separator and an id) is b[n:].
//
// The canonical text is "0" for zero; otherwise an optional '-' and, in
// plain notation, the significant digits with the decimal point where it
// belongs and no superfluous zero ("25500.1", "-0.00001", "1200"), unless
// that would need more than 30 padding zeros: then it is d1[.d2...dn]E±e
// ("1E+31", "-1.25E-40"). The canonical text parses back to the same
// encoding.
//
// The decoder accepts only what the encoder writes, so b[:n] is exactly
// the encoding of the result. If b does not start with a valid encoding
// the error wraps ErrSyntax; DecodeDecimal never panics.
func DecodeDecimal[S ~string | ~[]byte](b S) (dec string, n int, err error) {
	var buf [decBufLen]byte
	d, n, err := decScan(b, buf[:0])
	if err != nil {
		return "", 0, err
	}
	var out [decBufLen]byte
	return string(decFormat(out[:0], d)), n, nil
}

// DecodeDecimalBig is DecodeDecimal returning the value as coef × 10^exp,
// with the trailing zeros of coef normalised away (25500.1 is 255001 and
// -1; 1200 is 12 and 2; zero is 0 and 0). exp always fits: the encoder
// refuses values whose last digit's place is below 10^math.MinInt32.
func DecodeDecimalBig[S ~string | ~[]byte](b S) (coef *big.Int, exp int32, n int, err error) {
	var buf [decBufLen]byte
	d, n, err := decScan(b, buf[:0])
	if err != nil {
		return nil, 0, 0, err
	}
	coef = new(big.Int)
	if len(d.digits) == 0 {
		return coef, 0, n, nil
	}
	coef.SetString(string(d.digits), 10) // digits only: cannot fail
	if d.neg {
		coef.Neg(coef)
	}
	return coef, int32(d.exp - int64(len(d.digits)-1)), n, nil
}

// CanonicalDecimal returns the canonical text of the decimal number in s
// (see DecodeDecimal), without encoding it: CanonicalDecimal("+25500.10")
// is "25500.1", CanonicalDecimal("-0e5") is "0". It accepts and refuses
// what AppendDecimal does. Two strings have the same canonical text exactly
// when they have the same encoding.
func CanonicalDecimal(s string) (string, error) {
	var buf [decBufLen]byte
	d, err := decParse(s, buf[:0])
	if err != nil {
		return "", err
	}
	var out [decBufLen]byte
	return string(decFormat(out[:0], d)), nil
}

// decParse parses decimal text, appending its digits to buf.
func decParse(s string, buf []byte) (decNum, error) {
	i, neg := 0, false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg, i = s[0] == '-', 1
	}
	end := decSkipDigits(s, i)
	whole := s[i:end]
	var frac string
	if i = end; i < len(s) && s[i] == '.' {
		end = decSkipDigits(s, i+1)
		frac, i = s[i+1:end], end
	}
	if whole == "" && frac == "" {
		return decNum{}, decSyntax(s, "no digits")
	}
	exp, i, ok := decParseExp(s, i)
	if !ok || i != len(s) {
		return decNum{}, decSyntax(s, "want [sign] digits [. digits] [e [sign] digits]")
	}
	d := decNorm(neg, append(append(buf, whole...), frac...), int64(len(whole))-1+exp)
	if decOutOfRange(d) {
		return decNum{}, fmt.Errorf("pack: decimal %s: exponent outside int32 range: %w", clip.Quote(s), ErrOverflow)
	}
	return d, nil
}

func decSkipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// decParseExp parses an optional exponent at s[i:], saturating its value
// at ±2^40: far beyond int32, yet safe to add to any string length.
func decParseExp(s string, i int) (exp int64, next int, ok bool) {
	if i == len(s) || (s[i] != 'e' && s[i] != 'E') {
		return 0, i, true
	}
	i++
	neg := i < len(s) && s[i] == '-'
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	end := decSkipDigits(s, i)
	if end == i {
		return 0, i, false
	}
	for ; i < end; i++ {
		exp = min(exp*10+int64(s[i]-'0'), 1<<40)
	}
	if neg {
		exp = -exp
	}
	return exp, end, true
}

// decNorm strips the leading and trailing zeros of digits, whose first
// digit has place value 10^exp.
func decNorm(neg bool, digits []byte, exp int64) decNum {
	for len(digits) > 0 && digits[0] == '0' {
		digits, exp = digits[1:], exp-1
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if len(digits) == 0 {
		return decNum{}
	}
	return decNum{neg: neg, exp: exp, digits: digits}
}

// decOutOfRange reports whether a digit of d has a place value outside
// [10^MinInt32, 10^MaxInt32].
func decOutOfRange(d decNum) bool {
	return len(d.digits) > 0 &&
		(d.exp > math.MaxInt32 || d.exp-int64(len(d.digits)-1) < math.MinInt32)
}

func decSyntax(s string, why string) error {
	return fmt.Errorf("pack: decimal %s: %s: %w", clip.Quote(s), why, ErrSyntax)
}

// decEncode appends the encoding of d, growing dst at most once.
func decEncode(dst []byte, d decNum) []byte {
	if len(d.digits) == 0 {
		return append(dst, decZero)
	}
	dst = slices.Grow(dst, len(d.digits)+13) // header <= 12 bytes, terminator 1
	if !d.neg {
		dst = decAppendExp(append(dst, decPos), d.exp)
		dst = append(dst, d.digits...)
		return append(dst, decPosEnd)
	}
	dst = decAppendExp(append(dst, decNeg), -d.exp)
	for _, c := range d.digits {
		dst = append(dst, '9'-c+'0')
	}
	return append(dst, decNegEnd)
}

// decAppendExp appends exp(x): see the format table above.
func decAppendExp(dst []byte, x int64) []byte {
	var buf [20]byte
	if x >= 0 {
		digits := strconv.AppendInt(buf[:0], x, 10)
		dst = append(dst, 'a'+byte(len(digits)-1))
		return append(dst, digits...)
	}
	digits := strconv.AppendInt(buf[:0], -x, 10)
	dst = append(dst, 'J'-byte(len(digits)-1))
	for _, c := range digits {
		dst = append(dst, '9'-c+'0')
	}
	return dst
}

// decScan decodes the encoding at the start of b, appending its digits
// (uncomplemented) to buf, and returns the count of bytes it took.
func decScan[S ~string | ~[]byte](b S, buf []byte) (decNum, int, error) {
	if len(b) == 0 {
		return decNum{}, 0, decBadCode(b, "empty")
	}
	switch b[0] {
	case decZero:
		return decNum{}, 1, nil
	case decPos, decNeg:
	default:
		return decNum{}, 0, decBadCode(b, "first byte is not N, O or P")
	}
	neg := b[0] == decNeg
	x, i, ok := decScanExp(b, 1)
	if !ok {
		return decNum{}, 0, decBadCode(b, "bad exponent")
	}
	if neg {
		x = -x
	}
	digits, i, ok := decScanDigits(b, i, neg, buf)
	if !ok {
		return decNum{}, 0, decBadCode(b, "bad digits or terminator")
	}
	d := decNum{neg: neg, exp: x, digits: digits}
	if decOutOfRange(d) {
		return decNum{}, 0, decBadCode(b, "exponent outside int32 range")
	}
	return d, i, nil
}

// decScanExp decodes exp(x) at b[i:], refusing any non-canonical form.
func decScanExp[S ~string | ~[]byte](b S, i int) (x int64, next int, ok bool) {
	if i >= len(b) {
		return 0, 0, false
	}
	n, neg := decExpLen(b[i])
	if n == 0 || len(b)-i-1 < n {
		return 0, 0, false
	}
	for k := i + 1; k <= i+n; k++ {
		c := b[k]
		if c < '0' || c > '9' {
			return 0, 0, false
		}
		if neg {
			c = '9' - c + '0'
		}
		if k == i+1 && c == '0' && (n > 1 || neg) {
			return 0, 0, false // leading zero, or -0
		}
		x = x*10 + int64(c-'0')
	}
	if neg {
		x = -x
	}
	return x, i + 1 + n, true
}

// decExpLen decodes the letter that starts exp(x): the number of digits
// of |x| (0 for a letter that starts no exp) and whether x < 0.
func decExpLen(m byte) (n int, neg bool) {
	switch {
	case m >= 'a' && m <= 'j':
		return int(m-'a') + 1, false
	case m >= 'A' && m <= 'J':
		return int('J'-m) + 1, true
	}
	return 0, false
}

// decScanDigits decodes the significand and its terminator at b[i:].
func decScanDigits[S ~string | ~[]byte](b S, i int, neg bool, buf []byte) ([]byte, int, bool) {
	end := byte(decPosEnd)
	if neg {
		end = decNegEnd
	}
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	buf = slices.Grow(buf, i-start)
	for k := start; k < i; k++ {
		c := b[k]
		if neg {
			c = '9' - c + '0'
		}
		buf = append(buf, c)
	}
	if i == len(b) || b[i] != end || len(buf) == 0 || buf[0] == '0' || buf[len(buf)-1] == '0' {
		return nil, 0, false
	}
	return buf, i + 1, true
}

func decBadCode[S ~string | ~[]byte](b S, why string) error {
	return fmt.Errorf("pack: encoded decimal %s: %s: %w", clip.Quote(b), why, ErrSyntax)
}

// decFormat appends the canonical text of d (see DecodeDecimal).
func decFormat(dst []byte, d decNum) []byte {
	n := int64(len(d.digits))
	if n == 0 {
		return append(dst, '0')
	}
	dst = slices.Grow(dst, len(d.digits)+2) // a long text grows once, not by doubling
	if d.neg {
		dst = append(dst, '-')
	}
	switch last := d.exp - (n - 1); {
	case last >= 0 && last <= decPlainZeros: // integer
		return decZeros(append(dst, d.digits...), last)
	case last < 0 && d.exp >= 0: // digits on both sides of the point
		dst = append(dst, d.digits[:d.exp+1]...)
		return append(append(dst, '.'), d.digits[d.exp+1:]...)
	case d.exp < 0 && -d.exp-1 <= decPlainZeros: // 0.000ddd
		return append(decZeros(append(dst, '0', '.'), -d.exp-1), d.digits...)
	}
	dst = append(dst, d.digits[0])
	if n > 1 {
		dst = append(append(dst, '.'), d.digits[1:]...)
	}
	if dst = append(dst, 'E'); d.exp >= 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, d.exp, 10)
}

func decZeros(dst []byte, n int64) []byte {
	for ; n > 0; n-- {
		dst = append(dst, '0')
	}
	return dst
}
