package tsid

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/internal/clip"
)

// MaxTimeBits is the widest time part a Layout may have: every time part is
// then an integer no greater than 2^53-1, which a float64 (and so a Redis
// sorted-set score) holds exactly.
const MaxTimeBits = 53

// Field names a run of bits below the time part, for Layout.Field.
type Field struct {
	// Name identifies the field; required and unique within a layout.
	Name string
	// Bits is the field's width; at least 1.
	Bits int
}

// LayoutSpec describes a 64-bit layout for NewLayoutSpec. The zero value of
// every field but TimeBits means its default.
type LayoutSpec struct {
	// Name labels the layout in errors and String. Default "custom".
	Name string
	// TimeBits is the width of the time part, the most significant bits of
	// the ID. Required: 1 to MaxTimeBits.
	TimeBits int
	// RestBits is the width of the bits below the time part (node, counter,
	// sequence, random...). Default 64-TimeBits; otherwise 1 to 63 with
	// TimeBits+RestBits at most 64. IDs have TimeBits+RestBits bits in all:
	// an ID with a higher bit set is out of range.
	RestBits int
	// Epoch is the instant of time part 0. Default (the zero time.Time) the
	// Unix epoch, 1970-01-01T00:00:00Z.
	Epoch time.Time
	// Unit is the duration of one step of the time part. Default
	// time.Millisecond; negative units are refused.
	Unit time.Duration
	// Text is the text form of Parse and Format. Default TextDecimal.
	Text Text
	// Fields optionally names the rest bits, most significant first, for
	// Layout.Field. Default none; if given, the widths must add up to
	// RestBits.
	Fields []Field
}

// Layout is a 64-bit ID layout: a time part of TimeBits bits counting Units
// since Epoch, then RestBits more bits. It splits an ID into an exact
// sorted-set score (the time part) and a fixed-width suffix (the rest bits
// in lowercase hex) whose byte order is the numeric order of the rest bits.
// A Layout is immutable and safe for concurrent use. One not made by
// NewLayout or NewLayoutSpec (a zero value, or nil) has no time part: the
// methods that return an error refuse it with ErrArgument, and the others
// answer as a zero Layout would, without panicking.
type Layout struct {
	name      string
	timeBits  uint
	restBits  uint
	restMask  uint64
	max       uint64
	maxTime   uint64
	suffixLen int
	epoch     time.Time
	epochSec  int64
	epochNsec int64
	unit      time.Duration
	text      Text
	fields    []Field
}

// NewLayout returns a layout of 64 bits: timeBits bits of time part
// counting unit since epoch, and 64-timeBits rest bits, in decimal text. A
// zero epoch means the Unix epoch and a zero unit a millisecond. It refuses
// (with ErrOptions) what NewLayoutSpec refuses.
func NewLayout(timeBits int, epoch time.Time, unit time.Duration) (*Layout, error) {
	return NewLayoutSpec(LayoutSpec{TimeBits: timeBits, Epoch: epoch, Unit: unit})
}

// NewLayoutSpec returns the layout spec describes. It refuses, with
// ErrOptions, TimeBits outside [1, MaxTimeBits] (a wider time part would
// not be exact in a float64 score), RestBits outside [1, 63] or
// TimeBits+RestBits above 64, a negative Unit, an unknown Text, fields
// that are unnamed, duplicated, narrower than 1 bit or that do not add up
// to RestBits, and an epoch or time span (2^TimeBits Units) so large that
// times after it cannot be computed (beyond about 2^62 seconds). The error
// names the setting, its value and the range allowed.
func NewLayoutSpec(spec LayoutSpec) (*Layout, error) {
	spec = spec.withDefaults()
	if err := spec.check(); err != nil {
		return nil, err
	}
	l := &Layout{
		name:     spec.Name,
		timeBits: uint(spec.TimeBits),
		restBits: uint(spec.RestBits),
		epoch:    spec.Epoch.UTC(),
		unit:     spec.Unit,
		text:     spec.Text,
		fields:   append([]Field(nil), spec.Fields...),
	}
	l.restMask = 1<<l.restBits - 1
	l.maxTime = 1<<l.timeBits - 1
	l.max = l.maxTime<<l.restBits | l.restMask
	l.suffixLen = (spec.RestBits + 3) / 4
	l.epochSec, l.epochNsec = l.epoch.Unix(), int64(l.epoch.Nanosecond())
	if err := l.checkSpan(); err != nil {
		return nil, err
	}
	return l, nil
}

func (s LayoutSpec) withDefaults() LayoutSpec {
	if s.Name == "" {
		s.Name = "custom"
	}
	if s.RestBits == 0 {
		s.RestBits = 64 - s.TimeBits
	}
	if s.Epoch.IsZero() {
		s.Epoch = time.Unix(0, 0)
	}
	if s.Unit == 0 {
		s.Unit = time.Millisecond
	}
	return s
}

func (s LayoutSpec) check() error {
	var detail string
	switch {
	case s.TimeBits < 1 || s.TimeBits > MaxTimeBits:
		detail = fmt.Sprintf("TimeBits = %d out of range [1, %d]", s.TimeBits, MaxTimeBits)
	case s.RestBits < 1 || s.RestBits > 63:
		detail = fmt.Sprintf("RestBits = %d out of range [1, 63]", s.RestBits)
	case s.TimeBits+s.RestBits > 64:
		detail = fmt.Sprintf("TimeBits+RestBits = %d+%d out of range [2, 64]", s.TimeBits, s.RestBits)
	case s.Unit < 0:
		detail = fmt.Sprintf("Unit = %v, want 0 or more (0 means 1ms)", s.Unit)
	case s.Text > TextCrockford:
		detail = fmt.Sprintf("Text = %v, want TextDecimal or TextCrockford", s.Text)
	default:
		detail = checkFields(s.Fields, s.RestBits)
	}
	if detail != "" {
		return fmt.Errorf("tsid: layout %q: %s: %w", s.Name, detail, ErrOptions)
	}
	return nil
}

// checkFields returns what is wrong with fields, or "".
func checkFields(fields []Field, restBits int) string {
	if len(fields) == 0 {
		return ""
	}
	seen := make(map[string]bool, len(fields))
	total := 0
	for i, f := range fields {
		switch {
		case f.Name == "":
			return fmt.Sprintf("Fields[%d].Name is empty", i)
		case seen[f.Name]:
			return fmt.Sprintf("Fields[%d].Name = %q names a field twice", i, f.Name)
		case f.Bits < 1 || f.Bits > restBits:
			return fmt.Sprintf("Fields[%d].Bits = %d out of range [1, %d]", i, f.Bits, restBits)
		}
		seen[f.Name] = true
		total += f.Bits
	}
	if total != restBits {
		return fmt.Sprintf("Fields have %d bits in all, want RestBits = %d", total, restBits)
	}
	return ""
}

// maxSpanSec bounds epochs and time spans, in seconds, so that epoch plus
// span never overflows an int64 number of seconds.
const maxSpanSec = 1 << 62

// maxUnixSec is one past the last Unix second that time.Time compares
// and subtracts exactly: its seconds count from year 1 in an int64.
const maxUnixSec = math.MaxInt64 - 62135596800

// checkSpan refuses a layout whose times cannot be computed exactly.
func (l *Layout) checkSpan() error {
	hi, lo := bits.Mul64(l.maxTime, uint64(l.unit))
	ok := l.epochSec > -maxSpanSec && l.epochSec < maxSpanSec && hi < 1e9
	if ok {
		sec, _ := bits.Div64(hi, lo, 1e9)
		ok = sec < maxSpanSec && l.epochSec+int64(sec) < maxUnixSec
	}
	if !ok {
		return fmt.Errorf("tsid: layout %q: Epoch = %s with 2^%d units of %v: out of range, want epoch and span each within 2^62 s, and their sum within time.Time's: %w",
			l.name, l.epoch.Format(time.RFC3339Nano), l.timeBits, l.unit, ErrOptions)
	}
	return nil
}

// mustLayout builds a predefined layout; a failure is a bug in this package.
func mustLayout(spec LayoutSpec) *Layout {
	l, err := NewLayoutSpec(spec)
	if err != nil {
		panic(err)
	}
	return l
}

// zeroLayout answers for a nil Layout.
var zeroLayout Layout

// v returns l, or the zero Layout for nil.
func (l *Layout) v() *Layout {
	if l == nil {
		return &zeroLayout
	}
	return l
}

// unmade refuses, for op, a Layout not made by its constructors.
func (l *Layout) unmade(op string) error {
	if l == nil || l.timeBits == 0 {
		return fmt.Errorf("tsid: Layout.%s: a Layout not made by NewLayout or NewLayoutSpec (a zero value or nil): %w", op, ErrArgument)
	}
	return nil
}

// Name returns the layout's name, e.g. "TSID".
func (l *Layout) Name() string { return l.v().name }

// String returns a description such as "TSID(time 42 bits of 1ms since
// 2020-01-01T00:00:00Z, rest 22 bits, TextCrockford)".
func (l *Layout) String() string {
	l = l.v()
	return fmt.Sprintf("%s(time %d bits of %v since %s, rest %d bits, %v)",
		l.name, l.timeBits, l.unit, l.epoch.Format(time.RFC3339Nano), l.restBits, l.text)
}

// TimeBits returns the width of the time part.
func (l *Layout) TimeBits() int { return int(l.v().timeBits) }

// RestBits returns the width of the bits below the time part.
func (l *Layout) RestBits() int { return int(l.v().restBits) }

// TotalBits returns TimeBits+RestBits: 64, or 63 for layouts whose IDs fit
// a signed 64-bit integer.
func (l *Layout) TotalBits() int { return int(l.v().timeBits + l.v().restBits) }

// Epoch returns the instant of time part 0, in UTC.
func (l *Layout) Epoch() time.Time { return l.v().epoch }

// Unit returns the duration of one step of the time part.
func (l *Layout) Unit() time.Duration { return l.v().unit }

// Text returns the text form of Parse and Format.
func (l *Layout) Text() Text { return l.v().text }

// Max returns the largest ID: 2^TotalBits-1.
func (l *Layout) Max() uint64 { return l.v().max }

// MaxTime returns the largest time part, 2^TimeBits-1, which is also the
// largest score Split returns.
func (l *Layout) MaxTime() uint64 { return l.v().maxTime }

// SuffixLen returns the length of every suffix: one lowercase hex digit per
// 4 rest bits, rounded up.
func (l *Layout) SuffixLen() int { return l.v().suffixLen }

// Fields returns a copy of the named rest-bit fields, most significant
// first, or nil if the layout names none.
func (l *Layout) Fields() []Field { return append([]Field(nil), l.v().fields...) }

// Field returns the value of the named field of id. It refuses an unknown
// name with ErrField and an id above Max with ErrRange.
func (l *Layout) Field(id uint64, name string) (uint64, error) {
	if err := l.unmade("Field"); err != nil {
		return 0, err
	}
	if id > l.max {
		return 0, l.idRangeError("Field", id)
	}
	shift := l.restBits
	for _, f := range l.fields {
		shift -= uint(f.Bits)
		if f.Name == name {
			return id >> shift & (1<<uint(f.Bits) - 1), nil
		}
	}
	return 0, inputError(l.name, "Field", clip.Quote(name), l.fieldNames(), ErrField)
}

// fieldNames says which names Field accepts.
func (l *Layout) fieldNames() string {
	if len(l.fields) == 0 {
		return "unknown field: the layout names no fields"
	}
	names := make([]string, len(l.fields))
	for i, f := range l.fields {
		names[i] = strconv.Quote(f.Name)
	}
	return "unknown field, want one of " + strings.Join(names, ", ")
}

func (l *Layout) idRangeError(op string, id uint64) error {
	return inputError(l.name, op, strconv.FormatUint(id, 10), l.idRange(), ErrRange)
}

// idRange describes the IDs of the layout, for errors.
func (l *Layout) idRange() string {
	return fmt.Sprintf("out of range [0, %d] (%d bits)", l.max, l.TotalBits())
}

// Parse returns the ID that s spells in the layout's text form. It refuses
// malformed text (wrong length, a character outside the alphabet, a sign
// or leading zero in decimal) with ErrSyntax, and a value above Max with
// ErrRange.
func (l *Layout) Parse(s string) (uint64, error) {
	if err := l.unmade("Parse"); err != nil {
		return 0, err
	}
	var v uint64
	var detail string
	var err error
	if l.text == TextCrockford {
		v, detail, err = parseCrockford(s)
	} else {
		v, detail, err = parseDecimal(s)
	}
	if err == nil && v > l.max {
		detail, err = l.idRange(), ErrRange
	}
	if err != nil {
		return 0, inputError(l.name, "Parse", clip.Quote(s), detail, err)
	}
	return v, nil
}

// Format returns the text form of id: 13 upper-case Crockford characters
// or canonical decimal. It does not check id against Max (Parse does).
func (l *Layout) Format(id uint64) string {
	var buf [20]byte
	return string(l.AppendFormat(buf[:0], id))
}

// AppendFormat appends the text form of id to dst, as Format, and returns
// the extended slice.
func (l *Layout) AppendFormat(dst []byte, id uint64) []byte {
	if l.v().text == TextCrockford {
		return appendCrockford(dst, id)
	}
	return strconv.AppendUint(dst, id, 10)
}
