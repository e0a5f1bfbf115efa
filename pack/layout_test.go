package pack

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustLayout(t testing.TB, fields ...Field) *Layout {
	t.Helper()
	l, err := NewLayout(fields...)
	if err != nil {
		t.Fatalf("NewLayout: %v", err)
	}
	return l
}

// Points, then paid first, then earliest in 23+1+29 bits: the known vector,
// and the 33+1+29 layout often proposed for it is refused (63 bits).
func TestPointsPaidTimeVector(t *testing.T) {
	l := mustLayout(t, Field{Name: "points", Width: 23}, Field{Name: "paid", Width: 1}, Field{Name: "time", Width: 29})
	s, err := l.Pack(100, 1, 290072179)
	if err != nil {
		t.Fatal(err)
	}
	if s != 108201125491 || s.Float64() != 108201125491 {
		t.Fatalf("Pack = %d, want 108201125491", s)
	}
	got, err := l.Unpack(s.Float64())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{100, 1, 290072179}, got); diff != "" {
		t.Errorf("Unpack (-want +got):\n%s", diff)
	}
	_, err = NewLayout(Field{Name: "points", Width: 33}, Field{Name: "paid", Width: 1}, Field{Name: "time", Width: 29})
	if !errors.Is(err, ErrLayout) {
		t.Fatalf("63-bit layout: err = %v, want ErrLayout", err)
	}
}

func TestDigitLayoutVector(t *testing.T) {
	l, err := NewDigitLayout(Field{Name: "points", Width: 3}, Field{Name: "paid", Width: 1}, Field{Name: "time", Width: 9})
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Pack(200, 1, 290072179)
	if err != nil || s != 2001290072179 {
		t.Fatalf("Pack = %d, %v; want 2001290072179", s, err)
	}
	if _, err := l.Pack(1000, 1, 0); !errors.Is(err, ErrOverflow) {
		t.Fatalf("Pack(1000) err = %v, want ErrOverflow", err)
	}
	if _, err := NewDigitLayout(Field{Name: "a", Width: 8}, Field{Name: "b", Width: 8}); !errors.Is(err, ErrLayout) {
		t.Fatalf("16 digits: err = %v, want ErrLayout", err)
	}
}

func TestNewLayoutRefuses(t *testing.T) {
	for name, fields := range map[string][]Field{
		"none":      nil,
		"zero":      {{Name: "a", Width: 0}},
		"negative":  {{Name: "a", Width: -1}},
		"empty":     {{Name: "", Width: 3}},
		"duplicate": {{Name: "a", Width: 3}, {Name: "a", Width: 3}},
		"54 bits":   {{Name: "a", Width: 27}, {Name: "b", Width: 27}},
		"direction": {{Name: "a", Width: 3, Dir: 7}},
		// Widths whose sum overflows an int: refused, not summed.
		"overflow": {{Name: "a", Width: math.MaxInt}, {Name: "b", Width: 1}},
		"huge":     {{Name: "a", Width: math.MaxInt}},
	} {
		if _, err := NewLayout(fields...); !errors.Is(err, ErrLayout) {
			t.Errorf("%s: err = %v, want ErrLayout", name, err)
		}
		if _, err := NewDigitLayout(fields...); !errors.Is(err, ErrLayout) {
			t.Errorf("%s digits: err = %v, want ErrLayout", name, err)
		}
	}
	if _, err := NewLayout(Field{Name: "a", Width: 53}); err != nil {
		t.Errorf("53 bits refused: %v", err)
	}
}

func TestFieldRanges(t *testing.T) {
	l := mustLayout(t,
		Field{Name: "u", Width: 10},
		Field{Name: "s", Width: 10, Signed: true},
		Field{Name: "d", Width: 10, Dir: LowerIsBetter})
	want := []struct {
		min, max int64
		mul      uint64
	}{{0, 1023, 1 << 20}, {-512, 511, 1 << 10}, {0, 1023, 1}}
	for i, w := range want {
		f := l.Field(i)
		if f.Min != w.min || f.Max != w.max || f.Mul != w.mul || f.RawMax != 1023 {
			t.Errorf("field %s = [%d,%d] mul %d raw %d; want [%d,%d] mul %d raw 1023",
				f.Name, f.Min, f.Max, f.Mul, f.RawMax, w.min, w.max, w.mul)
		}
	}
	for _, vals := range [][]int64{{1024, 0, 0}, {-1, 0, 0}, {0, 512, 0}, {0, -513, 0}, {0, 0, 1024}} {
		_, err := l.Pack(vals...)
		if !errors.Is(err, ErrOverflow) {
			t.Errorf("Pack%v err = %v, want ErrOverflow", vals, err)
		}
	}
	if _, err := l.Pack(1, 2); !errors.Is(err, ErrArity) {
		t.Errorf("Pack with 2 values: err = %v, want ErrArity", err)
	}
}

func TestOverflowErrorNamesFieldValueRange(t *testing.T) {
	l := mustLayout(t, Field{Name: "points", Width: 8})
	_, err := l.Pack(256)
	want := `pack: field "points": value 256 outside [0, 255]: value out of range`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}

func TestBoundaryRows(t *testing.T) {
	for _, w := range []int{1, 2, 31, 32, 33, 52, 53} {
		l := mustLayout(t, Field{Name: "v", Width: w})
		max := int64(1)<<w - 1
		for _, v := range []int64{0, 1, max - 1, max} {
			if v < 0 {
				continue
			}
			s, err := l.Pack(v)
			if err != nil || int64(s) != v {
				t.Fatalf("width %d: Pack(%d) = %d, %v", w, v, s, err)
			}
			got, err := l.Unpack(s.Float64())
			if err != nil || got[0] != v {
				t.Fatalf("width %d: Unpack(%d) = %v, %v", w, s, got, err)
			}
		}
		if _, err := l.Pack(max + 1); !errors.Is(err, ErrOverflow) {
			t.Errorf("width %d: Pack(2^%d) err = %v, want ErrOverflow", w, w, err)
		}
	}
}

func TestUnpackRefuses(t *testing.T) {
	l := mustLayout(t, Field{Name: "a", Width: 20}, Field{Name: "b", Width: 33})
	for _, s := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0.5, 1 << 53, 1e300} {
		if _, err := l.Unpack(s); !errors.Is(err, ErrScore) {
			t.Errorf("Unpack(%v) err = %v, want ErrScore", s, err)
		}
	}
	if _, err := l.Unpack(math.Copysign(0, -1)); err != nil {
		t.Errorf("Unpack(-0) = %v", err)
	}
	small := mustLayout(t, Field{Name: "a", Width: 4})
	if _, err := small.Unpack(16); !errors.Is(err, ErrScore) {
		t.Errorf("Unpack above max err = %v, want ErrScore", err)
	}
	if err := small.UnpackTo(make([]int64, 2), 3); !errors.Is(err, ErrArity) {
		t.Errorf("UnpackTo short dst err = %v, want ErrArity", err)
	}
}

// TestLuaArithmetic checks the documented floor(score/Mul) % (RawMax+1)
// extraction in float64, as a Lua script would compute it.
func TestLuaArithmetic(t *testing.T) {
	l := mustLayout(t, Field{Name: "a", Width: 20}, Field{Name: "b", Width: 1}, Field{Name: "c", Width: 32, Dir: LowerIsBetter})
	s, _ := l.Pack(1<<20-1, 1, 12345)
	f := s.Float64()
	for i := 0; i < l.Len(); i++ {
		fi := l.Field(i)
		raw := math.Mod(math.Floor(f/float64(fi.Mul)), float64(fi.RawMax+1))
		if got := fi.Value(uint64(raw)); got != []int64{1<<20 - 1, 1, 12345}[i] {
			t.Errorf("field %s via float arithmetic = %d", fi.Name, got)
		}
	}
}

func TestString(t *testing.T) {
	l := mustLayout(t, Field{Name: "points", Width: 23}, Field{Name: "paid", Width: 1}, Field{Name: "time", Width: 29, Dir: LowerIsBetter, Signed: true})
	if got, want := l.String(), "bits[points:23 paid:1 time:29/lower/signed]"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if l.Index("paid") != 1 || l.Index("nope") != -1 || l.Width() != 53 || l.Radix() != 2 || l.MaxScore() != 1<<53-1 {
		t.Errorf("accessors wrong: %d %d %d %d %d", l.Index("paid"), l.Index("nope"), l.Width(), l.Radix(), l.MaxScore())
	}
}
