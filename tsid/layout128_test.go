package tsid

import (
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/oklog/ulid/v2"
)

func TestULIDRows(t *testing.T) {
	max := [16]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	tests := []struct {
		text   string
		id     [16]byte
		score  float64
		suffix string
	}{
		{"00000000000000000000000000", [16]byte{}, 0, "00000000000000000000"},
		{"00000000000000000000000001", [16]byte{15: 1}, 0, "00000000000000000001"},
		{"0000000001ZZZZZZZZZZZZZZZZ", [16]byte{5: 1, 6: 0xff, 7: 0xff, 8: 0xff, 9: 0xff, 10: 0xff, 11: 0xff, 12: 0xff, 13: 0xff, 14: 0xff, 15: 0xff}, 1, "ffffffffffffffffffff"},
		{"0000000002" + strings.Repeat("0", 16), [16]byte{5: 2}, 2, "00000000000000000000"},
		{"7ZZZZZZZZZZZZZZZZZZZZZZZZZ", max, 1<<48 - 1, "ffffffffffffffffffff"},
	}
	for _, tt := range tests {
		id, err := ULID.Parse(tt.text)
		if err != nil {
			t.Fatalf("ULID.Parse(%q): %v", tt.text, err)
		}
		score, suffix, err := ULID.Split(id)
		got := []any{id, ULID.Format(id), score, suffix, err}
		want := []any{tt.id, tt.text, tt.score, tt.suffix, nil}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ULID %s (-want +got):\n%s", tt.text, diff)
		}
		checkRoundTrip128(t, ULID, id)
	}
}

func TestULIDSuffixIsEntropy(t *testing.T) {
	u := ulid.MustParseStrict("01AN4Z07BY79KA1307SR9X4MV3")
	_, suffix, err := ULID.Split(u)
	if err != nil {
		t.Fatal(err)
	}
	if want := hex.EncodeToString(u.Entropy()); suffix != want {
		t.Errorf("suffix = %q, want the entropy %q", suffix, want)
	}
	if got, _ := ULID.Parse("01an4z07by79ka1307sr9x4mv3"); got != u {
		t.Errorf("lower-case ULID parsed to %v, want %v", ulid.ULID(got), u)
	}
}

func TestLayout128ParseRefusals(t *testing.T) {
	tests := []struct {
		layout *Layout128
		in     string
		want   error
	}{
		{ULID, "", ErrSyntax},
		{ULID, "01AN4Z07BY79KA1307SR9X4MV", ErrSyntax},
		{ULID, "01AN4Z07BY79KA1307SR9X4MV33", ErrSyntax},
		{ULID, "01AN4Z07BY79KA1307SR9X4MVU", ErrSyntax},
		{ULID, "O1AN4Z07BY79KA1307SR9X4MV3", ErrSyntax},
		{ULID, "01AN4Z07BY79KA1307SR9X4MV-", ErrSyntax},
		{ULID, "81AN4Z07BY79KA1307SR9X4MV3", ErrRange},
		{ULID, "ZZZZZZZZZZZZZZZZZZZZZZZZZZ", ErrRange},
		{UUIDv7, "", ErrSyntax},
		{UUIDv7, "017f22e279b07cc398c4dc0c0c07398f", ErrSyntax},
		{UUIDv7, "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}", ErrSyntax},
		{UUIDv7, "urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f", ErrSyntax},
		{UUIDv7, "017f22e2-79b07-cc3-98c4-dc0c0c07398f", ErrSyntax},
		{UUIDv7, "01-f22e2-79b0-7cc3-98c4-dc0c0c07398f", ErrSyntax},
		{UUIDv7, "017f22e2-79b0-7cc3-98c4-dc0c0c07398g", ErrSyntax},
		{UUIDv7, "017f22e2-79b0-7cc3-98c4+dc0c0c07398f", ErrSyntax},
		{UUIDv7, "f47ac10b-58cc-4372-a567-0e02b2c3d479", ErrVersion},
		{UUIDv7, "017f22e2-79b0-7cc3-18c4-dc0c0c07398f", ErrVersion},
		{UUIDv7, "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f", ErrVersion},
		{UUIDv7, "ffffffff-ffff-ffff-ffff-ffffffffffff", ErrVersion},
	}
	for _, tt := range tests {
		got, err := tt.layout.Parse(tt.in)
		if !errors.Is(err, tt.want) || got != [16]byte{} {
			t.Errorf("%s.Parse(%q) = %x, %v; want %v", tt.layout.Name(), tt.in, got, err, tt.want)
		}
		checkSentinel(t, tt.layout.Name()+".Parse("+tt.in+")", err)
	}
	if _, err := ULID.Parse("81AN4Z07BY79KA1307SR9X4MV3"); !errors.Is(err, ulid.ErrOverflow) {
		t.Errorf("ULID overflow: err = %v, want it to wrap ulid.ErrOverflow too", err)
	}
}

func TestLayout128JoinRefusals(t *testing.T) {
	tests := []struct {
		layout *Layout128
		score  float64
		suffix string
		want   error
	}{
		{ULID, math.NaN(), "00000000000000000000", ErrScore},
		{ULID, -1, "00000000000000000000", ErrScore},
		{ULID, 1.5, "00000000000000000000", ErrScore},
		{ULID, 1 << 48, "00000000000000000000", ErrScore},
		{ULID, 0, "0000000000000000000", ErrSyntax},
		{ULID, 0, "000000000000000000000", ErrSyntax},
		{ULID, 0, "0000000000000000000F", ErrSyntax},
		{ULID, 0, "000000000000000000z0", ErrSyntax},
		{UUIDv7, 0, "4cc398c4dc0c0c07398f", ErrVersion},
		{UUIDv7, 0, "7cc318c4dc0c0c07398f", ErrVersion},
		{UUIDv7, 0, "7CC398C4DC0C0C07398F", ErrSyntax},
	}
	for _, tt := range tests {
		got, err := tt.layout.Join(tt.score, tt.suffix)
		if !errors.Is(err, tt.want) || got != [16]byte{} {
			t.Errorf("%s.Join(%v, %q) = %x, %v; want %v", tt.layout.Name(), tt.score, tt.suffix, got, err, tt.want)
		}
		checkSentinel(t, tt.layout.Name()+".Join", err)
	}
	if _, _, err := UUIDv7.Split([16]byte{}); !errors.Is(err, ErrVersion) {
		t.Errorf("UUIDv7.Split(nil UUID): err = %v, want ErrVersion", err)
	}
	if _, _, err := ULID.Split([16]byte{}); err != nil {
		t.Errorf("ULID.Split(zero): %v", err)
	}
}

func TestLayout128Score(t *testing.T) {
	type res struct {
		Score float64
		Err   bool
	}
	at := func(tm time.Time) res {
		s, err := UUIDv7.Score(tm)
		if err != nil && !errors.Is(err, ErrRange) {
			t.Errorf("Score(%v): err = %v, want ErrRange", tm, err)
		}
		return res{s, err != nil}
	}
	end := time.UnixMilli(1 << 48)
	got := []res{at(time.Unix(0, 0)), at(time.Unix(0, -1)), at(time.Unix(0, 1999999)), at(end.Add(-1)), at(end)}
	want := []res{{0, false}, {0, true}, {1, false}, {1<<48 - 1, false}, {0, true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Score (-want +got):\n%s", diff)
	}
	info := []any{ULID.Name(), UUIDv7.String(), ULID.TimeBits(), ULID.RestBits(), ULID.SuffixLen(), ULID.MaxTime()}
	if diff := cmp.Diff([]any{"ULID", "UUIDv7", 48, 80, 20, uint64(1<<48 - 1)}, info); diff != "" {
		t.Errorf("accessors (-want +got):\n%s", diff)
	}
}
