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

// Window returns the label and bounds [start, end) of the window holding t,
// e.g. "2026-11-22", "2026-W47", "2026-11" or "60000ms-29544480".
func (p Period) Window(t time.Time) (label string, start, end time.Time) {
	t = t.In(p.loc)
	y, m, d := t.Date()
	switch p.kind {
	case 'd':
		start = time.Date(y, m, d, 0, 0, 0, 0, p.loc)
		return start.Format("2006-01-02"), start, start.AddDate(0, 0, 1)
	case 'w':
		start = time.Date(y, m, d-(int(t.Weekday())+6)%7, 0, 0, 0, 0, p.loc)
		wy, wk := t.ISOWeek()
		return fmt.Sprintf("%04d-W%02d", wy, wk), start, start.AddDate(0, 0, 7)
	case 'm':
		start = time.Date(y, m, 1, 0, 0, 0, 0, p.loc)
		return start.Format("2006-01"), start, start.AddDate(0, 1, 0)
	}
	ms := p.every.Milliseconds()
	n := t.UnixMilli() / ms
	if t.UnixMilli() < 0 && t.UnixMilli()%ms != 0 {
		n--
	}
	start = time.UnixMilli(n * ms).In(p.loc)
	return fmt.Sprintf("%dms-%d", ms, n), start, start.Add(p.every)
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
// up to 42 bytes, so name may be at most MaxNameLen-43 bytes.
func NewPeriodic(client rueidis.Client, name string, layout *pack.Layout, period Period, retention time.Duration, opts Options) (*Periodic, error) {
	if err := period.check(); err != nil {
		return nil, err
	}
	if retention < 0 {
		return nil, fmt.Errorf("board: negative retention %v: %w", retention, ErrOptions)
	}
	if len(name) > MaxNameLen-43 {
		return nil, fmt.Errorf("board: name of %d bytes, over %d, leaves no room for a window label: %w", len(name), MaxNameLen-43, ErrName)
	}
	// Validate everything else once, with a representative board.
	if _, err := New(client, name+":x", layout, opts); err != nil {
		return nil, err
	}
	return &Periodic{client: client, name: name, layout: layout, period: period, retention: retention, opts: opts}, nil
}

// At returns the board of the window holding t. Its keys expire Retention
// after the window ends, renewed by every write.
func (p *Periodic) At(t time.Time) *Board {
	label, _, end := p.period.Window(t)
	o := p.opts
	o.expireAt = end.Add(p.retention)
	b, err := New(p.client, p.name+":"+label, p.layout, o)
	if err != nil {
		panic(err) // NewPeriodic validated name, layout and options
	}
	return b
}

// Current returns the board of the window holding time.Now().
func (p *Periodic) Current() *Board { return p.At(time.Now()) }
