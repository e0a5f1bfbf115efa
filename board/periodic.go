package board

import (
	"fmt"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/pack"
)

// Period cuts time into windows, one board each. Build one with Daily,
// Weekly, Monthly or Every.
type Period struct {
	kind  byte // 'd', 'w', 'm' or 'f'
	loc   *time.Location
	every time.Duration
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

func orUTC(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// Window is one window of a Period.
type Window struct {
	// Label names the window: "2026-11-22", "2026-W47", "2026-11" or
	// "60000ms-29544480" (the duration and the window's index since the
	// Unix epoch).
	Label string
	// Start and End bound the window: [Start, End).
	Start, End time.Time
}

// Window returns the window holding t. It refuses (ErrOptions) a Period
// not made by Daily, Weekly, Monthly or a valid Every. Days start at the
// first instant of the calendar day in the period's location, also where
// daylight saving time skips midnight.
func (p Period) Window(t time.Time) (Window, error) {
	if err := p.check(); err != nil {
		return Window{}, err
	}
	t = t.In(p.loc)
	y, m, d := t.Date()
	switch p.kind {
	case 'd':
		return Window{t.Format("2006-01-02"), dayStart(y, m, d, p.loc), dayStart(y, m, d+1, p.loc)}, nil
	case 'w':
		back := (int(t.Weekday()) + 6) % 7 // days since Monday
		wy, wk := t.ISOWeek()
		return Window{fmt.Sprintf("%04d-W%02d", wy, wk), dayStart(y, m, d-back, p.loc), dayStart(y, m, d-back+7, p.loc)}, nil
	case 'm':
		return Window{t.Format("2006-01"), dayStart(y, m, 1, p.loc), dayStart(y, m+1, 1, p.loc)}, nil
	}
	ms := p.every.Milliseconds()
	n := t.UnixMilli() / ms
	if t.UnixMilli()%ms < 0 {
		n-- // floor division for instants before 1970
	}
	start := time.UnixMilli(n * ms).In(p.loc)
	return Window{fmt.Sprintf("%dms-%d", ms, n), start, start.Add(p.every)}, nil
}

// dayStart returns the first instant of the calendar day y-m-d (normalised
// like time.Date) in loc. Where daylight saving time skips midnight,
// time.Date may give an instant of the day before; the day then starts
// where the gap ends.
func dayStart(y int, m time.Month, d int, loc *time.Location) time.Time {
	t := time.Date(y, m, d, 0, 0, 0, 0, loc)
	want := time.Date(y, m, d, 12, 0, 0, 0, loc).Day()
	for i := 0; t.Day() != want && i < 4*26; i++ {
		t = t.Add(15 * time.Minute)
	}
	return t
}

func (p Period) check() error {
	switch p.kind {
	case 'd', 'w', 'm':
		return nil
	case 'f':
		if p.every >= time.Millisecond && p.every%time.Millisecond == 0 {
			return nil
		}
		return fmt.Errorf("board: period %v is not a whole number of milliseconds: %w", p.every, ErrOptions)
	}
	return fmt.Errorf("board: zero Period; use Daily, Weekly, Monthly or Every: %w", ErrOptions)
}

// Periodic is a family of boards, one per window of a Period, named
// "<name>:<window label>". Each window's keys expire Retention after the
// window ends.
type Periodic struct {
	client    rueidis.Client
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
	if _, err := configure(client, name+":x", layout, opts); err != nil {
		return nil, err
	}
	return &Periodic{client: client, name: name, layout: layout, period: period, retention: retention, opts: opts}, nil
}

// At returns the board of the window holding t. Its keys expire Retention
// after the window ends, set again by every write; a write once that moment
// has passed is refused (ErrArgument).
//
// At does not talk to Redis. The window's first write stores its
// descriptor (with the instant its keys expire), so that Open can read the
// window by name; a write to a window whose stored descriptor differs from
// the Periodic's is refused (ErrMismatch).
func (p *Periodic) At(t time.Time) *Board {
	w, _ := p.period.Window(t) // NewPeriodic validated the period
	o := p.opts
	o.expireAt = w.End.Add(p.retention)
	b, err := configure(p.client, p.name+":"+w.Label, p.layout, o)
	if err != nil {
		panic(err) // unreachable: NewPeriodic validated name, layout and options
	}
	return b
}
