package pack

import (
	"errors"
	"testing"
)

// fuzzLayout builds a layout of up to four fields from the fuzzer's bytes;
// widths are scaled so the total never exceeds the limit.
func fuzzLayout(spec uint64, digits bool) *Layout {
	limit := MaxBits
	if digits {
		limit = MaxDigits
	}
	n := int(spec%4) + 1
	fields := make([]Field, n)
	left := limit
	for i := range fields {
		spec >>= 2
		w := int(spec%uint64(limit))%(left-(n-1-i)) + 1
		left -= w
		spec >>= 6
		fields[i] = Field{Name: string(rune('a' + i)), Width: w, Dir: Direction(spec & 1), Signed: spec&2 != 0}
		spec >>= 2
	}
	var l *Layout
	var err error
	if digits {
		l, err = NewDigitLayout(fields...)
	} else {
		l, err = NewLayout(fields...)
	}
	if err != nil {
		panic(err)
	}
	return l
}

// clamp maps an arbitrary int64 into field f's range, reporting whether it
// was already inside.
func clamp(f FieldInfo, v int64) int64 {
	span := f.Max - f.Min + 1
	m := v % span
	if m < 0 {
		m += span
	}
	return f.Min + m
}

// better reports whether tuple a ranks strictly before tuple b.
func better(l *Layout, a, b []int64) int {
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		if (a[i] > b[i]) == (l.Field(i).Dir == HigherIsBetter) {
			return -1
		}
		return 1
	}
	return 0
}

func FuzzLayoutOrderAndRoundTrip(f *testing.F) {
	f.Add(uint64(0), false, int64(0), int64(0), int64(1), int64(-1))
	f.Add(uint64(0xdeadbeefcafe), true, int64(1)<<52, int64(-5), int64(7), int64(1)<<40)
	f.Add(^uint64(0), false, int64(-1), int64(1)<<62, int64(3), int64(9))
	f.Fuzz(func(t *testing.T, spec uint64, digits bool, x0, x1, y0, y1 int64) {
		l := fuzzLayout(spec, digits)
		a, b := make([]int64, l.Len()), make([]int64, l.Len())
		src := []int64{x0, x1, y0, y1}
		for i := range a {
			a[i] = clamp(l.Field(i), src[i%4]^int64(i))
			b[i] = clamp(l.Field(i), src[(i+2)%4]+int64(i))
		}
		sa, err := l.Pack(a...)
		if err != nil {
			t.Fatalf("Pack(%v) on %v: %v", a, l, err)
		}
		sb, _ := l.Pack(b...)
		if uint64(sa) > l.MaxScore() || uint64(sa) > 1<<53-1 {
			t.Fatalf("score %d above max", sa)
		}
		// Better tuples have strictly larger scores.
		want := better(l, a, b)
		got := 0
		if sa > sb {
			got = -1
		} else if sa < sb {
			got = 1
		}
		if got != want {
			t.Fatalf("%v: %v -> %d, %v -> %d: order %d, want %d", l, a, sa, b, sb, got, want)
		}
		back, err := l.Unpack(sa.Float64())
		if err != nil {
			t.Fatal(err)
		}
		for i := range a {
			if back[i] != a[i] {
				t.Fatalf("%v: Unpack(Pack(%v)) = %v", l, a, back)
			}
		}
		// A value just outside a field's range is refused, never wrapped.
		out := append([]int64(nil), a...)
		if f0 := l.Field(0); f0.Max < 1<<62 {
			out[0] = f0.Max + 1
			if _, err := l.Pack(out...); !errors.Is(err, ErrOverflow) {
				t.Fatalf("%v: Pack(%v) err = %v, want ErrOverflow", l, out, err)
			}
		}
	})
}
