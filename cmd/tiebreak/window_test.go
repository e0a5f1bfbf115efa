package main

import (
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/board"
)

// windowOf finds the window of a label for every period form, shifted by
// --from or not: the window Period.Window gives for an instant inside it.
func TestWindowOfLabels(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	mondayNine := time.Date(2026, 11, 16, 9, 0, 0, 0, paris)
	sundayLate := time.Date(2026, 11, 22, 23, 0, 0, 0, paris)
	origin := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		p    board.Period
		loc  *time.Location
		from *time.Time
	}{
		{board.Daily(paris), paris, nil},
		{board.Daily(paris).From(mondayNine), paris, &mondayNine},
		{board.Weekly(paris), paris, nil},
		{board.Weekly(paris).From(mondayNine), paris, &mondayNine},
		{board.Weekly(paris).From(sundayLate), paris, &sundayLate},
		{board.Monthly(paris).From(mondayNine), paris, &mondayNine},
		{board.Every(time.Minute), time.UTC, nil},
		{board.Every(36 * time.Hour).From(origin), time.UTC, nil},
	} {
		for at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC); at.Before(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)); at = at.Add(61 * time.Hour) {
			want, err := c.p.Window(at)
			if err != nil {
				t.Fatal(err)
			}
			_, got, err := windowOf(want.Label, c.loc, c.from)
			if err != nil || got != want {
				t.Fatalf("windowOf(%s) = %v, %v; want %v", want.Label, got, err, want)
			}
		}
	}
}
