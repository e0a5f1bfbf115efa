package tsid

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// addCorpus64 fills the corpus of a (x, y uint64) fuzzer with boundary pairs.
func addCorpus64(f *testing.F) {
	for _, p := range [][2]uint64{
		{0, 1}, {1<<22 - 1, 1 << 22}, {999, 3648548}, {640436544564866084, 640436544564866085},
		{1<<63 - 1, 1 << 63}, {math.MaxUint64 - 1, math.MaxUint64}, {38390726480144748, 175928847299117063},
		{1<<24 - 1, 1 << 24}, {0x0000_0000_0040_0000, 0x0000_0000_003f_ffff},
	} {
		f.Add(p[0], p[1])
	}
}

// fuzz64 checks layout l on ids x and y, and on x+1 next to x: round
// trips, order, and refusal of ids above Max.
func fuzz64(t *testing.T, l *Layout, x, y uint64) {
	for _, id := range []uint64{x, y} {
		if id > l.Max() {
			if _, _, err := l.Split(id); !errors.Is(err, ErrRange) {
				t.Errorf("%s.Split(%d) above Max: err = %v, want ErrRange", l.Name(), id, err)
			}
			if _, err := l.Parse(l.Format(id)); !errors.Is(err, ErrRange) {
				t.Errorf("%s.Parse(Format(%d)) above Max: err = %v, want ErrRange", l.Name(), id, err)
			}
		}
	}
	x, y = x&l.Max(), y&l.Max()
	checkRoundTrip(t, l, x)
	checkRoundTrip(t, l, y)
	order64(t, l, x, y)
	if x < l.Max() {
		order64(t, l, x, x+1)
	}
}

func order64(t *testing.T, l *Layout, x, y uint64) {
	t.Helper()
	sx, fx, err1 := l.Split(x)
	sy, fy, err2 := l.Split(y)
	if err1 != nil || err2 != nil {
		t.Fatalf("%s.Split(%d, %d): %v, %v", l.Name(), x, y, err1, err2)
	}
	checkOrder(t, l.Name(), cmp.Compare(x, y), sx, sy, fx, fy)
	tx, ty := l.Format(x), l.Format(y)
	if l.Text() == TextCrockford && strings.Compare(tx, ty) != cmp.Compare(x, y) {
		t.Errorf("%s: text %q and %q out of order for %d and %d", l.Name(), tx, ty, x, y)
	}
}

func FuzzTSID(f *testing.F) {
	addCorpus64(f)
	f.Fuzz(func(t *testing.T, x, y uint64) { fuzz64(t, TSID, x, y) })
}

func FuzzSnowflake(f *testing.F) {
	addCorpus64(f)
	f.Fuzz(func(t *testing.T, x, y uint64) { fuzz64(t, Snowflake, x, y) })
}

func FuzzDiscord(f *testing.F) {
	addCorpus64(f)
	f.Fuzz(func(t *testing.T, x, y uint64) { fuzz64(t, Discord, x, y) })
}

func FuzzSonyflake(f *testing.F) {
	addCorpus64(f)
	f.Fuzz(func(t *testing.T, x, y uint64) { fuzz64(t, Sonyflake, x, y) })
}

// FuzzCustomLayout builds layouts from the fuzzer's parameters: valid ones
// must pass the same checks as the predefined layouts, and refused ones
// must be refused with ErrOptions for a reason the spec gives.
func FuzzCustomLayout(f *testing.F) {
	f.Add(uint8(42), uint8(22), int64(time.Millisecond), int64(0), false, uint64(1), uint64(2))
	f.Add(uint8(53), uint8(11), int64(time.Millisecond), int64(-1e9), true, uint64(math.MaxUint64), uint64(0))
	f.Add(uint8(1), uint8(1), int64(1), int64(1<<40), false, uint64(3), uint64(2))
	f.Add(uint8(30), uint8(3), int64(time.Hour), int64(1e9+7), false, uint64(1<<32), uint64(7))
	f.Add(uint8(53), uint8(0), int64(time.Hour), int64(0), false, uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, timeBits, restBits uint8, unit, epochSec int64, crock bool, x, y uint64) {
		spec := LayoutSpec{TimeBits: int(timeBits % 60), RestBits: int(restBits % 70),
			Unit: time.Duration(unit), Epoch: time.Unix(epochSec, unit%1e9)}
		if crock {
			spec.Text = TextCrockford
		}
		l, err := NewLayoutSpec(spec)
		if err != nil {
			checkRefusal(t, spec, err)
			return
		}
		fuzz64(t, l, x, y)
	})
}

// checkRefusal fails unless the spec's refusal is a documented one.
func checkRefusal(t *testing.T, spec LayoutSpec, err error) {
	if !errors.Is(err, ErrOptions) {
		t.Fatalf("NewLayoutSpec(%+v): err = %v, want ErrOptions", spec, err)
	}
	rest := spec.RestBits
	if rest == 0 {
		rest = 64 - spec.TimeBits
	}
	bitsBad := spec.TimeBits < 1 || spec.TimeBits > 53 || rest < 1 || rest > 63 || spec.TimeBits+rest > 64
	if bitsBad || spec.Unit < 0 {
		return
	}
	// Otherwise only the span may be at fault: 2^TimeBits units or the epoch.
	unit := spec.Unit
	if unit == 0 {
		unit = time.Millisecond
	}
	spanSec := math.Ldexp(unit.Seconds(), spec.TimeBits)
	if spanSec < 1<<61 && math.Abs(float64(spec.Epoch.Unix())) < 1<<61 {
		t.Errorf("NewLayoutSpec(%+v) refused a layout with a span of %g s: %v", spec, spanSec, err)
	}
}

// fuzz128 checks a 128-bit layout on two ids made from four words.
func fuzz128(t *testing.T, l *Layout128, fix func(*[16]byte), a, b, c, d uint64) {
	var x, y [16]byte
	binary.BigEndian.PutUint64(x[:8], a)
	binary.BigEndian.PutUint64(x[8:], b)
	binary.BigEndian.PutUint64(y[:8], c)
	binary.BigEndian.PutUint64(y[8:], d)
	fix(&x)
	fix(&y)
	checkRoundTrip128(t, l, x)
	checkRoundTrip128(t, l, y)
	sx, fx, err1 := l.Split(x)
	sy, fy, err2 := l.Split(y)
	if err1 != nil || err2 != nil {
		t.Fatalf("%s.Split: %v, %v", l.Name(), err1, err2)
	}
	checkOrder(t, l.Name(), bytes.Compare(x[:], y[:]), sx, sy, fx, fy)
	if tx, ty := l.Format(x), l.Format(y); strings.Compare(tx, ty) != bytes.Compare(x[:], y[:]) {
		t.Errorf("%s: text %q and %q out of order", l.Name(), tx, ty)
	}
}

func addCorpus128(f *testing.F) {
	f.Add(uint64(0), uint64(0), uint64(0), uint64(1))
	f.Add(uint64(0x01563e3ab5d3d6f2), uint64(0x80000000_00000000), uint64(0x01563e3ab5d3d6f3), uint64(0))
	f.Add(uint64(math.MaxUint64), uint64(math.MaxUint64), uint64(math.MaxUint64-1<<16), uint64(math.MaxUint64))
	f.Add(uint64(0x017F22E279B07CC3), uint64(0x98C4DC0C0C07398F), uint64(0x017F22E279B07CC3), uint64(0x98C4DC0C0C07398E))
}

func FuzzULID(f *testing.F) {
	addCorpus128(f)
	f.Fuzz(func(t *testing.T, a, b, c, d uint64) { fuzz128(t, ULID, func(*[16]byte) {}, a, b, c, d) })
}

func FuzzUUIDv7(f *testing.F) {
	addCorpus128(f)
	f.Fuzz(func(t *testing.T, a, b, c, d uint64) {
		fuzz128(t, UUIDv7, func(id *[16]byte) {
			id[6] = id[6]&0x0f | 0x70
			id[8] = id[8]&0x3f | 0x80
		}, a, b, c, d)
	})
}

// FuzzParse feeds arbitrary text to every parser and to Join as a suffix:
// none may panic, every failure wraps one sentinel, and every success
// formats back to the canonical form of the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "0", "01", "0123456789ABC", "oi226n064oj7q", "G000000000000",
		"18446744073709551615", "18446744073709551616", "-1", "04a96c", "3fffff",
		"01AN4Z07BY79KA1307SR9X4MV3", "81AN4Z07BY79KA1307SR9X4MV3", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
		"017F22E2-79B0-7CC3-98C4-DC0C0C07398F", "f47ac10b-58cc-4372-a567-0e02b2c3d479", "7cc398c4dc0c0c07398f",
		"017f22e2-79b0-7cc3-98c4-dc0c0c0739-f", "0-7f22e2-79b0-7cc3-98c4-dc0c0c07398f"} {
		f.Add(s, float64(1))
	}
	f.Fuzz(func(t *testing.T, s string, score float64) {
		for _, l := range []*Layout{TSID, Snowflake, Discord, Sonyflake} {
			fuzzParse64(t, l, s, score)
		}
		for _, l := range []*Layout128{ULID, UUIDv7} {
			fuzzParse128(t, l, s, score)
		}
	})
}

func fuzzParse64(t *testing.T, l *Layout, s string, score float64) {
	id, err := l.Parse(s)
	if err != nil {
		checkSentinel(t, l.Name()+".Parse", err)
	} else if want := canonical64(l, s); l.Format(id) != want {
		t.Errorf("%s.Parse(%q) = %d, which formats as %q, want %q", l.Name(), s, id, l.Format(id), want)
	}
	id, err = l.Join(score, s)
	if err != nil {
		checkSentinel(t, l.Name()+".Join", err)
		return
	}
	if gotScore, suffix, err := l.Split(id); err != nil || gotScore != score || suffix != s {
		t.Errorf("%s.Split(Join(%v, %q)) = %v, %q, %v", l.Name(), score, s, gotScore, suffix, err)
	}
}

// canonical64 is the text Format gives for the ID that s spells.
func canonical64(l *Layout, s string) string {
	if l.Text() == TextDecimal {
		return s
	}
	return strings.NewReplacer("O", "0", "I", "1", "L", "1").Replace(strings.ToUpper(s))
}

func fuzzParse128(t *testing.T, l *Layout128, s string, score float64) {
	id, err := l.Parse(s)
	if err != nil {
		checkSentinel(t, l.Name()+".Parse", err)
	} else if got, want := l.Format(id), canonical128(l, s); got != want {
		t.Errorf("%s.Parse(%q) formats back as %q, want %q", l.Name(), s, got, want)
	}
	id, err = l.Join(score, s)
	if err != nil {
		checkSentinel(t, l.Name()+".Join", err)
		return
	}
	if gotScore, suffix, err := l.Split(id); err != nil || gotScore != score || suffix != s {
		t.Errorf("%s.Split(Join(%v, %q)) = %v, %q, %v", l.Name(), score, s, gotScore, suffix, err)
	}
}

// canonical128 is the text Format gives for the ID that s spells.
func canonical128(l *Layout128, s string) string {
	if l == ULID {
		return strings.ToUpper(s)
	}
	return strings.ToLower(s)
}
