package pack

import (
	"fmt"
	"math"

	"github.com/tiebreak/tiebreak/internal/clip"
)

// Fixed-width integer text.
//
// The integer encoders write a value as a fixed number of ASCII decimal
// digits, so that comparing two encodings of the same width byte by byte
// (memcmp, as Redis compares sorted-set members) orders them like the
// numbers, fields can be concatenated, and an id can follow the last field.
// Every encoder appends to dst and, on error, returns dst unchanged: it
// allocates at most once (when dst lacks capacity) and never when it has.
// A width outside the allowed range is an error wrapping ErrLayout; a value
// that does not fit is one wrapping ErrOverflow. Parsers accept exactly
// what the matching encoder writes, and refuse anything else with
// ErrSyntax (wrong length, a byte that is not a digit, a bad sign byte) or
// ErrOverflow (digits whose value does not fit the Go type).
//
//	encoder                 bytes     range                      5, width 3   -5, width 3
//	AppendUint(v, w)        w         [0, 10^w-1]                "005"        -
//	AppendUintDesc(v, w)    w         [0, 10^w-1]                "994"        -
//	AppendInt(v, w)         w+1       [-10^w, 10^w-1]            "1005"       "0995"
//	AppendIntDesc(v, w)     w+1       [-10^w, 10^w-1]            "0994"       "1004"
//
// Ranges are further capped by the Go type (uint64, int64).
const (
	// MaxUintWidth is the widest unsigned encoding: 20 digits hold every
	// uint64 (math.MaxUint64 is 18446744073709551615).
	MaxUintWidth = 20

	// MaxIntWidth is the widest signed encoding: a sign byte and 19 digits
	// (20 bytes) hold every int64.
	MaxIntWidth = 19
)

// fixedPow10[i] is 10^i.
var fixedPow10 = [MaxUintWidth]uint64{
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// AppendUint appends v as exactly width decimal digits, zero-padded on the
// left: AppendUint(nil, 42, 5) is "00042". Byte order equals numeric order
// for encodings of the same width. width must be in [1, MaxUintWidth]
// (ErrLayout); v must be below 10^width (ErrOverflow).
func AppendUint(dst []byte, v uint64, width int) ([]byte, error) {
	if err := fixedCheckUint("AppendUint", v, width); err != nil {
		return dst, err
	}
	return fixedAppend(dst, 0, v, width, false), nil
}

// AppendUintDesc is AppendUint in reverse order: a larger v gives smaller
// bytes, for lower-is-better fields. It writes each digit d of
// AppendUint's encoding as 9-d (the digits of 10^width-1-v):
// AppendUintDesc(nil, 42, 5) is "99957".
func AppendUintDesc(dst []byte, v uint64, width int) ([]byte, error) {
	if err := fixedCheckUint("AppendUintDesc", v, width); err != nil {
		return dst, err
	}
	return fixedAppend(dst, 0, v, width, true), nil
}

// AppendUint64 appends v as MaxUintWidth (20) zero-padded digits. Every
// uint64 fits, so it cannot fail. Parse it with ParseUint(s, MaxUintWidth).
func AppendUint64(dst []byte, v uint64) []byte {
	return fixedAppend(dst, 0, v, MaxUintWidth, false)
}

// AppendUint64Desc appends v as AppendUintDesc(dst, v, MaxUintWidth) does.
// Parse it with ParseUintDesc(s, MaxUintWidth).
func AppendUint64Desc(dst []byte, v uint64) []byte {
	return fixedAppend(dst, 0, v, MaxUintWidth, true)
}

// AppendInt appends v as a sign byte followed by width digits (width+1
// bytes): '1' and v zero-padded when v >= 0, '0' and 10^width+v
// zero-padded when v < 0. AppendInt(nil, 5, 3) is "1005", AppendInt(nil,
// -5, 3) is "0995", AppendInt(nil, -1000, 3) is "0000". The range is
// [-10^width, 10^width-1] (ErrOverflow outside it); width must be in
// [1, MaxIntWidth] (ErrLayout).
func AppendInt(dst []byte, v int64, width int) ([]byte, error) {
	if err := fixedCheckInt("AppendInt", v, width); err != nil {
		return dst, err
	}
	return fixedAppendInt(dst, v, width), nil
}

// AppendIntDesc is AppendInt in reverse order: a larger v gives smaller
// bytes. It writes AppendInt's encoding of -1-v (^v), which has the same
// range: the sign byte is '0' for v >= 0 and '1' for v < 0, and each digit
// of AppendInt's encoding of v becomes 9-d. AppendIntDesc(nil, 5, 3) is
// "0994", AppendIntDesc(nil, -5, 3) is "1004".
func AppendIntDesc(dst []byte, v int64, width int) ([]byte, error) {
	if err := fixedCheckInt("AppendIntDesc", v, width); err != nil {
		return dst, err
	}
	return fixedAppendInt(dst, ^v, width), nil
}

// AppendInt64 appends v as AppendInt(dst, v, MaxIntWidth) does (20 bytes).
// Every int64 fits, so it cannot fail. Parse it with ParseInt(s,
// MaxIntWidth).
func AppendInt64(dst []byte, v int64) []byte {
	return fixedAppendInt(dst, v, MaxIntWidth)
}

// AppendInt64Desc appends v as AppendIntDesc(dst, v, MaxIntWidth) does.
// Parse it with ParseIntDesc(s, MaxIntWidth).
func AppendInt64Desc(dst []byte, v int64) []byte {
	return fixedAppendInt(dst, ^v, MaxIntWidth)
}

// ParseUint decodes what AppendUint(nil, v, width) wrote: exactly width
// ASCII digits. It accepts a string or a byte slice.
func ParseUint[S ~string | ~[]byte](s S, width int) (uint64, error) {
	return fixedParseUint(s, 0, width, false, "ParseUint")
}

// ParseUintDesc decodes what AppendUintDesc(nil, v, width) wrote.
func ParseUintDesc[S ~string | ~[]byte](s S, width int) (uint64, error) {
	return fixedParseUint(s, 0, width, true, "ParseUintDesc")
}

// ParseInt decodes what AppendInt(nil, v, width) wrote: a sign byte '0' or
// '1' followed by exactly width ASCII digits.
func ParseInt[S ~string | ~[]byte](s S, width int) (int64, error) {
	return fixedParseInt(s, width, "ParseInt")
}

// ParseIntDesc decodes what AppendIntDesc(nil, v, width) wrote.
func ParseIntDesc[S ~string | ~[]byte](s S, width int) (int64, error) {
	v, err := fixedParseInt(s, width, "ParseIntDesc")
	if err != nil {
		return 0, err
	}
	return ^v, nil
}

func fixedCheckUint(fn string, v uint64, width int) error {
	if width < 1 || width > MaxUintWidth {
		return fixedWidthErr(fn, width, MaxUintWidth)
	}
	if width < MaxUintWidth && v >= fixedPow10[width] {
		return fmt.Errorf("pack: %s: %d needs more than %d digits: %w", fn, v, width, ErrOverflow)
	}
	return nil
}

func fixedCheckInt(fn string, v int64, width int) error {
	if width < 1 || width > MaxIntWidth {
		return fixedWidthErr(fn, width, MaxIntWidth)
	}
	if width == MaxIntWidth {
		return nil // [-10^19, 10^19-1] holds every int64
	}
	if p := int64(fixedPow10[width]); v < -p || v >= p {
		return fmt.Errorf("pack: %s: %d outside [%d, %d] for width %d: %w",
			fn, v, -p, p-1, width, ErrOverflow)
	}
	return nil
}

func fixedWidthErr(fn string, width, limit int) error {
	return fmt.Errorf("pack: %s: width %d outside [1, %d]: %w", fn, width, limit, ErrLayout)
}

// fixedAppendInt writes AppendInt's encoding; v must be in range.
func fixedAppendInt(dst []byte, v int64, width int) []byte {
	if v >= 0 {
		return fixedAppend(dst, '1', uint64(v), width, false)
	}
	mag := uint64(^v) + 1 // |v|, exact for math.MinInt64 too
	return fixedAppend(dst, '0', fixedPow10[width]-mag, width, false)
}

// fixedAppend appends the optional sign byte and the low width digits of v,
// each complemented (9-d) when flip is set, with a single append so that
// dst grows at most once.
func fixedAppend(dst []byte, sign byte, v uint64, width int, flip bool) []byte {
	var buf [1 + MaxUintWidth]byte
	i := len(buf)
	for range width {
		d := byte(v % 10)
		v /= 10
		if flip {
			d = 9 - d
		}
		i--
		buf[i] = '0' + d
	}
	if sign != 0 {
		i--
		buf[i] = sign
	}
	return append(dst, buf[i:]...)
}

// fixedParseUint parses s[from:] as exactly width digits, complemented when
// flip is set. The checks on s are for the whole of s.
func fixedParseUint[S ~string | ~[]byte](s S, from, width int, flip bool, fn string) (uint64, error) {
	if width < 1 || width > MaxUintWidth {
		return 0, fixedWidthErr(fn, width, MaxUintWidth)
	}
	if len(s)-from != width {
		return 0, fixedSyntax(fn, s, width, fmt.Sprintf("length %d, want %d", len(s), from+width))
	}
	var v uint64
	for i := from; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, fixedSyntax(fn, s, width, fmt.Sprintf("byte %d is not a digit", i))
		}
		d := uint64(c - '0')
		if flip {
			d = 9 - d
		}
		if v > (math.MaxUint64-d)/10 {
			return 0, fmt.Errorf("pack: %s: %s (width %d) does not fit a uint64: %w",
				fn, clip.Quote(s), width, ErrOverflow)
		}
		v = v*10 + d
	}
	return v, nil
}

func fixedParseInt[S ~string | ~[]byte](s S, width int, fn string) (int64, error) {
	if width < 1 || width > MaxIntWidth {
		return 0, fixedWidthErr(fn, width, MaxIntWidth)
	}
	if len(s) != width+1 || (s[0] != '0' && s[0] != '1') {
		return 0, fixedSyntax(fn, s, width, "want a sign byte '0' or '1' and the digits")
	}
	u, err := fixedParseUint(s, 1, width, false, fn)
	if err != nil {
		return 0, err
	}
	if s[0] == '1' {
		if u > math.MaxInt64 {
			return 0, fmt.Errorf("pack: %s: %s does not fit an int64: %w", fn, clip.Quote(s), ErrOverflow)
		}
		return int64(u), nil
	}
	mag := fixedPow10[width] - u // in [1, 10^width]
	if width == MaxIntWidth && mag > 1<<63 {
		return 0, fmt.Errorf("pack: %s: %s does not fit an int64: %w", fn, clip.Quote(s), ErrOverflow)
	}
	return int64(-mag), nil
}

func fixedSyntax[S ~string | ~[]byte](fn string, s S, width int, why string) error {
	return fmt.Errorf("pack: %s: %s (width %d): %s: %w", fn, clip.Quote(s), width, why, ErrSyntax)
}
