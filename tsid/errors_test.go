package tsid

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func errOf[T any](_ T, err error) error { return err }

func errOf3[A, B any](_ A, _ B, err error) error { return err }

// Every refusal names the input, its value and what is allowed, wraps one
// sentinel and says "tsid: " once.
func TestErrorsNameWhatFailed(t *testing.T) {
	for _, c := range []struct {
		err  error
		want []string
	}{
		{errOf(NewLayout(54, time.Time{}, 0)), []string{"TimeBits = 54", "[1, 53]", "invalid options"}},
		{errOf(NewLayoutSpec(LayoutSpec{TimeBits: 10, RestBits: 64})), []string{"RestBits = 64", "[1, 63]"}},
		{errOf(NewLayoutSpec(LayoutSpec{TimeBits: 42, RestBits: 23})), []string{"TimeBits+RestBits = 42+23", "[2, 64]"}},
		{errOf(NewLayoutSpec(LayoutSpec{TimeBits: 42, Unit: -time.Second})), []string{"Unit = -1s", "0 or more"}},
		{errOf(NewLayoutSpec(LayoutSpec{TimeBits: 42, Text: 7})), []string{"Text = Text(7)", "TextDecimal or TextCrockford"}},
		{errOf(NewLayoutSpec(LayoutSpec{TimeBits: 42, Fields: []Field{{"a", 0}, {"b", 22}}})), []string{"Fields[0].Bits = 0", "[1, 22]"}},
		{errOf(NewLayoutSpec(LayoutSpec{TimeBits: 42, Fields: []Field{{"a", 11}, {"a", 11}}})), []string{`Fields[1].Name = "a"`}},
		{errOf(NewLayoutSpec(LayoutSpec{TimeBits: 53, Unit: time.Hour})), []string{"Epoch = 1970-01-01T00:00:00Z", "2^62 s"}},
		{errOf(NewGenerator(GeneratorOptions{NodeBits: 22})), []string{"NodeBits = 22", "[-1, 21]"}},
		{errOf(NewGenerator(GeneratorOptions{Layout: mustLayoutSpec(LayoutSpec{TimeBits: 42, RestBits: 3})})), []string{"NodeBits = 0 (the default, 10)", "[-1, 2]", "3 bits after its time"}},
		{errOf(NewGenerator(GeneratorOptions{Node: 1024})), []string{"Node = 1024", "[0, 1023]"}},
		{errOf(TSID.Parse("G123456789ABC")), []string{`"G123456789ABC"`, "above F"}},
		{errOf(Snowflake.Parse("9223372036854775808")), []string{"9223372036854775808", "[0, 9223372036854775807]"}},
		{errOf3(Snowflake.Split(1 << 63)), []string{"9223372036854775808", "[0, 9223372036854775807]"}},
		{errOf(TSID.Field(1, "sequence")), []string{`"sequence"`, `"node", "counter"`}},
		{errOf(Snowflake.Field(1, "node")), []string{`"node"`, `"machine", "sequence"`}},
		{errOf(TSID.Join(1<<42, "000000")), []string{"4.398046511104e+12", "[0, 4398046511103]"}},
		{errOf(TSID.Join(math.NaN(), "000000")), []string{"NaN", "[0, 4398046511103]"}},
		{errOf(TSID.Join(0, "400000")), []string{`"400000"`, "[000000, 3fffff]"}},
		{errOf(TSID.Join(0, "04a96")), []string{`"04a96"`, "length 5, want 6"}},
		{errOf(TSID.Score(TSIDEpoch.Add(-1))), []string{"2019-12-31T23:59:59.999999999Z", "[2020-01-01T00:00:00Z, 2159-05-15T07:35:11.104Z)"}},
		{errOf(UUIDv7.Score(time.Unix(-1, 0))), []string{"1969-12-31T23:59:59Z", "[1970-01-01T00:00:00Z, 10889-08-02T05:31:50.656Z)"}},
		{errOf(UUIDv7.Parse("f47ac10b-58cc-4372-a567-0e02b2c3d479")), []string{"version 4, want 7", "not a version 7 UUID"}},
		{errOf3(UUIDv7.Split([16]byte{})), []string{"00000000-0000-0000-0000-000000000000", "version 0, want 7"}},
		{errOf(ULID.Join(0, "0000")), []string{`"0000"`, "length 4, want 20"}},
	} {
		if c.err == nil {
			t.Errorf("want an error saying %q, got nil", c.want)
			continue
		}
		checkSentinel(t, "refusal", c.err)
		for _, w := range c.want {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("error %q does not say %q", c.err, w)
			}
		}
	}
}

func TestTextString(t *testing.T) {
	got := []string{TextDecimal.String(), TextCrockford.String(), Text(7).String()}
	if diff := cmp.Diff([]string{"TextDecimal", "TextCrockford", "Text(7)"}, got); diff != "" {
		t.Errorf("Text names (-want +got):\n%s", diff)
	}
}

func mustLayoutSpec(spec LayoutSpec) *Layout {
	l, err := NewLayoutSpec(spec)
	if err != nil {
		panic(err)
	}
	return l
}
