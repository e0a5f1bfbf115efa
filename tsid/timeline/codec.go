package timeline

import (
	"time"

	"github.com/tiebreak/tiebreak/tsid"
)

// Codec is what a Timeline needs of an ID layout: a *[tsid.Layout] is a
// Codec[uint64] (TSID, Snowflake, Discord, Sonyflake, custom layouts) and
// a *[tsid.Layout128] a Codec[[16]byte] (ULID, UUIDv7). Another
// implementation must keep their contract: AppendSplit appends exactly
// SuffixLen lowercase hex digits and returns a whole score from 0 to
// MaxTime (below 2^53), the pair sorting (score, then suffix bytes)
// exactly as the IDs do; Join inverts it; Time(zero ID) is the instant of
// time part 0 and Score maps an instant to its time part.
type Codec[ID any] interface {
	Name() string
	MaxTime() uint64
	SuffixLen() int
	AppendSplit(dst []byte, id ID) (score float64, out []byte, err error)
	Join(score float64, suffix string) (ID, error)
	Time(id ID) time.Time
	Score(t time.Time) (float64, error)
}

var (
	_ Codec[uint64]   = (*tsid.Layout)(nil)
	_ Codec[[16]byte] = (*tsid.Layout128)(nil)
)

// maxSuffixLen bounds a Codec's suffix, and maxIDLen the ID prefix of a
// member (at most 14 hex digits of time part and the suffix), so that they
// fit stack buffers.
const (
	maxSuffixLen = 64
	maxIDLen     = 14 + maxSuffixLen
)

const hexDigits = "0123456789abcdef"

// appendHex appends the n low hex digits of v, most significant first.
func appendHex(dst []byte, v uint64, n int) []byte {
	for shift := 4 * (n - 1); shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[v>>uint(shift)&15])
	}
	return dst
}

// parseLowerHex decodes s, at most 16 lowercase hex digits, into a number.
// It reports whether s was such digits.
func parseLowerHex(s string) (v uint64, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uint64(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}
