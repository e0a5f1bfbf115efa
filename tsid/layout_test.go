package tsid

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/clip"
)

// row is one ID with the text, score and suffix it must have.
type row struct {
	id     uint64
	text   string
	score  float64
	suffix string
}

func TestLayoutRows(t *testing.T) {
	tests := map[*Layout][]row{
		TSID: {
			{0, "0000000000000", 0, "000000"},
			{1, "0000000000001", 0, "000001"},
			{1<<22 - 1, "000000003ZZZZ", 0, "3fffff"},
			{1 << 22, "0000000040000", 1, "000000"},
			{1<<53 - 1, "007ZZZZZZZZZZ", 1<<31 - 1, "3fffff"},
			{1 << 53, "0080000000000", 1 << 31, "000000"},
			{1<<63 - 1, "7ZZZZZZZZZZZZ", 1<<41 - 1, "3fffff"},
			{1 << 63, "8000000000000", 1 << 41, "000000"},
			{math.MaxUint64, "FZZZZZZZZZZZZ", 1<<42 - 1, "3fffff"},
		},
		Snowflake: {
			{0, "0", 0, "000000"},
			{1, "1", 0, "000001"},
			{1<<22 - 1, "4194303", 0, "3fffff"},
			{1 << 22, "4194304", 1, "000000"},
			{1<<63 - 1, "9223372036854775807", 1<<41 - 1, "3fffff"},
		},
		Discord: {
			{1<<22 + 1<<12, "4198400", 1, "001000"},
			{1 << 63, "9223372036854775808", 1 << 41, "000000"},
			{math.MaxUint64, "18446744073709551615", 1<<42 - 1, "3fffff"},
		},
		Sonyflake: {
			{1<<24 - 1, "16777215", 0, "ffffff"},
			{1 << 24, "16777216", 1, "000000"},
			{1<<63 - 1, "9223372036854775807", 1<<39 - 1, "ffffff"},
		},
	}
	for l, rows := range tests {
		for _, r := range rows {
			got := row{id: r.id, text: l.Format(r.id)}
			var err error
			if got.score, got.suffix, err = l.Split(r.id); err != nil {
				t.Errorf("%s.Split(%d): %v", l.Name(), r.id, err)
			}
			if diff := cmp.Diff(r, got, cmp.AllowUnexported(row{})); diff != "" {
				t.Errorf("%s %d (-want +got):\n%s", l.Name(), r.id, diff)
			}
			checkRoundTrip(t, l, r.id)
		}
	}
}

func TestLayoutAccessors(t *testing.T) {
	type info struct {
		Name                         string
		Time, Rest, Total, SuffixLen int
		Max, MaxTime                 uint64
		Epoch                        time.Time
		Unit                         time.Duration
		Text                         Text
	}
	get := func(l *Layout) info {
		return info{l.Name(), l.TimeBits(), l.RestBits(), l.TotalBits(), l.SuffixLen(),
			l.Max(), l.MaxTime(), l.Epoch(), l.Unit(), l.Text()}
	}
	got := []info{get(TSID), get(Snowflake), get(Discord), get(Sonyflake)}
	want := []info{
		{"TSID", 42, 22, 64, 6, math.MaxUint64, 1<<42 - 1, time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond, TextCrockford},
		{"Snowflake", 41, 22, 63, 6, math.MaxInt64, 1<<41 - 1, time.UnixMilli(1288834974657).UTC(), time.Millisecond, TextDecimal},
		{"Discord", 42, 22, 64, 6, math.MaxUint64, 1<<42 - 1, time.UnixMilli(1420070400000).UTC(), time.Millisecond, TextDecimal},
		{"Sonyflake", 39, 24, 63, 6, math.MaxInt64, 1<<39 - 1, time.Date(2014, 9, 1, 0, 0, 0, 0, time.UTC), 10 * time.Millisecond, TextDecimal},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("accessors (-want +got):\n%s", diff)
	}
	const s = "TSID(time 42 bits of 1ms since 2020-01-01T00:00:00Z, rest 22 bits, TextCrockford)"
	if TSID.String() != s {
		t.Errorf("String() = %q, want %q", TSID.String(), s)
	}
}

func TestParseAliasesAndCase(t *testing.T) {
	const want = 9145327665<<22 | 18679 // 01226N0640J7Q
	for _, s := range []string{"01226N0640J7Q", "01226n0640j7q", "OI226N064OJ7Q", "oL226n064oj7q", "0l226N0640J7Q"} {
		got, err := TSID.Parse(s)
		if err != nil || got != want {
			t.Errorf("TSID.Parse(%q) = %d, %v; want %d", s, got, err, uint64(want))
		}
	}
}

func TestParseRefusals(t *testing.T) {
	tests := []struct {
		layout *Layout
		in     string
		want   error
	}{
		{TSID, "", ErrSyntax},
		{TSID, "0123456789AB", ErrSyntax},
		{TSID, "0123456789ABCD", ErrSyntax},
		{TSID, "0123456789ABU", ErrSyntax},
		{TSID, "0123-56789ABC", ErrSyntax},
		{TSID, "0123456789AB\xff", ErrSyntax},
		{TSID, "G000000000000", ErrRange},
		{TSID, "ZZZZZZZZZZZZZ", ErrRange},
		{TSID, "g000000000000", ErrRange},
		{Snowflake, "", ErrSyntax},
		{Snowflake, "-1", ErrSyntax},
		{Snowflake, "+1", ErrSyntax},
		{Snowflake, "01", ErrSyntax},
		{Snowflake, "00", ErrSyntax},
		{Snowflake, "1 ", ErrSyntax},
		{Snowflake, "1e3", ErrSyntax},
		{Snowflake, "9223372036854775808", ErrRange},
		{Snowflake, "18446744073709551615", ErrRange},
		{Discord, "18446744073709551616", ErrRange},
		{Discord, "99999999999999999999999", ErrRange},
		{Sonyflake, "9223372036854775808", ErrRange},
	}
	// Text of another encoding is named for the character that is not
	// one of this one's, even where it starts with a zero.
	if _, err := Snowflake.Parse("0SBTXX97R1402"); err == nil || !strings.Contains(err.Error(), `invalid character 'S' at 1`) {
		t.Errorf("Snowflake.Parse of a TSID: %v; want the invalid character named", err)
	}
	for _, tt := range tests {
		got, err := tt.layout.Parse(tt.in)
		if !errors.Is(err, tt.want) || got != 0 {
			t.Errorf("%s.Parse(%q) = %d, %v; want %v", tt.layout.Name(), tt.in, got, err, tt.want)
		}
		checkSentinel(t, tt.layout.Name()+".Parse", err)
		if err != nil && !strings.Contains(err.Error(), clip.Quote(tt.in)) {
			t.Errorf("%s.Parse(%q): error %q does not name the input", tt.layout.Name(), tt.in, err)
		}
	}
}

func TestIDRangeRefusals(t *testing.T) {
	for _, l := range []*Layout{Snowflake, Sonyflake} {
		for _, id := range []uint64{1 << 63, math.MaxUint64} {
			_, _, err1 := l.Split(id)
			_, _, err2 := l.Parts(id)
			_, err3 := l.Field(id, l.Fields()[0].Name)
			buf, _, err4 := l.AppendSplit([]byte("x"), id)
			for i, err := range []error{err1, err2, err3, err4} {
				if !errors.Is(err, ErrRange) {
					t.Errorf("%s: call %d on %d: err = %v, want ErrRange", l.Name(), i, id, err)
				}
			}
			if tm := l.Time(id); !tm.IsZero() {
				t.Errorf("%s.Time(%d) = %v, want zero", l.Name(), id, tm)
			}
			_ = buf
		}
	}
	if _, err := TSID.Field(0, "sequence"); !errors.Is(err, ErrField) {
		t.Errorf("TSID.Field(sequence): err = %v, want ErrField", err)
	}
}

func TestJoinRefusals(t *testing.T) {
	tests := []struct {
		layout *Layout
		score  float64
		suffix string
		want   error
	}{
		{TSID, math.NaN(), "000000", ErrScore},
		{TSID, math.Inf(1), "000000", ErrScore},
		{TSID, math.Inf(-1), "000000", ErrScore},
		{TSID, -1, "000000", ErrScore},
		{TSID, 0.5, "000000", ErrScore},
		{TSID, 1<<42 - 0.5, "000000", ErrScore},
		{TSID, 1 << 42, "000000", ErrScore},
		{TSID, math.MaxFloat64, "000000", ErrScore},
		{Snowflake, 1 << 41, "000000", ErrScore},
		{TSID, 0, "", ErrSyntax},
		{TSID, 0, "04a96", ErrSyntax},
		{TSID, 0, "04a96c0", ErrSyntax},
		{TSID, 0, "04A96C", ErrSyntax},
		{TSID, 0, "04a96g", ErrSyntax},
		{TSID, 0, " 4a96c", ErrSyntax},
		{TSID, 0, "400000", ErrRange},
		{TSID, 0, "ffffff", ErrRange},
	}
	for _, tt := range tests {
		got, err := tt.layout.Join(tt.score, tt.suffix)
		if !errors.Is(err, tt.want) || got != 0 {
			t.Errorf("%s.Join(%v, %q) = %d, %v; want %v", tt.layout.Name(), tt.score, tt.suffix, got, err, tt.want)
		}
		checkSentinel(t, tt.layout.Name()+".Join", err)
		if err != nil && !strings.Contains(err.Error(), clip.Quote(tt.suffix)) {
			t.Errorf("%s.Join: error %q does not name the suffix %q", tt.layout.Name(), err, tt.suffix)
		}
	}
	if got, err := TSID.Join(math.Copysign(0, -1), "000001"); err != nil || got != 1 {
		t.Errorf("TSID.Join(-0, 000001) = %d, %v; want 1", got, err)
	}
	if got, err := Sonyflake.Join(0, "ffffff"); err != nil || got != 1<<24-1 {
		t.Errorf("Sonyflake.Join(0, ffffff) = %d, %v; want 2^24-1", got, err)
	}
}

func TestNewLayoutRefusals(t *testing.T) {
	ms := time.Millisecond
	specs := map[string]LayoutSpec{
		"no time bits":     {TimeBits: 0},
		"negative time":    {TimeBits: -1},
		"54 time bits":     {TimeBits: 54},
		"64 rest bits":     {TimeBits: 1, RestBits: 64},
		"negative rest":    {TimeBits: 10, RestBits: -1},
		"65 bits":          {TimeBits: 42, RestBits: 23},
		"negative unit":    {TimeBits: 42, Unit: -ms},
		"unknown text":     {TimeBits: 42, Text: 7},
		"fields short":     {TimeBits: 42, Fields: []Field{{"a", 10}, {"b", 11}}},
		"fields long":      {TimeBits: 42, Fields: []Field{{"a", 10}, {"b", 13}}},
		"field unnamed":    {TimeBits: 42, Fields: []Field{{"", 10}, {"b", 12}}},
		"field twice":      {TimeBits: 42, Fields: []Field{{"a", 10}, {"a", 12}}},
		"field zero bits":  {TimeBits: 42, Fields: []Field{{"a", 22}, {"b", 0}}},
		"span too long":    {TimeBits: 53, Unit: time.Hour},
		"epoch too far":    {TimeBits: 1, Epoch: time.Unix(1<<62, 0)},
		"epoch too early":  {TimeBits: 1, Epoch: time.Unix(-1<<62, 0)},
		"span and epoch":   {TimeBits: 40, Unit: 1 << 62},
		"past time.Time":   {TimeBits: 53, Epoch: time.Unix(1<<62-1, 0), Unit: 512*time.Second - time.Microsecond},
		"field bits minus": {TimeBits: 42, Fields: []Field{{"a", 23}, {"b", -1}}},
	}
	for name, spec := range specs {
		if l, err := NewLayoutSpec(spec); !errors.Is(err, ErrOptions) {
			t.Errorf("%s: NewLayoutSpec(%+v) = %v, %v; want ErrOptions", name, spec, l, err)
		}
	}
	if _, err := NewLayout(54, time.Time{}, ms); !errors.Is(err, ErrOptions) {
		t.Errorf("NewLayout(54): err = %v, want ErrOptions", err)
	}
}

func TestNewLayoutEdges(t *testing.T) {
	epoch := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	l, err := NewLayout(53, epoch, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	got := []any{l.RestBits(), l.SuffixLen(), l.Max(), l.Time(math.MaxUint64), l.Name()}
	want := []any{11, 3, uint64(math.MaxUint64), time.UnixMilli(epoch.UnixMilli() + 1<<53 - 1).UTC(), "custom"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("53-bit layout (-want +got):\n%s", diff)
	}
	checkRoundTrip(t, l, math.MaxUint64)
	one, err := NewLayoutSpec(LayoutSpec{Name: "tiny", TimeBits: 1, RestBits: 1, Unit: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for id := uint64(0); id <= 3; id++ {
		checkRoundTrip(t, one, id)
	}
	if _, err := one.Parse("4"); !errors.Is(err, ErrRange) {
		t.Errorf("tiny.Parse(4): err = %v, want ErrRange", err)
	}
	if tm := one.Time(3); !tm.Equal(time.Unix(3600, 0)) {
		t.Errorf("tiny.Time(3) = %v, want 1970-01-01T01:00:00Z", tm)
	}
}

func TestTimeAndScore(t *testing.T) {
	type res struct {
		Score float64
		Err   bool
	}
	at := func(l *Layout, tm time.Time) res {
		s, err := l.Score(tm)
		if err != nil && !errors.Is(err, ErrRange) {
			t.Errorf("%s.Score(%v): err = %v, want ErrRange", l.Name(), tm, err)
		}
		return res{s, err != nil}
	}
	end := TSIDEpoch.Add(1 << 42 * time.Millisecond)
	got := []res{
		at(TSID, TSIDEpoch), at(TSID, TSIDEpoch.Add(-1)), at(TSID, TSIDEpoch.Add(1500*time.Microsecond)),
		at(TSID, end.Add(-1)), at(TSID, end), at(TSID, time.Unix(1<<62, 0)),
		at(Sonyflake, SonyflakeEpoch.Add(19*time.Millisecond)), at(Sonyflake, SonyflakeEpoch.Add(20*time.Millisecond)),
	}
	want := []res{{0, false}, {0, true}, {1, false}, {1<<42 - 1, false}, {0, true}, {0, true}, {1, false}, {2, false}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Score (-want +got):\n%s", diff)
	}
	if tm := Sonyflake.Time(3 << 24); !tm.Equal(SonyflakeEpoch.Add(30 * time.Millisecond)) {
		t.Errorf("Sonyflake.Time(3<<24) = %v", tm)
	}
}

func TestNoAllocs(t *testing.T) {
	buf := make([]byte, 0, 32)
	for name, f := range map[string]func(){
		"Layout.AppendSplit": func() { _, _, _ = TSID.AppendSplit(buf[:0], 38390726480144748) },
		"Layout.Join":        func() { _, _ = TSID.Join(9153062458, "04a96c") },
		"Layout.AppendFormat": func() {
			_ = TSID.AppendFormat(buf[:0], 38390726480144748)
			_ = Discord.AppendFormat(buf[:0], 175928847299117063)
		},
		"Layout.Parse":          func() { _, _ = TSID.Parse("0123456789ABC") },
		"Layout128.AppendSplit": func() { _, _, _ = ULID.AppendSplit(buf[:0], [16]byte{6: 1}) },
		"Layout128.Join":        func() { _, _ = UUIDv7.Join(1, "7cc398c4dc0c0c07398f") },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, n)
		}
	}
}

// The zero ID of every layout is a cursor (package timeline reads it as the
// cursor below every ID), and a cursor crosses an API as text: the zero
// ID's text parses back to the zero ID in every layout, the nil UUID
// included, though UUIDv7.Split refuses it as a message's ID.
func TestZeroIDText(t *testing.T) {
	crockford, err := NewLayoutSpec(LayoutSpec{Name: "crockford", TimeBits: 30, RestBits: 30, Text: TextCrockford})
	if err != nil {
		t.Fatal(err)
	}
	decimal, err := NewLayout(53, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, l := range []*Layout{TSID, Snowflake, Discord, Sonyflake, crockford, decimal} {
		id, err := l.Parse(l.Format(0))
		got = append(got, fmt.Sprintf("%s %q %d %v", l.Name(), l.Format(0), id, err))
	}
	for _, l := range []*Layout128{ULID, UUIDv7} {
		id, err := l.Parse(l.Format([16]byte{}))
		got = append(got, fmt.Sprintf("%s %q %x %v", l.Name(), l.Format([16]byte{}), id, err))
	}
	zero128 := " 00000000000000000000000000000000 <nil>"
	want = []string{`TSID "0000000000000" 0 <nil>`, `Snowflake "0" 0 <nil>`, `Discord "0" 0 <nil>`,
		`Sonyflake "0" 0 <nil>`, `crockford "0000000000000" 0 <nil>`, `custom "0" 0 <nil>`,
		`ULID "00000000000000000000000000"` + zero128, `UUIDv7 "00000000-0000-0000-0000-000000000000"` + zero128}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse(Format(zero ID)) (-want +got):\n%s", diff)
	}
	if _, err := UUIDv7.Parse("00000000-0000-0000-0000-000000000001"); !errors.Is(err, ErrVersion) {
		t.Errorf("UUIDv7.Parse(nil UUID + 1): err = %v, want ErrVersion", err)
	}
}

// The last time of a layout at the edge of what NewLayout takes scores
// back to its time part: its epoch plus span stays where time.Time
// compares and subtracts exactly.
func TestLastTimeOfTheWidestLayoutScores(t *testing.T) {
	for _, epoch := range []int64{1<<62 - 1, maxUnixSec - 1<<40, 0, -1<<62 + 1} {
		for _, unit := range []time.Duration{time.Millisecond, time.Second, 500 * time.Second, 512*time.Second - time.Microsecond} {
			l, err := NewLayout(53, time.Unix(epoch, 0), unit)
			if err != nil {
				continue // refused: nothing to check
			}
			sc, _, err := l.Split(l.Max())
			if err != nil {
				t.Fatal(err)
			}
			if got, err := l.Score(l.Time(l.Max())); err != nil || got != sc {
				t.Errorf("epoch %d, unit %v: Score(Time(Max)) = %v, %v; want %v", epoch, unit, got, err, sc)
			}
		}
	}
}
