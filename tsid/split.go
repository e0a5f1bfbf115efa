package tsid

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"time"

	"github.com/tiebreak/tiebreak/internal/clip"
)

// Parts returns the time part (the top TimeBits bits of id) and the rest
// bits. It refuses an id above Max with ErrRange.
func (l *Layout) Parts(id uint64) (timePart, rest uint64, err error) {
	if err := l.unmade("Parts"); err != nil {
		return 0, 0, err
	}
	if id > l.max {
		return 0, 0, l.idRangeError("Parts", id)
	}
	return id >> l.restBits, id & l.restMask, nil
}

// Split returns id as a sorted-set score and a member prefix. The score is
// the time part, an integer below 2^53 and so exact in a float64. The
// suffix is the rest bits as exactly SuffixLen lowercase hex digits,
// zero-padded, so that for ids x < y, (score(x), suffix(x)) sorts before
// (score(y), suffix(y)) comparing scores, then suffix bytes: the order of a
// Redis sorted set. It refuses an id above Max with ErrRange.
func (l *Layout) Split(id uint64) (score float64, suffix string, err error) {
	var buf [16]byte
	score, b, err := l.AppendSplit(buf[:0], id)
	return score, string(b), err
}

// AppendSplit is Split with the suffix appended to dst: it does not
// allocate when dst has room for SuffixLen more bytes. On error it returns
// dst unchanged.
func (l *Layout) AppendSplit(dst []byte, id uint64) (score float64, out []byte, err error) {
	if err := l.unmade("Split"); err != nil {
		return 0, dst, err
	}
	if id > l.max {
		return 0, dst, l.idRangeError("Split", id)
	}
	return float64(id >> l.restBits), appendHex(dst, id&l.restMask, l.suffixLen), nil
}

// Join returns the ID that Split turned into score and suffix. It refuses,
// with ErrScore, a score that is NaN, infinite, negative, fractional or
// above MaxTime (-0 counts as 0); with ErrSyntax, a suffix that is not
// exactly SuffixLen lowercase hex digits; with ErrRange, a suffix above
// 2^RestBits-1. It does not allocate unless it fails.
func (l *Layout) Join(score float64, suffix string) (uint64, error) {
	if err := l.unmade("Join"); err != nil {
		return 0, err
	}
	t, detail, err := checkScore(score, l.maxTime)
	if err == nil {
		var rest uint64
		if rest, detail, err = parseSuffix(suffix, l.suffixLen); err == nil && rest > l.restMask {
			detail = fmt.Sprintf("suffix out of range [%s, %s] (%d rest bits)",
				appendHex(nil, 0, l.suffixLen), appendHex(nil, l.restMask, l.suffixLen), l.restBits)
			err = ErrRange
		}
		t = t<<l.restBits | rest
	}
	if err != nil {
		return 0, inputError(l.name, "Join", joinInput(score, suffix), detail, err)
	}
	return t, nil
}

// checkScore converts a score to a time part no greater than maxTime.
func checkScore(score float64, maxTime uint64) (uint64, string, error) {
	switch {
	case math.IsNaN(score) || math.IsInf(score, 0) || score < 0 || score > float64(maxTime):
		return 0, fmt.Sprintf("score out of range [0, %d]", maxTime), ErrScore
	case score != math.Trunc(score):
		return 0, fmt.Sprintf("score not an integer, want one of [0, %d]", maxTime), ErrScore
	}
	return uint64(score), "", nil
}

// parseSuffix decodes exactly n lowercase hex digits.
func parseSuffix(s string, n int) (uint64, string, error) {
	if len(s) != n {
		return 0, fmt.Sprintf("suffix of length %d, want %d lowercase hex digits", len(s), n), ErrSyntax
	}
	v, bad := parseLowerHex(s)
	if bad >= 0 {
		return 0, fmt.Sprintf("suffix character %q at %d is not lowercase hex", s[bad], bad), ErrSyntax
	}
	return v, "", nil
}

func joinInput(score float64, suffix string) string {
	return strconv.FormatFloat(score, 'g', -1, 64) + ", " + clip.Quote(suffix)
}

// Time returns the instant id's time part stands for, in UTC: Epoch plus
// the time part times Unit. It returns the zero time.Time for an id above
// Max, which Parse and Split refuse.
func (l *Layout) Time(id uint64) time.Time {
	l = l.v()
	if id > l.max {
		return time.Time{}
	}
	hi, lo := bits.Mul64(id>>l.restBits, uint64(l.unit))
	sec, nsec := bits.Div64(hi, lo, 1e9) // hi < 1e9: checked by checkSpan
	return time.Unix(l.epochSec+int64(sec), l.epochNsec+int64(nsec)).UTC()
}

// Score returns the score (time part) of IDs made at instant t: the whole
// Units elapsed since Epoch, rounded down. Use it for score ranges by time.
// It refuses t before Epoch or past the last time part with ErrRange.
func (l *Layout) Score(t time.Time) (float64, error) {
	if err := l.unmade("Score"); err != nil {
		return 0, err
	}
	p, err := l.timePart(t)
	if err != nil {
		return 0, inputError(l.name, "Score", t.Format(time.RFC3339Nano), err.Error(), ErrRange)
	}
	return float64(p), nil
}

// errTimeRange is the detail of a time outside a layout; timePart's callers
// wrap it with their own context.
type errTimeRange string

func (e errTimeRange) Error() string { return string(e) }

// timeRange describes the instants of the layout's time parts, for errors.
func (l *Layout) timeRange() errTimeRange {
	end := l.Time(l.max).Add(l.unit)
	return errTimeRange("out of range [" + l.epoch.Format(time.RFC3339Nano) + ", " + end.Format(time.RFC3339Nano) + ")")
}

// timePart returns the time part of instant t.
func (l *Layout) timePart(t time.Time) (uint64, error) {
	if t.Before(l.epoch) {
		return 0, l.timeRange()
	}
	sec := uint64(t.Unix()) - uint64(l.epochSec) // exact mod 2^64; true value >= 0
	nsec := int64(t.Nanosecond()) - l.epochNsec
	if nsec < 0 {
		nsec += 1e9
		sec--
	}
	hi, lo := bits.Mul64(sec, 1e9)
	lo, carry := bits.Add64(lo, uint64(nsec), 0)
	hi += carry
	if hi >= uint64(l.unit) {
		return 0, l.timeRange()
	}
	p, _ := bits.Div64(hi, lo, uint64(l.unit))
	if p > l.maxTime {
		return 0, l.timeRange()
	}
	return p, nil
}
