package pack

import (
	"fmt"
	"strings"
)

// MaxBits is the most bits a bit-field layout may use in all: every packed
// score is then an integer no greater than 2^53-1, which a float64 (and so a
// Redis sorted-set score) holds exactly.
const MaxBits = 53

// MaxDigits is the most decimal digits a digit layout may use in all:
// 10^15-1 is below 2^53, so every packed score stays an exact integer.
const MaxDigits = 15

// Direction says which values of a field rank first.
type Direction uint8

const (
	// HigherIsBetter ranks larger values first (points, level). It is the
	// zero value.
	HigherIsBetter Direction = iota
	// LowerIsBetter ranks smaller values first (time: earlier wins; golf
	// strokes). Such a field is stored reversed, as its maximum minus the
	// value, so that one descending order over the packed integer ranks
	// every field correctly.
	LowerIsBetter
)

// String returns the direction's name: "HigherIsBetter" or "LowerIsBetter".
func (d Direction) String() string {
	switch d {
	case HigherIsBetter:
		return "HigherIsBetter"
	case LowerIsBetter:
		return "LowerIsBetter"
	}
	return fmt.Sprintf("Direction(%d)", uint8(d))
}

// Field describes one field of a layout.
type Field struct {
	// Name identifies the field in errors and lookups. Required, unique
	// within a layout.
	Name string
	// Width is the field's size: bits in a layout made by NewLayout,
	// decimal digits in one made by NewDigitLayout. At least 1.
	Width int
	// Dir says which values rank first. Default HigherIsBetter.
	Dir Direction
	// Signed makes the field hold negative values too, stored in offset
	// binary (offset decimal for digit layouts): the range is
	// [-radix^Width/2, radix^Width/2-1] instead of [0, radix^Width-1].
	// Default false.
	Signed bool
}

// FieldInfo is a field of a built layout, with everything needed to work on
// it without bit operations (Redis's Lua bit library is 32-bit):
//
//	raw   = floor(score / Mul) % (RawMax + 1)   -- the stored digit
//	value = Min + raw       (HigherIsBetter)
//	value = Max - raw       (LowerIsBetter)
//	score = score + (newRaw - raw) * Mul        -- replace the field
//
// All of it is exact in float64 arithmetic because scores stay below 2^53.
type FieldInfo struct {
	Field
	// Min and Max bound the values the field accepts, inclusive.
	Min, Max int64
	// Mul is the field's place value in the packed score: the radix (2 or
	// 10) raised to the total width of the less significant fields.
	Mul uint64
	// RawMax is the largest stored digit, radix^Width-1 (= Max-Min).
	RawMax uint64
}

// Layout is an ordered list of fields, most significant first, packed into
// one exact integer score. A Layout is immutable and safe for concurrent use.
// One not made by NewLayout or NewDigitLayout (a zero Layout, or nil) is
// refused by Pack, Unpack, UnpackTo, UnpackScoreTo and Check (ErrLayout).
type Layout struct {
	fields []FieldInfo
	fast   []fastField // bit layouts only: the hot path's view of fields
	radix  uint64
	width  int
	max    uint64
}

// NewLayout builds a bit-field layout. It refuses (with ErrLayout) no
// fields, a width under 1, an empty or duplicate name, an unknown
// direction, and widths adding up to more than MaxBits.
func NewLayout(fields ...Field) (*Layout, error) {
	return build(2, MaxBits, "bits", fields)
}

// NewDigitLayout builds a decimal-digit layout: the same as NewLayout with
// widths in decimal digits, so a score reads as its fields side by side in
// redis-cli (points 200, flag 1, time 290072179 read 2001290072179). It
// refuses what NewLayout refuses, and more than MaxDigits digits in all.
func NewDigitLayout(fields ...Field) (*Layout, error) {
	return build(10, MaxDigits, "digits", fields)
}

func build(radix uint64, limit int, unit string, fields []Field) (*Layout, error) {
	if err := checkFields(fields, limit, unit); err != nil {
		return nil, err
	}
	l := &Layout{fields: make([]FieldInfo, len(fields)), radix: radix}
	mul := uint64(1)
	for i := len(fields) - 1; i >= 0; i-- {
		f := fields[i]
		span := pow(radix, f.Width)
		info := FieldInfo{Field: f, Mul: mul, RawMax: span - 1, Max: int64(span - 1)}
		if f.Signed {
			info.Min = -int64(span / 2)
			info.Max = int64(span/2) - 1
		}
		l.fields[i] = info
		l.width += f.Width
		mul *= span
	}
	l.max = mul - 1
	if radix == 2 {
		l.fast = makeFast(l.fields)
	}
	return l, nil
}

// fastField is what Pack and Unpack need of a bit field, packed small:
// value = base + sign*raw, with base = Min and sign = 1 when higher is
// better, base = Max and sign = -1 when lower is better.
type fastField struct {
	shift      uint8
	lower      bool
	mask       uint64
	min, max   int64
	base, sign int64
}

func makeFast(fields []FieldInfo) []fastField {
	fast := make([]fastField, len(fields))
	shift := 0
	for i := len(fields) - 1; i >= 0; i-- {
		f := fields[i]
		fast[i] = fastField{shift: uint8(shift), lower: f.Dir == LowerIsBetter, mask: f.RawMax, min: f.Min, max: f.Max, base: f.Min, sign: 1}
		if f.Dir == LowerIsBetter {
			fast[i].base, fast[i].sign = f.Max, -1
		}
		shift += f.Width
	}
	return fast
}

func checkFields(fields []Field, limit int, unit string) error {
	if len(fields) == 0 {
		return fmt.Errorf("pack: a layout needs at least one field: %w", ErrLayout)
	}
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		switch {
		case f.Name == "":
			return fmt.Errorf("pack: field %d has an empty name: %w", len(seen), ErrLayout)
		case seen[f.Name]:
			return fmt.Errorf("pack: field name %q used twice: %w", f.Name, ErrLayout)
		case f.Width < 1 || f.Width > limit:
			return fmt.Errorf("pack: field %q: width %d, want 1 to %d %s: %w", f.Name, f.Width, limit, unit, ErrLayout)
		case f.Dir > LowerIsBetter:
			return fmt.Errorf("pack: field %q: unknown direction %v, want HigherIsBetter or LowerIsBetter: %w", f.Name, f.Dir, ErrLayout)
		}
		seen[f.Name] = true
	}
	return checkTotal(fields, limit, unit)
}

// checkTotal refuses fields wider than limit together, saying how many
// they need and where.
func checkTotal(fields []Field, limit int, unit string) error {
	total, parts := 0, make([]string, len(fields))
	for i, f := range fields {
		total += f.Width
		parts[i] = fmt.Sprintf("%s %d", f.Name, f.Width)
	}
	if total > limit {
		return fmt.Errorf("pack: the fields need %d %s (%s), over the limit of %d: %w",
			total, unit, strings.Join(parts, " + "), limit, ErrLayout)
	}
	return nil
}

func pow(radix uint64, n int) uint64 {
	p := uint64(1)
	for ; n > 0; n-- {
		p *= radix
	}
	return p
}

// unmade refuses a Layout not made by NewLayout or NewDigitLayout: a zero
// value or nil (ErrLayout).
func (l *Layout) unmade() error {
	if l == nil || len(l.fields) == 0 {
		return fmt.Errorf("pack: a Layout not made by NewLayout or NewDigitLayout (a zero value or nil): %w", ErrLayout)
	}
	return nil
}

// v returns l, or the zero Layout for nil, which the methods that return
// no error answer for.
func (l *Layout) v() *Layout {
	if l == nil {
		return &Layout{}
	}
	return l
}

// Len returns the number of fields: 0 for a Layout not made by NewLayout
// or NewDigitLayout, whose Pack, Unpack, UnpackTo, UnpackScoreTo and Check
// refuse it (ErrLayout).
func (l *Layout) Len() int {
	if l == nil {
		return 0
	}
	return len(l.fields)
}

// Field returns field i, most significant first, or the zero FieldInfo
// when i is not in [0, Len).
func (l *Layout) Field(i int) FieldInfo {
	if i < 0 || i >= l.Len() {
		return FieldInfo{}
	}
	return l.fields[i]
}

// Fields returns a copy of the fields, most significant first.
func (l *Layout) Fields() []FieldInfo { return append([]FieldInfo(nil), l.v().fields...) }

// Index returns the position of the named field, or -1.
func (l *Layout) Index(name string) int {
	for i, f := range l.v().fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Radix returns 2 for a bit-field layout and 10 for a digit layout.
func (l *Layout) Radix() int { return int(l.v().radix) }

// Width returns the total width of the fields, in bits or digits.
func (l *Layout) Width() int { return l.v().width }

// MaxScore returns the largest score the layout can produce:
// radix^Width-1, at most 2^53-1.
func (l *Layout) MaxScore() uint64 { return l.v().max }

// String describes the layout, e.g. "bits[points:23 paid:1 time:29/lower]".
func (l *Layout) String() string {
	l = l.v()
	var b strings.Builder
	b.WriteString(map[uint64]string{2: "bits[", 10: "digits["}[l.radix])
	for i, f := range l.fields {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s:%d", f.Name, f.Width)
		if f.Dir == LowerIsBetter {
			b.WriteString("/lower")
		}
		if f.Signed {
			b.WriteString("/signed")
		}
	}
	b.WriteByte(']')
	return b.String()
}
