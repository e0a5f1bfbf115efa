package tsid

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/tiebreak/tiebreak/internal/clip"
)

// Bits of the 128-bit layouts.
const (
	// TimeBits128 is the width of the time part of ULIDs and UUIDv7s: 48
	// bits of Unix milliseconds.
	TimeBits128 = 48
	// RestBits128 is the width of the bits below their time part.
	RestBits128 = 128 - TimeBits128
	// suffixLen128 is the length of their suffixes, 80 bits in hex.
	suffixLen128 = RestBits128 / 4
	// maxTime128 is their largest time part, 2^48-1 ms (year 10889).
	maxTime128 = 1<<TimeBits128 - 1
)

// Layout128 is the layout of a 128-bit ID whose first 48 bits (big-endian)
// are Unix milliseconds: ULID or UUIDv7. IDs are 16-byte big-endian arrays
// ([16]byte converts to and from ulid.ULID). It splits an ID into the
// 48-bit millisecond time part, exact as a score, and a 20-character
// lowercase hex suffix of the other 80 bits, whose byte order is their
// numeric order. A Layout128 is immutable and safe for concurrent use. One
// other than ULID and UUIDv7 (a zero value, or nil) has no text form: the
// methods that return an error refuse it with ErrArgument, Format and
// AppendFormat return nothing, and the others answer as for any 128-bit
// layout, without panicking.
type Layout128 struct {
	name   string
	parse  func(s string) ([16]byte, error) // error: detail wrapping a sentinel
	format func(dst []byte, id [16]byte) []byte
	// valid reports, when not nil, why id is not of the layout ("" if it is).
	valid func(id [16]byte) string
}

// zeroLayout128 answers for a nil Layout128.
var zeroLayout128 Layout128

// v returns l, or the zero Layout128 for nil.
func (l *Layout128) v() *Layout128 {
	if l == nil {
		return &zeroLayout128
	}
	return l
}

// unmade refuses, for op, a Layout128 other than ULID and UUIDv7.
func (l *Layout128) unmade(op string) error {
	if l == nil || l.parse == nil {
		return fmt.Errorf("tsid: Layout128.%s: a Layout128 other than ULID and UUIDv7 (a zero value or nil): %w", op, ErrArgument)
	}
	return nil
}

// Name returns "ULID" or "UUIDv7".
func (l *Layout128) Name() string { return l.v().name }

// String returns the layout's name.
func (l *Layout128) String() string { return l.v().name }

// TimeBits returns 48, the width of the time part.
func (l *Layout128) TimeBits() int { return TimeBits128 }

// RestBits returns 80, the width of the bits below the time part.
func (l *Layout128) RestBits() int { return RestBits128 }

// MaxTime returns the largest time part and score, 2^48-1.
func (l *Layout128) MaxTime() uint64 { return maxTime128 }

// SuffixLen returns 20, the length of every suffix.
func (l *Layout128) SuffixLen() int { return suffixLen128 }

// Parse returns the ID that s spells in the layout's text form. The text
// of the zero ID (Format's) parses for both layouts, so that a zero cursor
// reads back from its text (see UUIDv7).
func (l *Layout128) Parse(s string) ([16]byte, error) {
	if err := l.unmade("Parse"); err != nil {
		return [16]byte{}, err
	}
	id, err := l.parse(s)
	if err != nil {
		return [16]byte{}, fmt.Errorf("tsid: %s.Parse(%s): %w", l.name, clip.Quote(s), err)
	}
	return id, nil
}

// Format returns the text form of id. It does not check a UUID's version.
func (l *Layout128) Format(id [16]byte) string {
	var buf [36]byte
	return string(l.AppendFormat(buf[:0], id))
}

// AppendFormat appends the text form of id to dst and returns the extended
// slice.
func (l *Layout128) AppendFormat(dst []byte, id [16]byte) []byte {
	if l.unmade("Format") != nil {
		return dst
	}
	return l.format(dst, id)
}

// Split returns id as a score, its 48-bit Unix millisecond time part (exact
// in a float64), and a suffix, its other 80 bits as 20 lowercase hex
// digits. For ids x < y (as big-endian 128-bit numbers), (score(x),
// suffix(x)) sorts before (score(y), suffix(y)). For UUIDv7 it refuses an
// id of another version or variant with ErrVersion.
func (l *Layout128) Split(id [16]byte) (score float64, suffix string, err error) {
	var buf [suffixLen128]byte
	score, b, err := l.AppendSplit(buf[:0], id)
	return score, string(b), err
}

// AppendSplit is Split with the suffix appended to dst: it does not
// allocate when dst has room for 20 more bytes. On error it returns dst
// unchanged.
func (l *Layout128) AppendSplit(dst []byte, id [16]byte) (score float64, out []byte, err error) {
	if err := l.unmade("Split"); err != nil {
		return 0, dst, err
	}
	if l.valid != nil {
		if detail := l.valid(id); detail != "" {
			input := string(l.AppendFormat(nil, id))
			return 0, dst, inputError(l.name, "Split", input, detail, ErrVersion)
		}
	}
	for _, b := range id[6:] {
		dst = append(dst, hexDigits[b>>4], hexDigits[b&15])
	}
	return float64(msOf(id)), dst, nil
}

// msOf returns the first 48 bits of id.
func msOf(id [16]byte) uint64 {
	return binary.BigEndian.Uint64(id[:8]) >> 16
}

// Join returns the ID that Split turned into score and suffix. It refuses,
// with ErrScore, a score that is NaN, infinite, negative, fractional or
// above 2^48-1; with ErrSyntax, a suffix that is not exactly 20 lowercase
// hex digits; for UUIDv7, with ErrVersion, a suffix whose version or
// variant bits are wrong.
func (l *Layout128) Join(score float64, suffix string) ([16]byte, error) {
	if err := l.unmade("Join"); err != nil {
		return [16]byte{}, err
	}
	var id [16]byte
	ms, detail, err := checkScore(score, maxTime128)
	if err == nil {
		detail, err = joinRest128(&id, suffix)
	}
	if err == nil && l.valid != nil {
		if detail = l.valid(id); detail != "" {
			err = ErrVersion
		}
	}
	if err != nil {
		return [16]byte{}, inputError(l.name, "Join", joinInput(score, suffix), detail, err)
	}
	var head [8]byte
	binary.BigEndian.PutUint64(head[:], ms<<16)
	copy(id[:6], head[:6])
	return id, nil
}

// joinRest128 decodes an 80-bit suffix into id[6:].
func joinRest128(id *[16]byte, suffix string) (string, error) {
	if len(suffix) != suffixLen128 {
		return fmt.Sprintf("suffix of length %d, want %d lowercase hex digits", len(suffix), suffixLen128), ErrSyntax
	}
	for i := 0; i < suffixLen128; i += 2 {
		hi, lo := lowerHexValues[suffix[i]], lowerHexValues[suffix[i+1]]
		if hi == invalid || lo == invalid {
			return fmt.Sprintf("suffix %q at %d is not lowercase hex", suffix[i:i+2], i), ErrSyntax
		}
		id[6+i/2] = hi<<4 | lo
	}
	return "", nil
}

// Time returns the instant of id's 48-bit Unix millisecond time part, in
// UTC. It reads the time part of any id, whatever its version.
func (l *Layout128) Time(id [16]byte) time.Time {
	return time.UnixMilli(int64(msOf(id))).UTC()
}

// Score returns the score of IDs made at instant t: its Unix milliseconds,
// rounded down. It refuses t before 1970 or after 2^48-1 ms with ErrRange.
func (l *Layout128) Score(t time.Time) (float64, error) {
	if err := l.unmade("Score"); err != nil {
		return 0, err
	}
	if t.Before(time.Unix(0, 0)) || t.After(time.UnixMilli(maxTime128).Add(time.Millisecond-1)) {
		return 0, inputError(l.name, "Score", t.Format(time.RFC3339Nano),
			"out of range [1970-01-01T00:00:00Z, "+time.UnixMilli(maxTime128+1).UTC().Format(time.RFC3339Nano)+")", ErrRange)
	}
	return float64(t.UnixMilli()), nil
}
