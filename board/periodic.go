package board

import (
	"fmt"
	"slices"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/windowspan"
	"github.com/tiebreak/tiebreak/pack"
)

// Period cuts time into windows, one board each. Build one with Daily,
// Weekly, Monthly or Every, and align its windows elsewhere with From.
type Period struct {
	kind  byte // 'd', 'w', 'm' or 'f'
	loc   *time.Location
	every time.Duration
	// From's alignment. Daily, Weekly, Monthly: a window starts days
	// calendar days after the day, week or month begins, at the wall-clock
	// time of day clock. Every: at origin (Unix milliseconds) + k*every.
	days   int
	clock  time.Duration
	origin int64
	bad    string // why From refused its instant
}

// Daily is a period of calendar days in loc (UTC when nil).
func Daily(loc *time.Location) Period { return Period{kind: 'd', loc: orUTC(loc)} }

// Weekly is a period of ISO weeks (Monday to Sunday) in loc (UTC when nil).
func Weekly(loc *time.Location) Period { return Period{kind: 'w', loc: orUTC(loc)} }

// Monthly is a period of calendar months in loc (UTC when nil).
func Monthly(loc *time.Location) Period { return Period{kind: 'm', loc: orUTC(loc)} }

// Every is a period of fixed duration d counted from the Unix epoch; d must
// be a whole number of milliseconds, at least one.
func Every(d time.Duration) Period { return Period{kind: 'f', loc: time.UTC, every: d} }

// From returns the period with its windows aligned on t instead of on
// midnight, Monday, the 1st or the Unix epoch. From replaces an alignment
// made before.
//
// Daily, Weekly and Monthly take t's place in its day, week or month as
// the period's location shows it: every window starts at t's wall-clock
// time of day, on every day (Daily), on t's weekday (Weekly) or on t's day
// of the month (Monthly, which refuses a day after the 28th). The time is
// wall-clock time in the location, not a duration after midnight: a week
// aligned on a Monday 09:00 in Europe/Paris starts at 09:00 on both sides
// of a change of daylight saving time. On a day where daylight saving
// time skips that wall-clock time, the window starts at the first instant
// after the skip (a window of 02:30 starts at 03:00 where 02:00 jumps to
// 03:00); on a day where it shows that time twice, at the first of the
// two. A window keeps the label of the day, week or month it starts in:
// "2026-W47" for the week that starts on Monday 16 November 2026 at 09:00,
// "2026-11-22", "2026-11" (even where a skip pushes the start past the
// end of that day).
//
// Every makes the windows start at t + k*d for every integer k; t must be
// a whole number of milliseconds from the Unix epoch. A window is labelled
// "<d>ms+<phase>-<index>": phase, in milliseconds, is how far the windows
// start after those of Every(d), from 1 to d-1 ms, and the window starts
// at the Unix epoch + phase + index*d ("129600000ms+36000000-13636" for
// the 36 hours from 2026-01-01T10:00Z). Such a label never names a window
// of Every(d), whose labels have no "+"; two instants t a whole number of
// d apart align the same windows, with the same labels, and an instant
// that is one of Every(d)'s starts gives Every(d)'s own windows and
// labels.
//
// What From refuses, Window and NewPeriodic refuse (ErrOptions).
func (p Period) From(t time.Time) Period {
	p.days, p.clock, p.origin, p.bad = 0, 0, 0, ""
	switch p.kind {
	case 'd', 'w', 'm':
		t = t.In(p.loc)
		h, mi, s := t.Clock()
		p.clock = time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(s)*time.Second + time.Duration(t.Nanosecond())
		switch p.kind {
		case 'w':
			p.days = (int(t.Weekday()) + 6) % 7 // days since Monday
		case 'm':
			p.days = t.Day() - 1
			if t.Day() > 28 {
				p.bad = fmt.Sprintf("monthly period from %v: day %d is not in every month; want the 28th at the latest", t, t.Day())
			}
		}
	case 'f':
		p.origin = t.UnixMilli()
		if t.Nanosecond()%int(time.Millisecond) != 0 {
			p.bad = fmt.Sprintf("period every %v from %v: not a whole number of milliseconds after the Unix epoch", p.every, t)
		}
	}
	return p
}

func orUTC(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// Window is one window of a Period.
type Window struct {
	// Label names the window: "2026-11-22", "2026-W47", "2026-11",
	// "60000ms-29544480" (the duration and the window's index since the
	// Unix epoch) or, for Every aligned with From,
	// "129600000ms+36000000-13636" (the duration, the windows' phase and
	// the index).
	Label string
	// Start and End bound the window: [Start, End).
	Start, End time.Time
}

// Window returns the window holding t. It refuses (ErrOptions) a Period
// not made by Daily, Weekly, Monthly or a valid Every, and one whose From
// was refused. Days start at the first instant of the calendar day in the
// period's location, also where daylight saving time skips midnight (see
// From for the windows it aligns).
func (p Period) Window(t time.Time) (Window, error) {
	if err := p.check(); err != nil {
		return Window{}, err
	}
	if p.kind == 'f' {
		ms := p.every.Milliseconds()
		phase := (p.origin%ms + ms) % ms
		x := t.UnixMilli() - phase
		n := x / ms
		if x%ms < 0 {
			n-- // floor division for instants before the first start after 1970
		}
		start := time.UnixMilli(n*ms + phase).In(p.loc)
		label := fmt.Sprintf("%dms-%d", ms, n)
		if phase != 0 {
			label = fmt.Sprintf("%dms+%d-%d", ms, phase, n)
		}
		return Window{label, start, start.Add(p.every)}, nil
	}
	y, m, d := t.In(p.loc).Date()
	a := time.Date(y, m, d, 0, 0, 0, 0, time.UTC) // the anchor: the calendar day, week or month, as its first date
	switch p.kind {
	case 'w':
		a = a.AddDate(0, 0, -(int(a.Weekday())+6)%7)
	case 'm':
		a = a.AddDate(0, 0, 1-d)
	}
	start := p.start(a)
	for t.Before(start) { // t is in its day, week or month before the window of it starts
		a = p.next(a, -1)
		start = p.start(a)
	}
	end := p.start(p.next(a, 1))
	for !t.Before(end) { // only where a skip of daylight saving time crosses midnight
		a, start = p.next(a, 1), end
		end = p.start(p.next(a, 1))
	}
	var label string
	switch p.kind {
	case 'd':
		label = a.Format("2006-01-02")
	case 'w':
		wy, wk := a.ISOWeek()
		label = fmt.Sprintf("%04d-W%02d", wy, wk)
	default:
		label = a.Format("2006-01")
	}
	return Window{label, start, end}, nil
}

// next returns the anchor k days, weeks or months after a.
func (p Period) next(a time.Time, k int) time.Time {
	switch p.kind {
	case 'd':
		return a.AddDate(0, 0, k)
	case 'w':
		return a.AddDate(0, 0, 7*k)
	}
	return a.AddDate(0, k, 0) // a is the 1st
}

// start returns the start of the window of anchor a.
func (p Period) start(a time.Time) time.Time {
	return wallTime(a.Year(), a.Month(), a.Day()+p.days, p.clock, p.loc)
}

// wallTime returns the instant loc's wall clock shows clock (less than a
// day) on y-m-d (normalised like time.Date). Where daylight saving time
// skips that wall-clock time, it is the first instant after the skip;
// where the clock shows it twice, the first of the two. (time.Date leaves
// both cases unspecified.)
func wallTime(y int, m time.Month, d int, clock time.Duration, loc *time.Location) time.Time {
	want := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Add(clock)
	t := time.Date(want.Year(), want.Month(), want.Day(), want.Hour(), want.Minute(), want.Second(), want.Nanosecond(), loc)
	zoneStart, zoneEnd := t.ZoneBounds()
	switch w := wallOf(t); {
	case w.After(want): // in a skip, and time.Date answered after it
		return zoneStart
	case w.Before(want): // in a skip, and time.Date answered before it
		return zoneEnd
	}
	if zoneStart.IsZero() {
		return t
	}
	_, before := zoneStart.Add(-time.Nanosecond).Zone()
	_, now := t.Zone()
	if before > now { // the clock went back at zoneStart: the first showing may be before it
		if first := t.Add(-time.Duration(before-now) * time.Second); first.Before(zoneStart) && wallOf(first).Equal(want) {
			return first
		}
	}
	return t
}

// wallOf returns t's wall-clock date and time, as the same in UTC.
func wallOf(t time.Time) time.Time {
	y, m, d := t.Date()
	h, mi, s := t.Clock()
	return time.Date(y, m, d, h, mi, s, t.Nanosecond(), time.UTC)
}

// text describes p, the same for two periods that make the same windows
// with the same labels: "weekly in UTC", "weekly in Europe/Paris from
// Monday 09:00:00", "monthly in UTC from day 3 00:00:00", "every
// 3600000ms" or "every 129600000ms+36000000" (the windows' phase). A
// league stores it, and refuses a handle whose period differs.
func (p Period) text() string {
	if p.kind == 'f' {
		ms := p.every.Milliseconds()
		if ms == 0 {
			return "every " + p.every.String()
		}
		if phase := (p.origin%ms + ms) % ms; phase != 0 {
			return fmt.Sprintf("every %dms+%d", ms, phase)
		}
		return fmt.Sprintf("every %dms", ms)
	}
	name := map[byte]string{'d': "daily", 'w': "weekly", 'm': "monthly"}[p.kind]
	if name == "" {
		return "no period"
	}
	s := name + " in " + orUTC(p.loc).String()
	if p.days == 0 && p.clock == 0 {
		return s
	}
	c := time.Time{}.Add(p.clock).Format("15:04:05.999999999")
	switch p.kind {
	case 'w':
		return fmt.Sprintf("%s from %v %s", s, time.Weekday((p.days+1)%7), c)
	case 'm':
		return fmt.Sprintf("%s from day %d %s", s, p.days+1, c)
	}
	return s + " from " + c
}

func (p Period) check() error {
	switch p.kind {
	case 'd', 'w', 'm':
	case 'f':
		if p.every < time.Millisecond || p.every%time.Millisecond != 0 {
			return fmt.Errorf("board: period %v is not a whole number of milliseconds: %w", p.every, ErrOptions)
		}
	default:
		return fmt.Errorf("board: zero Period; use Daily, Weekly, Monthly or Every: %w", ErrOptions)
	}
	if p.bad != "" {
		return fmt.Errorf("board: %s: %w", p.bad, ErrOptions)
	}
	return nil
}

// Periodic is a family of boards, one per window of a Period, named
// "<name>:<window label>". Each window's keys expire Retention after the
// window ends.
type Periodic struct {
	conn      rdb.Conn
	name      string
	layout    *pack.Layout
	period    Period
	retention time.Duration
	opts      Options
}

// NewPeriodic builds a periodic board. It refuses what New refuses, an
// invalid period, and a negative retention (ErrOptions). A window label takes
// up to 42 bytes and an archive's name adds ":final", so name may be at most
// 200-49 bytes.
func NewPeriodic(client rueidis.Client, name string, layout *pack.Layout, period Period, retention time.Duration, opts Options) (*Periodic, error) {
	if err := period.check(); err != nil {
		return nil, err
	}
	if retention < 0 {
		return nil, fmt.Errorf("board: negative retention %v: %w", retention, ErrOptions)
	}
	if opts.Shards != 0 || opts.SkipWriteRank {
		return nil, fmt.Errorf("board: NewPeriodic: Options.Shards = %d: a periodic board's windows are not sharded: %w", opts.Shards, ErrOptions)
	}
	if len(name) > maxNameLen-49 {
		return nil, fmt.Errorf("board: name of %d bytes, over %d, leaves no room for a window label: %w", len(name), maxNameLen-49, errName)
	}
	// Validate everything else once, with a representative board.
	conn := rdb.New(client)
	if _, err := configure(conn, name+":x", layout, opts); err != nil {
		return nil, err
	}
	opts.Bounds = slices.Clone(opts.Bounds) // the caller may change its slice
	return &Periodic{conn: conn, name: name, layout: layout, period: period, retention: retention, opts: opts}, nil
}

// At returns the board of the window holding t. Its keys expire Retention
// after the window ends, set again by every write; a write once that moment
// has passed is refused (ErrArgument).
//
// At does not talk to Redis. The window's first write stores its
// descriptor (with the instant its keys expire, and its span: its start
// and end), so that Open can read the window by name; a write to a window
// whose stored descriptor differs from the Periodic's is refused
// (ErrMismatch), and so are a write (Submit, SubmitMany, Update, a group's
// Submit, Join), a Clear and a Migrate of a window stored with another
// span: a Periodic of the same name whose period (another zone or
// alignment) gives the label to other times. Remove, SetData, Hide and
// Show do not check the span, and Drop removes the window whatever the
// handle's settings.
// Its reads do not check the stored descriptor: through a Periodic built
// with other settings than the one that wrote a window, they decode the
// entries with the wrong layout. Build every Periodic of one name with the
// same settings (as New refuses other settings with ErrMismatch), or read
// a window through Open.
func (p *Periodic) At(t time.Time) *Board {
	if p.unmade() != nil {
		return &Board{} // every call refused (ErrArgument)
	}
	w, _ := p.period.Window(t) // NewPeriodic validated the period
	o := p.opts
	o.expireAt, o.span = w.End.Add(p.retention), w.span()
	if o.Rules.set() {
		o.round = w
	}
	b, err := configure(p.conn, p.name+":"+w.Label, p.layout, o)
	if err != nil {
		panic(err) // unreachable: NewPeriodic validated name, layout and options
	}
	return b
}

// span is how a window's board stores its span (windowspan.Of).
func (w Window) span() string { return windowspan.Of(w.Start, w.End) }
