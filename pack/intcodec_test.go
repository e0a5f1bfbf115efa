package pack

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// intRow is one encoder case: the wanted text, or the sentinel the error
// must wrap.
type intRow struct {
	v     int64 // used by the signed rows
	u     uint64
	width int
	want  string
	err   error
}

func TestAppendUintRows(t *testing.T) {
	rows := []intRow{
		{u: 0, width: 1, want: "0"},
		{u: 9, width: 1, want: "9"},
		{u: 10, width: 1, err: ErrOverflow},
		{u: 0, width: 20, want: "00000000000000000000"},
		{u: 1, width: 3, want: "001"},
		{u: 255, width: 3, want: "255"},       // 2^8-1
		{u: 256, width: 3, want: "256"},       // 2^8
		{u: 1000, width: 3, err: ErrOverflow}, // 10^3
		{u: 1<<32 - 1, width: 10, want: "4294967295"},
		{u: 1 << 32, width: 10, want: "4294967296"},
		{u: 1<<53 - 1, width: 16, want: "9007199254740991"},
		{u: 1 << 53, width: 16, want: "9007199254740992"},
		{u: 1 << 53, width: 15, err: ErrOverflow},
		{u: 1<<63 - 1, width: 19, want: "9223372036854775807"},
		{u: 1 << 63, width: 19, want: "9223372036854775808"},
		{u: 9999999999999999999, width: 19, want: "9999999999999999999"},
		{u: 1e19, width: 19, err: ErrOverflow},
		{u: math.MaxUint64, width: 19, err: ErrOverflow},
		{u: math.MaxUint64, width: 20, want: "18446744073709551615"},
		{u: 0, width: 0, err: ErrLayout},
		{u: 0, width: 21, err: ErrLayout},
		{u: 0, width: -1, err: ErrLayout},
	}
	for _, r := range rows {
		got, err := AppendUint([]byte("x"), r.u, r.width)
		checkIntRow(t, "AppendUint", r, "x", got, err)
		if r.err == nil {
			back, err := ParseUint(r.want, r.width)
			if err != nil || back != r.u {
				t.Errorf("ParseUint(%q, %d) = %d, %v; want %d", r.want, r.width, back, err, r.u)
			}
		}
	}
}

func TestAppendUintDescRows(t *testing.T) {
	rows := []intRow{
		{u: 0, width: 1, want: "9"},
		{u: 9, width: 1, want: "0"},
		{u: 42, width: 5, want: "99957"},
		{u: 10, width: 1, err: ErrOverflow},
		{u: 0, width: 20, want: "99999999999999999999"},
		{u: math.MaxUint64, width: 20, want: "81553255926290448384"},
		{u: 0, width: 21, err: ErrLayout},
	}
	for _, r := range rows {
		got, err := AppendUintDesc(nil, r.u, r.width)
		checkIntRow(t, "AppendUintDesc", r, "", got, err)
		if r.err == nil {
			back, err := ParseUintDesc([]byte(r.want), r.width)
			if err != nil || back != r.u {
				t.Errorf("ParseUintDesc(%q, %d) = %d, %v; want %d", r.want, r.width, back, err, r.u)
			}
		}
	}
}

func TestAppendIntRows(t *testing.T) {
	rows := []intRow{
		{v: 0, width: 1, want: "10"},
		{v: 9, width: 1, want: "19"},
		{v: -1, width: 1, want: "09"},
		{v: -10, width: 1, want: "00"},
		{v: 10, width: 1, err: ErrOverflow},
		{v: -11, width: 1, err: ErrOverflow},
		{v: 5, width: 3, want: "1005"},
		{v: -5, width: 3, want: "0995"},
		{v: -1000, width: 3, want: "0000"},
		{v: 1<<53 - 1, width: 16, want: "19007199254740991"},
		{v: -(1<<53 - 1), width: 16, want: "00992800745259009"},
		{v: -(1 << 53), width: 16, want: "00992800745259008"},
		{v: math.MaxInt64, width: 19, want: "19223372036854775807"},
		{v: math.MinInt64, width: 19, want: "00776627963145224192"},
		{v: math.MaxInt64, width: 18, err: ErrOverflow},
		{v: math.MinInt64, width: 18, err: ErrOverflow},
		{v: 999999999999999999, width: 18, want: "1999999999999999999"},
		{v: -1e18, width: 18, want: "0000000000000000000"},
		{v: 0, width: 0, err: ErrLayout},
		{v: 0, width: 20, err: ErrLayout},
	}
	for _, r := range rows {
		got, err := AppendInt(nil, r.v, r.width)
		checkIntRow(t, "AppendInt", r, "", got, err)
		if r.err == nil {
			back, err := ParseInt(r.want, r.width)
			if err != nil || back != r.v {
				t.Errorf("ParseInt(%q, %d) = %d, %v; want %d", r.want, r.width, back, err, r.v)
			}
		}
	}
}

func TestAppendIntDescRows(t *testing.T) {
	rows := []intRow{
		{v: 5, width: 3, want: "0994"},
		{v: -5, width: 3, want: "1004"},
		{v: 0, width: 3, want: "0999"},
		{v: -1, width: 3, want: "1000"},
		{v: 999, width: 3, want: "0000"},
		{v: -1000, width: 3, want: "1999"},
		{v: 1000, width: 3, err: ErrOverflow},
		{v: math.MaxInt64, width: 19, want: "00776627963145224192"},
		{v: math.MinInt64, width: 19, want: "19223372036854775807"},
	}
	for _, r := range rows {
		got, err := AppendIntDesc(nil, r.v, r.width)
		checkIntRow(t, "AppendIntDesc", r, "", got, err)
		if r.err == nil {
			back, err := ParseIntDesc(r.want, r.width)
			if err != nil || back != r.v {
				t.Errorf("ParseIntDesc(%q, %d) = %d, %v; want %d", r.want, r.width, back, err, r.v)
			}
		}
	}
}

func checkIntRow(t *testing.T, fn string, r intRow, prefix string, got []byte, err error) {
	t.Helper()
	if r.err != nil {
		if !errors.Is(err, r.err) {
			t.Errorf("%s(%d/%d, width %d): err = %v, want %v", fn, r.v, r.u, r.width, err, r.err)
		}
		if string(got) != prefix {
			t.Errorf("%s(%d/%d, width %d) changed dst on error: %q", fn, r.v, r.u, r.width, got)
		}
		return
	}
	if err != nil {
		t.Errorf("%s(%d/%d, width %d): %v", fn, r.v, r.u, r.width, err)
		return
	}
	if diff := cmp.Diff(prefix+r.want, string(got)); diff != "" {
		t.Errorf("%s(%d/%d, width %d) (-want +got):\n%s", fn, r.v, r.u, r.width, diff)
	}
}

func TestInt64Helpers(t *testing.T) {
	got := []string{
		string(AppendUint64(nil, 42)),
		string(AppendUint64Desc(nil, 42)),
		string(AppendInt64(nil, -42)),
		string(AppendInt64Desc(nil, -42)),
	}
	want := []string{
		"00000000000000000042",
		"99999999999999999957",
		"09999999999999999958",
		"10000000000000000041",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("64-bit helpers (-want +got):\n%s", diff)
	}
}

func TestParseIntRefuses(t *testing.T) {
	rows := []struct {
		fn    string
		s     string
		width int
		err   error
	}{
		{"uint", "", 1, ErrSyntax},
		{"uint", "12", 3, ErrSyntax},
		{"uint", "1234", 3, ErrSyntax},
		{"uint", "12a", 3, ErrSyntax},
		{"uint", "+12", 3, ErrSyntax},
		{"uint", "-12", 3, ErrSyntax},
		{"uint", " 12", 3, ErrSyntax},
		{"uint", "18446744073709551616", 20, ErrOverflow},
		{"uint", "99999999999999999999", 20, ErrOverflow},
		{"uint", "1", 0, ErrLayout},
		{"udesc", "00000000000000000000", 20, ErrOverflow},
		{"udesc", "9x", 2, ErrSyntax},
		{"int", "2005", 3, ErrSyntax},
		{"int", "-005", 3, ErrSyntax},
		{"int", "005", 3, ErrSyntax},
		{"int", "", 3, ErrSyntax},
		{"int", "10a5", 3, ErrSyntax},
		{"int", "19223372036854775808", 19, ErrOverflow},
		{"int", "00776627963145224191", 19, ErrOverflow},
		{"int", "00000000000000000000", 19, ErrOverflow},
		{"int", "10", 20, ErrLayout},
		{"idesc", "19223372036854775808", 19, ErrOverflow},
	}
	for _, r := range rows {
		var err error
		switch r.fn {
		case "uint":
			_, err = ParseUint(r.s, r.width)
		case "udesc":
			_, err = ParseUintDesc(r.s, r.width)
		case "int":
			_, err = ParseInt([]byte(r.s), r.width)
		case "idesc":
			_, err = ParseIntDesc(r.s, r.width)
		}
		if !errors.Is(err, r.err) {
			t.Errorf("Parse %s(%q, %d): err = %v, want %v", r.fn, r.s, r.width, err, r.err)
		}
		if r.err != ErrLayout && err != nil && !strings.Contains(err.Error(), r.s) {
			t.Errorf("Parse %s(%q, %d): error %q does not name the input", r.fn, r.s, r.width, err)
		}
	}
}

func TestAppendIntErrorNamesValue(t *testing.T) {
	_, err := AppendIntDesc(nil, -1234, 3)
	if err == nil || !strings.Contains(err.Error(), "-1234") || !strings.Contains(err.Error(), "[-1000, 999]") {
		t.Errorf("AppendIntDesc(-1234, 3) error = %v, want it to name -1234 and [-1000, 999]", err)
	}
	_, err = AppendUint(nil, 12345, 4)
	if err == nil || !strings.Contains(err.Error(), "12345") {
		t.Errorf("AppendUint(12345, 4) error = %v, want it to name 12345", err)
	}
}

// TestIntEncodersAllocs holds the encoders to their allocation budget: none
// when dst has room, one when it has none.
func TestIntEncodersAllocs(t *testing.T) {
	enc := map[string]func([]byte) []byte{
		"AppendUint":     func(d []byte) []byte { d, _ = AppendUint(d, 12345, 20); return d },
		"AppendUintDesc": func(d []byte) []byte { d, _ = AppendUintDesc(d, 12345, 20); return d },
		"AppendInt":      func(d []byte) []byte { d, _ = AppendInt(d, -12345, 19); return d },
		"AppendIntDesc":  func(d []byte) []byte { d, _ = AppendIntDesc(d, -12345, 19); return d },
		"AppendUint64":   func(d []byte) []byte { return AppendUint64(d, 12345) },
		"AppendInt64":    func(d []byte) []byte { return AppendInt64(d, -12345) },
	}
	buf := make([]byte, 0, 64)
	for name, f := range enc {
		if n := testing.AllocsPerRun(100, func() { buf = f(buf[:0]) }); n != 0 {
			t.Errorf("%s with capacity: %v allocs, want 0", name, n)
		}
		var sink []byte
		if n := testing.AllocsPerRun(100, func() { sink = f(nil) }); n > 1 {
			t.Errorf("%s into nil: %v allocs, want at most 1", name, n)
		}
		_ = sink
	}
}
