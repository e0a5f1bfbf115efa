package board

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Skipf("no tz database: %v", err) // the only skip: a machine without tzdata
	}
	return loc
}

// calendarZones are the zones the calendar tests walk: without daylight
// saving time, with it on either side of UTC, with a 30-minute change,
// and a fixed zone west of UTC.
func calendarZones(t *testing.T) []*time.Location {
	return []*time.Location{
		time.UTC,
		mustZone(t, "Europe/Paris"),
		mustZone(t, "America/Los_Angeles"),
		mustZone(t, "Australia/Lord_Howe"),
		mustZone(t, "Asia/Kolkata"),
		time.FixedZone("UTC-7", -7*3600),
	}
}

// aligned is a calendar period aligned with From, and where its windows
// should start: days after the day, week or month begins, at clock; skips
// is how many of them start after a skip of daylight saving time, by zone.
type aligned struct {
	p     Period
	days  int
	clock time.Duration
	skips map[string]int
}

// wantStart returns the wall-clock date and time (as the same in UTC) the
// window labelled label should start at.
func (a aligned) wantStart(t *testing.T, label string) time.Time {
	t.Helper()
	var first time.Time
	var err error
	switch a.p.kind {
	case 'd':
		first, err = time.Parse("2006-01-02", label)
	case 'm':
		first, err = time.Parse("2006-01", label)
	case 'w':
		var y, w int
		if _, err = fmt.Sscanf(label, "%d-W%d", &y, &w); err == nil {
			jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC) // always in week 1
			first = jan4.AddDate(0, 0, -(int(jan4.Weekday())+6)%7+7*(w-1))
		}
	}
	if err != nil {
		t.Fatalf("label %q: %v", label, err)
	}
	return first.AddDate(0, 0, a.days).Add(a.clock)
}

// For a whole year, every 15 minutes, in every zone: the window of t holds
// t, follows the one before without gap or overlap, keeps one label of its
// own, is the window of its start and of its last instant, and starts at
// the aligned wall-clock time, or, on a day daylight saving time skips
// that time, at the first instant after the skip; where the clock shows
// that time twice, at the first.
func TestCalendarFromYear(t *testing.T) {
	for _, loc := range calendarZones(t) {
		at := func(y int, m time.Month, d, h, mi int) time.Time { return time.Date(y, m, d, h, mi, 0, 0, loc) }
		for _, a := range []aligned{
			{Daily(loc), 0, 0, nil},
			{Daily(loc).From(at(2026, 1, 1, 0, 0)), 0, 0, nil},
			{Daily(loc).From(at(2026, 1, 7, 2, 15)), 0, 2*time.Hour + 15*time.Minute, map[string]int{"Europe/Paris": 1, "America/Los_Angeles": 1, "Australia/Lord_Howe": 1}},
			{Daily(loc).From(at(2026, 1, 7, 1, 45)), 0, time.Hour + 45*time.Minute, nil},
			{Daily(loc).From(at(2026, 1, 7, 23, 45)), 0, 23*time.Hour + 45*time.Minute, nil},
			{Weekly(loc).From(at(2026, 11, 16, 9, 0)), 0, 9 * time.Hour, nil},
			// Sunday 02:30: clocks change on Sundays in Europe, the US and
			// Australia, at 02:00 (Lord Howe skips to 02:30 only).
			{Weekly(loc).From(at(2026, 1, 4, 2, 30)), 6, 2*time.Hour + 30*time.Minute, map[string]int{"Europe/Paris": 1, "America/Los_Angeles": 1}},
			{Monthly(loc).From(at(2026, 1, 1, 6, 0)), 0, 6 * time.Hour, nil},
			{Monthly(loc).From(at(2026, 2, 28, 23, 59)), 27, 23*time.Hour + 59*time.Minute, nil},
		} {
			t.Run(fmt.Sprintf("%s/%c%d+%v", loc, a.p.kind, a.days, a.clock), func(t *testing.T) {
				if n := walkYear(t, loc, 2026, a); n != a.skips[loc.String()] {
					t.Errorf("%d windows start after a skip, want %d", n, a.skips[loc.String()])
				}
			})
		}
	}
}

// walkYear checks a's windows over year, every 15 minutes, and returns how
// many start after a skip of daylight saving time.
func walkYear(t *testing.T, loc *time.Location, year int, a aligned) int {
	t.Helper()
	labels := map[string]Window{}
	var prev Window
	skips := 0
	from, to := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(year+1, 1, 1, 0, 0, 0, 0, time.UTC)
	for at := from; at.Before(to); at = at.Add(15 * time.Minute) {
		w, err := a.p.Window(at)
		if err != nil {
			t.Fatal(err)
		}
		if at.Before(w.Start) || !at.Before(w.End) {
			t.Fatalf("Window(%v) = %+v does not hold it", at, w)
		}
		if w == prev {
			continue
		}
		if prev.Label != "" && prev.End != w.Start {
			t.Fatalf("window %+v follows %+v", w, prev)
		}
		if other, ok := labels[w.Label]; ok {
			t.Fatalf("label %s names %+v and %+v", w.Label, other, w)
		}
		labels[w.Label] = w
		if got, _ := a.p.Window(w.Start); got != w {
			t.Fatalf("Window(Start of %+v) = %+v", w, got)
		}
		if got, _ := a.p.Window(w.End.Add(-time.Nanosecond)); got != w {
			t.Fatalf("Window(End-1ns of %+v) = %+v", w, got)
		}
		if got, _ := a.p.Window(w.End); got.Start != w.End {
			t.Fatalf("Window(End of %+v) = %+v", w, got)
		}
		if w.Start.Location() != loc {
			t.Fatalf("window %+v is not in %s", w, loc)
		}
		want := a.wantStart(t, w.Label)
		switch got := wallOf(w.Start); {
		case got.Equal(want):
			for back := 15 * time.Minute; back <= 3*time.Hour; back += 15 * time.Minute {
				if wallOf(w.Start.Add(-back)).Equal(want) {
					t.Fatalf("window %+v starts at the second showing of %v", w, want)
				}
			}
		case got.After(want) && wallOf(w.Start.Add(-time.Nanosecond)).Before(want):
			skips++ // the first instant after a skip of daylight saving time
			if _, o1 := w.Start.Zone(); o1 == func() int { _, o := w.Start.Add(-time.Nanosecond).Zone(); return o }() {
				t.Fatalf("window %+v starts after %v with no change of zone", w, want)
			}
		default:
			t.Fatalf("window %+v starts at %v, want %v", w, got, want)
		}
		prev = w
	}
	if n := len(labels); n < 12 {
		t.Fatalf("only %d windows", n)
	}
	return skips
}

// Samoa skipped 30 December 2011: the day's window, aligned on noon,
// starts where the skip ends, on the 31st, and keeps its label; unaligned,
// the day has no window, and the 29th's ends where the 31st's starts.
func TestCalendarSkippedDay(t *testing.T) {
	apia := mustZone(t, "Pacific/Apia")
	noon := Daily(apia).From(time.Date(2011, 1, 1, 12, 0, 0, 0, apia))
	if n := walkYear(t, apia, 2011, aligned{noon, 0, 12 * time.Hour, nil}); n != 1 {
		t.Errorf("%d windows start after a skip, want 1", n)
	}
	if n := walkYear(t, apia, 2011, aligned{Daily(apia), 0, 0, nil}); n != 0 {
		t.Errorf("%d windows start after a skip, want 0", n)
	}
	at := time.Date(2011, 12, 31, 6, 0, 0, 0, apia)
	want := Window{"2011-12-30", time.Date(2011, 12, 31, 0, 0, 0, 0, apia), time.Date(2011, 12, 31, 12, 0, 0, 0, apia)}
	if w, err := noon.Window(at); err != nil || w != want {
		t.Errorf("Window(%v) = %+v, %v; want %+v", at, w, err, want)
	}
	before, _ := Daily(apia).Window(at.Add(-7 * time.Hour))
	if before.Label != "2011-12-29" || before.End != want.Start {
		t.Errorf("Daily: the window before the 31st is %+v", before)
	}
}

// Some windows of 2026, by hand.
func TestCalendarFromKnown(t *testing.T) {
	paris, la, howe := mustZone(t, "Europe/Paris"), mustZone(t, "America/Los_Angeles"), mustZone(t, "Australia/Lord_Howe")
	utc := func(y int, m time.Month, d, h, mi int) time.Time { return time.Date(y, m, d, h, mi, 0, 0, time.UTC) }
	fixed := time.FixedZone("UTC-7", -7*3600)
	for _, c := range []struct {
		p          Period
		at         time.Time
		label      string
		start, end time.Time
	}{
		// Monday 09:00 in Paris, on both sides of the change of 29 March.
		{Weekly(paris).From(time.Date(2026, 11, 16, 9, 0, 0, 0, paris)), utc(2026, 3, 25, 12, 0), "2026-W13", utc(2026, 3, 23, 8, 0), utc(2026, 3, 30, 7, 0)},
		{Weekly(paris).From(time.Date(2026, 11, 16, 9, 0, 0, 0, paris)), utc(2026, 3, 23, 7, 59), "2026-W12", utc(2026, 3, 16, 8, 0), utc(2026, 3, 23, 8, 0)},
		{Weekly(time.UTC).From(utc(2026, 1, 5, 9, 0)), utc(2026, 11, 22, 23, 0), "2026-W47", utc(2026, 11, 16, 9, 0), utc(2026, 11, 23, 9, 0)},
		// Every day at 00:00 in UTC-7.
		{Daily(fixed).From(time.Date(2026, 1, 1, 0, 0, 0, 0, fixed)), utc(2026, 11, 22, 6, 0), "2026-11-21", utc(2026, 11, 21, 7, 0), utc(2026, 11, 22, 7, 0)},
		// The 1st at 06:00 in Paris.
		{Monthly(paris).From(time.Date(2026, 1, 1, 6, 0, 0, 0, paris)), utc(2026, 11, 1, 4, 59), "2026-10", utc(2026, 10, 1, 4, 0), utc(2026, 11, 1, 5, 0)},
		// 02:30 in Los Angeles: on 8 March, 02:00 jumps to 03:00.
		{Daily(la).From(time.Date(2026, 1, 1, 2, 30, 0, 0, la)), utc(2026, 3, 8, 12, 0), "2026-03-08", utc(2026, 3, 8, 10, 0), utc(2026, 3, 9, 9, 30)},
		// 01:30 in Los Angeles: on 1 November, shown at 08:30Z and 09:30Z.
		{Daily(la).From(time.Date(2026, 1, 1, 1, 30, 0, 0, la)), utc(2026, 11, 1, 9, 0), "2026-11-01", utc(2026, 11, 1, 8, 30), utc(2026, 11, 2, 9, 30)},
		// Lord Howe: 02:00 jumps to 02:30 on 4 October; 02:00 goes back
		// to 01:30 on 5 April.
		{Daily(howe).From(time.Date(2026, 1, 1, 2, 15, 0, 0, howe)), utc(2026, 10, 3, 15, 29), "2026-10-03", utc(2026, 10, 2, 15, 45), utc(2026, 10, 3, 15, 30)},
		{Daily(howe).From(time.Date(2026, 1, 1, 2, 15, 0, 0, howe)), utc(2026, 10, 3, 15, 30), "2026-10-04", utc(2026, 10, 3, 15, 30), utc(2026, 10, 4, 15, 15)},
		{Daily(howe).From(time.Date(2026, 1, 1, 1, 45, 0, 0, howe)), utc(2026, 4, 4, 15, 0), "2026-04-05", utc(2026, 4, 4, 14, 45), utc(2026, 4, 5, 15, 15)},
		// Every 36 hours from 2026-01-01T10:00Z.
		{Every(36 * time.Hour).From(utc(2026, 1, 1, 10, 0)), utc(2026, 1, 1, 10, 0), "129600000ms+36000000-13636", utc(2026, 1, 1, 10, 0), utc(2026, 1, 2, 22, 0)},
		{Every(36 * time.Hour).From(utc(2026, 1, 1, 10, 0)), utc(2026, 1, 1, 9, 59), "129600000ms+36000000-13635", utc(2025, 12, 30, 22, 0), utc(2026, 1, 1, 10, 0)},
		{Every(36 * time.Hour).From(utc(2026, 1, 7, 10, 0)), utc(2026, 1, 1, 10, 0), "129600000ms+36000000-13636", utc(2026, 1, 1, 10, 0), utc(2026, 1, 2, 22, 0)},
		{Every(time.Hour).From(utc(2026, 1, 1, 10, 0)), utc(2026, 1, 1, 0, 30), "3600000ms-490896", utc(2026, 1, 1, 0, 0), utc(2026, 1, 1, 1, 0)},
		{Every(time.Hour).From(time.UnixMilli(-1)), time.UnixMilli(0), "3600000ms+3599999--1", time.UnixMilli(-1), time.UnixMilli(3599999)},
		{Every(time.Hour).From(time.UnixMilli(-1)), time.UnixMilli(-2), "3600000ms+3599999--2", time.UnixMilli(-3600001), time.UnixMilli(-1)},
		// Aligned on midnight, the 1st, Monday: the periods themselves.
		{Monthly(paris).From(time.Date(2026, 5, 1, 0, 0, 0, 0, paris)), utc(2026, 3, 31, 22, 30), "2026-04", utc(2026, 3, 31, 22, 0), utc(2026, 4, 30, 22, 0)},
	} {
		w, err := c.p.Window(c.at)
		want := Window{c.label, c.start.In(c.p.loc), c.end.In(c.p.loc)}
		if err != nil || w != want {
			t.Errorf("%+v.Window(%v) = %+v, %v; want %+v", c.p, c.at, w, err, want)
		}
	}
	if a, b := Weekly(paris).From(time.Date(2026, 11, 16, 0, 0, 0, 0, paris)), Weekly(paris); a != b {
		t.Errorf("Weekly from a Monday's midnight = %+v, want Weekly itself %+v", a, b)
	}
}

// For a whole year, every 15 minutes: windows of Every aligned with From
// start at the origin plus a whole number of periods, hold t, follow one
// another, and have labels of their own, none of them Every's own.
func TestCalendarEveryFromYear(t *testing.T) {
	origin := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	for _, d := range []time.Duration{36 * time.Hour, 25 * time.Minute, 1000001 * time.Millisecond} {
		p := Every(d).From(origin)
		plain := map[string]bool{}
		labels := map[string]bool{}
		var prev Window
		for at := origin.AddDate(0, -6, 0); at.Before(origin.AddDate(0, 6, 0)); at = at.Add(15 * time.Minute) {
			w, err := p.Window(at)
			if err != nil {
				t.Fatal(err)
			}
			if at.Before(w.Start) || !at.Before(w.End) || w.End.Sub(w.Start) != d || w.Start.Sub(origin)%d != 0 {
				t.Fatalf("every %v from %v: Window(%v) = %+v", d, origin, at, w)
			}
			if w == prev {
				continue
			}
			if prev.Label != "" && prev.End != w.Start || labels[w.Label] || !strings.Contains(w.Label, "ms+") {
				t.Fatalf("every %v: window %+v after %+v", d, w, prev)
			}
			if got, _ := p.Window(w.Start); got != w {
				t.Fatalf("Window(Start of %+v) = %+v", w, got)
			}
			labels[w.Label] = true
			e, _ := Every(d).Window(at)
			plain[e.Label] = true
			prev = w
		}
		for l := range labels {
			if plain[l] {
				t.Errorf("every %v: label %s names a window of Every too", d, l)
			}
		}
	}
}

// From refuses a monthly day after the 28th and an Every origin that is
// not a whole millisecond: Window and NewPeriodic say ErrOptions.
func TestCalendarFromRefused(t *testing.T) {
	for _, p := range []Period{
		Monthly(nil).From(time.Date(2026, 1, 29, 0, 0, 0, 0, time.UTC)),
		Monthly(nil).From(time.Date(2026, 1, 31, 6, 0, 0, 0, time.UTC)),
		Every(time.Hour).From(time.Date(2026, 1, 1, 0, 0, 0, 1, time.UTC)),
		Every(time.Microsecond).From(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		Period{}.From(time.Now()),
	} {
		if _, err := p.Window(time.Now()); !errors.Is(err, ErrOptions) {
			t.Errorf("%+v.Window: err = %v, want ErrOptions", p, err)
		}
		if _, err := NewPeriodic(nil, "x", testLayout(t), p, time.Hour, Options{}); !errors.Is(err, ErrOptions) {
			t.Errorf("NewPeriodic(%+v): err = %v, want ErrOptions", p, err)
		}
	}
	// From again replaces a refused alignment.
	if _, err := Monthly(nil).From(time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)).From(time.Date(2026, 1, 28, 0, 0, 0, 0, time.UTC)).Window(time.Now()); err != nil {
		t.Errorf("Monthly from the 28th: %v", err)
	}
}

// A periodic board of windows aligned with From: the current window is
// written and read under its label, listed, and archived once it ends.
func TestCalendarPeriodicArchive(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	period := Every(250 * time.Millisecond).From(time.UnixMilli(7))
	p, err := NewPeriodic(env.Client, env.Prefix+"aligned", testLayout(t), period, time.Minute, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := period.Window(time.Now())
	if !strings.Contains(w.Label, "250ms+7-") || w.Start.UnixMilli()%250 != 7 {
		t.Fatalf("window %+v", w)
	}
	b := p.At(w.Start)
	if b.Name() != env.Prefix+"aligned:"+w.Label {
		t.Errorf("At(%v).Name() = %s", w.Start, b.Name())
	}
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{3, 1, 2}})
	e, err := p.At(w.End.Add(-time.Millisecond)).Get(ctx, "a")
	if err != nil || e.Rank != 1 || !cmp.Equal(e.Values, []float64{3, 1, 2}) {
		t.Errorf("Get = %+v, %v", e, err)
	}
	if ws, err := p.Windows(ctx); err != nil || len(ws) == 0 || ws[len(ws)-1] != w {
		t.Errorf("Windows = %+v, %v; want %+v among them", ws, err, w)
	}
	time.Sleep(time.Until(w.End) + 5*time.Millisecond)
	a, err := p.Archive(ctx, w, ArchiveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Name() != b.Name()+":final" {
		t.Errorf("archive name %s", a.Name())
	}
	if n, err := a.Len(ctx); err != nil || n != 1 {
		t.Errorf("archive Len = %d, %v; want 1", n, err)
	}
	if got, err := p.Archived(ctx, w); err != nil || got.Name() != a.Name() {
		t.Errorf("Archived = %v, %v", got, err)
	}
}
