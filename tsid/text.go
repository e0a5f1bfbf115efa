package tsid

import "fmt"

// Text selects the text form a 64-bit Layout parses and formats.
type Text uint8

const (
	// TextDecimal is the unsigned decimal form of the ID, as strconv
	// prints a uint64: digits only, no sign, no leading zeros (except the
	// single "0"), at most 20 digits. It is the zero value.
	TextDecimal Text = iota

	// TextCrockford is the 13-character Crockford base32 form used by TSID:
	// the 64 bits right-aligned in 65, most significant first, so the first
	// character holds only 4 bits and must be 0-F. Output is upper case;
	// input is case-insensitive and accepts Crockford's aliases O for 0 and
	// I and L for 1, as Crockford's spec and the tsid-creator library do.
	// U, hyphens and any other character are refused.
	TextCrockford
)

// String returns the constant's name, "TextDecimal" or "TextCrockford",
// or "Text(7)" for an unknown value.
func (t Text) String() string {
	switch t {
	case TextDecimal:
		return "TextDecimal"
	case TextCrockford:
		return "TextCrockford"
	}
	return fmt.Sprintf("Text(%d)", uint8(t))
}

// crockfordLen is the length of a 64-bit ID in Crockford base32.
const crockfordLen = 13

// crockfordAlphabet is Crockford's base32 alphabet, in ascending ASCII
// order, so the byte order of fixed-width text equals the numeric order.
const crockfordAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// hexDigits is the lowercase hex alphabet of suffixes and UUIDs.
const hexDigits = "0123456789abcdef"

// invalid marks a byte outside an alphabet in the decoding tables.
const invalid = 0xFF

// crockfordValues maps a byte to its Crockford base32 value, or invalid.
var crockfordValues = func() (t [256]byte) {
	for i := range t {
		t[i] = invalid
	}
	for v, c := range []byte(crockfordAlphabet) {
		t[c] = byte(v)
		t[c|0x20] = byte(v) // lower case; digits are unchanged by |0x20
	}
	for _, a := range []struct{ c, v byte }{{'O', 0}, {'I', 1}, {'L', 1}} {
		t[a.c], t[a.c|0x20] = a.v, a.v
	}
	return t
}()

// hexValues maps a byte of either case to its hex value, or invalid;
// lowerHexValues accepts lower case only.
var hexValues, lowerHexValues = func() (anyCase, lower [256]byte) {
	for i := range anyCase {
		anyCase[i], lower[i] = invalid, invalid
	}
	for v, c := range []byte(hexDigits) {
		anyCase[c], lower[c] = byte(v), byte(v)
	}
	for v, c := range []byte("ABCDEF") {
		anyCase[c] = byte(10 + v)
	}
	return anyCase, lower
}()

// appendCrockford appends the 13-character Crockford form of v.
func appendCrockford(dst []byte, v uint64) []byte {
	for shift := 60; shift >= 0; shift -= 5 {
		dst = append(dst, crockfordAlphabet[v>>uint(shift)&31])
	}
	return dst
}

// parseCrockford decodes 13 Crockford characters into 64 bits. The detail
// string says what is wrong when err is not nil.
func parseCrockford(s string) (v uint64, detail string, err error) {
	if len(s) != crockfordLen {
		return 0, fmt.Sprintf("length %d, want %d", len(s), crockfordLen), ErrSyntax
	}
	for i := 0; i < len(s); i++ {
		d := crockfordValues[s[i]]
		if d == invalid {
			return 0, fmt.Sprintf("invalid character %q at %d", s[i], i), ErrSyntax
		}
		v = v<<5 | uint64(d)
	}
	if crockfordValues[s[0]] > 15 {
		return 0, "first character above F: more than 64 bits", ErrRange
	}
	return v, "", nil
}

// parseDecimal decodes canonical unsigned decimal text into 64 bits.
func parseDecimal(s string) (v uint64, detail string, err error) {
	if s == "" {
		return 0, "empty", ErrSyntax
	}
	// A character that is no digit says more than a leading zero would
	// (text of another encoding, such as a Crockford ID, starts with 0).
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			return 0, fmt.Sprintf("invalid character %q at %d", c, i), ErrSyntax
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, "leading zero", ErrSyntax
	}
	for i := 0; i < len(s); i++ {
		d := uint64(s[i] - '0')
		if v > (1<<64-1-d)/10 {
			return 0, "above 2^64-1", ErrRange
		}
		v = v*10 + d
	}
	return v, "", nil
}

// appendHex appends the n low hex digits of v, most significant first.
func appendHex(dst []byte, v uint64, n int) []byte {
	for shift := 4 * (n - 1); shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[v>>uint(shift)&15])
	}
	return dst
}

// parseLowerHex decodes s, at most 16 lowercase hex digits, into a number.
// It reports the index of the first invalid byte, or -1.
func parseLowerHex(s string) (v uint64, bad int) {
	for i := 0; i < len(s); i++ {
		d := lowerHexValues[s[i]]
		if d == invalid {
			return 0, i
		}
		v = v<<4 | uint64(d)
	}
	return v, -1
}
