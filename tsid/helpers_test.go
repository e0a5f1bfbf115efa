package tsid

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/oklog/ulid/v2"
)

// checkRoundTrip checks, for an id of layout l, that the text, split and
// time forms all come back to id and agree with each other.
func checkRoundTrip(t *testing.T, l *Layout, id uint64) {
	t.Helper()
	text := l.Format(id)
	if got, err := l.Parse(text); err != nil || got != id {
		t.Errorf("%s.Parse(Format(%d) = %q) = %d, %v", l.Name(), id, text, got, err)
	}
	if l.Text() == TextDecimal && text != strconv.FormatUint(id, 10) {
		t.Errorf("%s.Format(%d) = %q, not decimal", l.Name(), id, text)
	}
	if l.Text() == TextCrockford && len(text) != 13 {
		t.Errorf("%s.Format(%d) = %q, not 13 characters", l.Name(), id, text)
	}
	score, suffix, err := l.Split(id)
	if err != nil {
		t.Fatalf("%s.Split(%d): %v", l.Name(), id, err)
	}
	if uint64(score) != id>>l.RestBits() || float64(uint64(score)) != score || len(suffix) != l.SuffixLen() {
		t.Errorf("%s.Split(%d) = %v, %q: wrong score or suffix width", l.Name(), id, score, suffix)
	}
	if got, err := l.Join(score, suffix); err != nil || got != id {
		t.Errorf("%s.Join(Split(%d)) = %d, %v", l.Name(), id, got, err)
	}
	s2, b, err := l.AppendSplit([]byte("pre|"), id)
	if err != nil || s2 != score || string(b) != "pre|"+suffix {
		t.Errorf("%s.AppendSplit(%d) = %v, %q, %v; want %v, %q", l.Name(), id, s2, b, err, score, "pre|"+suffix)
	}
	if got, err := l.Score(l.Time(id)); err != nil || got != score {
		t.Errorf("%s.Score(Time(%d)) = %v, %v; want %v", l.Name(), id, got, err, score)
	}
}

// checkOrder checks that splits (sx, fx) and (sy, fy) compare as want, the
// comparison of their ids, in the order of a Redis sorted set: score, then
// suffix bytes.
func checkOrder(t *testing.T, name string, want int, sx, sy float64, fx, fy string) {
	t.Helper()
	if got := cmpSplit(sx, sy, fx, fy); got != want {
		t.Errorf("%s: splits (%v, %q) and (%v, %q) compare %d, ids compare %d", name, sx, fx, sy, fy, got, want)
	}
}

func cmpSplit(sx, sy float64, fx, fy string) int {
	switch {
	case sx < sy:
		return -1
	case sx > sy:
		return 1
	}
	return bytes.Compare([]byte(fx), []byte(fy))
}

// sentinels are the errors every error of the package wraps one of.
var sentinels = []error{ErrSyntax, ErrRange, ErrScore, ErrVersion, ErrOptions, ErrField}

// checkSentinel fails unless err wraps exactly one sentinel, and with it
// ErrArgument, and says "tsid: " exactly once.
func checkSentinel(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && strings.Count(err.Error(), "tsid: ") != 1 {
		t.Errorf("%s: error %q does not say %q exactly once", what, err, "tsid: ")
	}
	n := 0
	for _, s := range sentinels {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%s: error %q wraps %d sentinels, want 1", what, err, n)
	}
	if !errors.Is(err, ErrArgument) {
		t.Errorf("%s: error %q does not wrap ErrArgument", what, err)
	}
}

// checkRoundTrip128 is checkRoundTrip for a 128-bit layout.
func checkRoundTrip128(t *testing.T, l *Layout128, id [16]byte) {
	t.Helper()
	text := l.Format(id)
	if got, err := l.Parse(text); err != nil || got != id {
		t.Errorf("%s.Parse(Format(%x) = %q) = %x, %v", l.Name(), id, text, got, err)
	}
	score, suffix, err := l.Split(id)
	if err != nil {
		t.Fatalf("%s.Split(%x): %v", l.Name(), id, err)
	}
	if len(suffix) != l.SuffixLen() || float64(uint64(score)) != score || uint64(score) != ulid.ULID(id).Time() {
		t.Errorf("%s.Split(%x) = %v, %q: wrong score or suffix width", l.Name(), id, score, suffix)
	}
	if got, err := l.Join(score, suffix); err != nil || got != id {
		t.Errorf("%s.Join(Split(%x)) = %x, %v", l.Name(), id, got, err)
	}
	s2, b, err := l.AppendSplit([]byte("pre|"), id)
	if err != nil || s2 != score || string(b) != "pre|"+suffix {
		t.Errorf("%s.AppendSplit(%x) = %v, %q, %v", l.Name(), id, s2, b, err)
	}
	if got, err := l.Score(l.Time(id)); err != nil || got != score {
		t.Errorf("%s.Score(Time(%x)) = %v, %v; want %v", l.Name(), id, got, err, score)
	}
}
