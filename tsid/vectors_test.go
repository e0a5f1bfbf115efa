package tsid

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// split64 is everything a 64-bit layout says about one ID.
type split64 struct {
	ID     uint64
	Text   string
	Score  float64
	Suffix string
	Time   time.Time
	Fields map[string]uint64
}

func describe64(t *testing.T, l *Layout, id uint64) split64 {
	t.Helper()
	score, suffix, err := l.Split(id)
	if err != nil {
		t.Fatalf("%s.Split(%d): %v", l.Name(), id, err)
	}
	got := split64{ID: id, Text: l.Format(id), Score: score, Suffix: suffix, Time: l.Time(id), Fields: map[string]uint64{}}
	for _, f := range l.Fields() {
		if got.Fields[f.Name], err = l.Field(id, f.Name); err != nil {
			t.Fatalf("%s.Field(%d, %q): %v", l.Name(), id, f.Name, err)
		}
	}
	return got
}

func TestVectors(t *testing.T) {
	tests := []struct {
		layout *Layout
		text   string
		want   split64
	}{{
		layout: TSID, text: "0123456789ABC",
		want: split64{
			ID: 38390726480144748, Text: "0123456789ABC",
			Score: 9153062458, Suffix: "04a96c", // 305516 = 0x4a96c
			Time:   time.Date(2020, 4, 15, 22, 31, 2, 458e6, time.UTC),
			Fields: map[string]uint64{"node": 74, "counter": 2412}, // 74<<12 + 2412 = 305516
		},
	}, {
		layout: TSID, text: "01226N0640J7Q",
		want: split64{
			ID: 9145327665<<22 | 18679, Text: "01226N0640J7Q",
			Score: 9145327665, Suffix: "0048f7", // 18679 = 0x48f7
			Time:   TSIDEpoch.Add(9145327665 * time.Millisecond),
			Fields: map[string]uint64{"node": 4, "counter": 2295},
		},
	}, {
		layout: Discord, text: "175928847299117063",
		want: split64{
			ID: 175928847299117063, Text: "175928847299117063",
			Score: 1462015105796 - 1420070400000, Suffix: "020007",
			Time:   time.UnixMilli(1462015105796).UTC(),
			Fields: map[string]uint64{"worker": 1, "process": 0, "increment": 7},
		},
	}}
	for _, tt := range tests {
		id, err := tt.layout.Parse(tt.text)
		if err != nil {
			t.Fatalf("%s.Parse(%q): %v", tt.layout.Name(), tt.text, err)
		}
		if diff := cmp.Diff(tt.want, describe64(t, tt.layout, id)); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tt.layout.Name(), tt.text, diff)
		}
		back, err := tt.layout.Join(tt.want.Score, tt.want.Suffix)
		if err != nil || back != tt.want.ID {
			t.Errorf("%s.Join(%v, %q) = %d, %v; want %d", tt.layout.Name(), tt.want.Score, tt.want.Suffix, back, err, tt.want.ID)
		}
	}
}

func TestVectorULID(t *testing.T) {
	const text = "01AN4Z07BY79KA1307SR9X4MV3"
	id, err := ULID.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	score, suffix, err := ULID.Split(id)
	if err != nil {
		t.Fatal(err)
	}
	got := []any{ULID.Format(id), score, ULID.Time(id), len(suffix)}
	want := []any{text, float64(1465824320894), time.UnixMilli(1465824320894).UTC(), 20}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ULID %s (-want +got):\n%s", text, diff)
	}
}

func TestVectorUUIDv7(t *testing.T) {
	// RFC 9562, appendix A.6.
	const text = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"
	id, err := UUIDv7.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	score, suffix, err := UUIDv7.Split(id)
	if err != nil {
		t.Fatal(err)
	}
	got := []any{UUIDv7.Format(id), score, suffix, UUIDv7.Time(id)}
	want := []any{"017f22e2-79b0-7cc3-98c4-dc0c0c07398f", float64(0x017F22E279B0), "7cc398c4dc0c0c07398f",
		time.UnixMilli(1645557742000).UTC()}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("UUIDv7 %s (-want +got):\n%s", text, diff)
	}
}
