package windowspan

import (
	"testing"
	"time"
)

func TestTextOfAStoredSpan(t *testing.T) {
	ny := time.FixedZone("UTC-5", -5*3600)
	start := time.Date(2026, 11, 23, 0, 0, 0, 0, ny)
	s := Of(start, start.AddDate(0, 0, 1))
	if s != "1795410000000-1795496400000" {
		t.Errorf("Of = %q", s)
	}
	for stored, want := range map[string]string{
		s: "[2026-11-23T05:00:00Z, 2026-11-24T05:00:00Z)",
		// Spans apart by less than a second read apart too.
		"1795410000500-1795496400500": "[2026-11-23T05:00:00.5Z, 2026-11-24T05:00:00.5Z)",
		"x-1":                         `"x-1"`,
		"1795410":                     `"1795410"`,
		"":                            `""`,
	} {
		if got := Text(stored); got != want {
			t.Errorf("Text(%q) = %s, want %s", stored, got, want)
		}
	}
}
