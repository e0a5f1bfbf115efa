package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/windowspan"
)

// archiveCommand is board archive: Periodic.Archive of one ended window.
// A periodic board stores neither its period nor its retention; the
// window's label tells the period (2026-11-22 daily, 2026-W47 weekly,
// 2026-11 monthly, 60000ms-29544480 every 60000 ms, 60000ms+7-29544480
// every 60000 ms from a chosen origin), --tz its location and --from where
// its windows start (Period.From), as the program that writes the board
// gives them.
func archiveCommand() *command {
	return &command{name: "board archive", nonEmpty: true, args: []string{"NAME"},
		help:   "keep an ended window's final standings in NAME:LABEL:final (Periodic.Archive), as the periodic board's archive would",
		writes: "creates the archive board NAME:LABEL:final, a copy of the window's entries",
		setup: func(fs *flag.FlagSet) runFunc {
			var a archiveArgs
			fs.StringVar(&a.label, "window", "", "the window's `label`, required: 2026-11-22 (daily), 2026-W47 (weekly), 2026-11 (monthly), 60000ms-29544480 (Every)")
			fs.StringVar(&a.tz, "tz", "", "the period's time `zone` (UTC, America/New_York...), required for daily, weekly and monthly windows: a window stores its span, which the archive checks, but not the zone that names it")
			fs.StringVar(&a.from, "from", "", "where the period's windows start, as Period.From takes it (RFC 3339: 2026-11-16T09:00:00+01:00 for Mondays at 09:00 in Paris); default: the calendar's own boundaries")
			fs.Int64Var(&a.top, "top", 0, "keep only the best `n` entries (0: every entry)")
			fs.DurationVar(&a.retention, "retention", 0, "keep the archive this long after the window's end (0: forever)")
			a.show = shownFlag(fs, "copied")
			return func(ctx context.Context, e *env, x []string) error { a.name = x[0]; return boardArchive(ctx, e, a) }
		}}
}

// archiveArgs are board archive's arguments.
type archiveArgs struct {
	name, label, tz, from string
	top                   int64
	retention             time.Duration
	show                  *int // how many of the entries copied to list
}

// windowOf returns the period and window that label names, in loc, its
// windows starting from from (Period.From) when not nil.
func windowOf(label string, loc *time.Location, from *time.Time) (board.Period, board.Window, error) {
	p, at, err := periodOf(label, loc)
	if err != nil {
		return p, board.Window{}, err
	}
	if from != nil {
		p = p.From(*from)
	}
	// A window is labelled by the day, week or month it starts in, which
	// from moves within it: look from the unshifted window's start, a
	// quarter of an hour at a time, for the window of that label.
	w, err := p.Window(at)
	for end := at.AddDate(0, 1, 1); err == nil && w.Label != label && at.Before(end); {
		at = at.Add(15 * time.Minute)
		w, err = p.Window(at)
	}
	if err == nil && w.Label != label {
		err = usagef("--window %q is no window label of this period (the window there is %s)", label, w.Label)
	}
	return p, w, err
}

// periodOf returns the period that label's form names, in loc, and an
// instant at or before the start of the window of that label.
func periodOf(label string, loc *time.Location) (board.Period, time.Time, error) {
	switch {
	case strings.Contains(label, "ms"):
		return everyOf(label)
	case strings.Contains(label, "-W"):
		y, w, _ := strings.Cut(label, "-W")
		yy, err1 := strconv.Atoi(y)
		ww, err2 := strconv.Atoi(w)
		if err1 != nil || err2 != nil {
			return board.Period{}, time.Time{}, usagef("--window %q: want YYYY-Www", label)
		}
		// January 4th is in week 1; the week's Monday is at most 6 days
		// before it.
		monday := time.Date(yy, 1, 4+7*(ww-1), 0, 0, 0, 0, loc)
		monday = monday.AddDate(0, 0, -((int(monday.Weekday()) + 6) % 7))
		return board.Weekly(loc), monday, nil
	case len(label) == len("2006-01"):
		t, err := time.ParseInLocation("2006-01", label, loc)
		if err != nil {
			return board.Period{}, time.Time{}, usagef("--window %q: %v", label, err)
		}
		return board.Monthly(loc), t, nil
	}
	t, err := time.ParseInLocation("2006-01-02", label, loc)
	if err != nil {
		return board.Period{}, time.Time{}, usagef("--window %q is no window label: want 2026-11-22, 2026-W47, 2026-11, 60000ms-29544480 or 60000ms+7-29544480", label)
	}
	return board.Daily(loc), t, nil
}

// everyOf reads an Every period's label: <d>ms-<index>, or
// <d>ms+<phase>-<index> for windows from an origin phase ms after the
// epoch's.
func everyOf(label string) (board.Period, time.Time, error) {
	bad := usagef("--window %q: want <ms>ms-<index> or <ms>ms+<phase>-<index>", label)
	ms, rest, _ := strings.Cut(label, "ms")
	d, err := strconv.ParseInt(ms, 10, 64)
	if err != nil || d < 1 {
		return board.Period{}, time.Time{}, bad
	}
	var phase int64
	if p, r, ok := strings.Cut(strings.TrimPrefix(rest, "+"), "-"); ok && strings.HasPrefix(rest, "+") {
		if phase, err = strconv.ParseInt(p, 10, 64); err != nil {
			return board.Period{}, time.Time{}, bad
		}
		rest = "-" + r
	}
	i, err := strconv.ParseInt(strings.TrimPrefix(rest, "-"), 10, 64)
	if err != nil || !strings.HasPrefix(rest, "-") {
		return board.Period{}, time.Time{}, bad
	}
	p := board.Every(time.Duration(d) * time.Millisecond)
	if phase != 0 {
		p = p.From(time.UnixMilli(phase))
	}
	return p, time.UnixMilli(phase + d*i), nil
}

func boardArchive(ctx context.Context, e *env, a archiveArgs) error {
	if a.label == "" {
		return usagef("--window is required: the label of the window to archive, as in NAME:LABEL")
	}
	if a.top < 0 || a.retention < 0 {
		return usagef("--top %d, --retention %v: want 0 or more", a.top, a.retention)
	}
	loc, err := time.LoadLocation(a.tz) // "": UTC, checked below
	if err != nil {
		return usagef("--tz %q: %v", a.tz, err)
	}
	var origin *time.Time
	if a.from != "" {
		t, err := time.Parse(time.RFC3339Nano, a.from)
		if err != nil {
			return usagef("--from %q: want an RFC 3339 instant: %v", a.from, err)
		}
		origin = &t
	}
	period, w, err := windowOf(a.label, loc, origin)
	if err != nil {
		return err
	}
	if a.tz == "" && !strings.Contains(a.label, "ms") { // a well-formed calendar label
		return usagef("--tz is required for a daily, weekly or monthly window: a label names another span of time in each zone, and the window %s stores its own, which the archive checks (--tz UTC for a board of UTC days)", a.label)
	}
	if now := time.Now(); w.End.After(now) {
		return fmt.Errorf("window %s of %s ends at %s (%s): only an ended window is archived", a.label, a.name, stamp(w.End), ago(w.End, now))
	} else if end := w.End.Add(a.retention); a.retention > 0 && !end.After(now) {
		return fmt.Errorf("window %s of %s: a retention of %v ends at %s (%s): the archive would expire at once; give a longer --retention, or none to keep it", a.label, a.name, a.retention, stamp(end), ago(end, now))
	}
	window := a.name + ":" + a.label
	// The window's descriptor gives the layout and options; its archive's
	// does once the window's own board has expired.
	r, err := openRef(ctx, e, window)
	if err != nil {
		var ferr error
		if r, ferr = openRef(ctx, e, window+":final"); ferr != nil {
			return err
		}
	}
	if err := refuseOwned(ctx, e, r, "board archive"); err != nil {
		return err
	}
	group, name := r.group, strings.TrimSuffix(strings.TrimSuffix(r.name, ":final"), ":"+a.label)
	opts := r.b.Options()
	p, err := board.NewPeriodic(e.client, name, r.b.Layout(), period, 0, opts)
	if err != nil {
		return err
	}
	archive := window + ":final"
	c := changeOut{Command: "board archive", Object: archive}
	if done, err := p.Archived(ctx, w); err == nil {
		// Asked again, it writes nothing: it returns the archive, or
		// refuses options other than those it was made with.
		if _, err := p.Archive(ctx, w, board.ArchiveOptions{Top: a.top, Retention: a.retention}); err != nil {
			return err
		}
		c.Count, err = done.Len(ctx)
		if err != nil {
			return err
		}
		return report(e, e.g, c, nil, fmt.Sprintf("change nothing: window %s is archived already, %s in %s", a.label, count(c.Count, "entries"), archive))
	} else if !errors.Is(err, board.ErrNotFound) {
		return err
	}
	// The window's stored span is the one Archive checks: a dry run
	// refuses what the archive would.
	stored, err := e.client.Do(ctx, e.client.B().Hget().Key(boardMetaKey(group, name+":"+a.label)).Field(metaSpan).Build()).ToString()
	if err == nil && stored != windowspan.Of(w.Start, w.End) {
		return fmt.Errorf("window %s is stored as %s, --tz and --from give %s: check the board's period (mismatch)", a.label, windowspan.Text(stored), windowspan.Text(windowspan.Of(w.Start, w.End)))
	}
	src, err := openBoard(ctx, e, group, name+":"+a.label)
	if err != nil {
		return err
	}
	if c.Count, err = src.Len(ctx); err != nil {
		return err
	}
	if a.top > 0 {
		c.Count = min(c.Count, a.top)
	}
	// The archive is a board of the window's kind: the same keys, in its
	// first generation, and the state HASH of its making.
	srcKeys, err := boardKeys(ctx, e, group, name+":"+a.label, true)
	if err != nil {
		return err
	}
	from, prefix := boardPrefix(group, name+":"+a.label), boardPrefix(group, name+":"+a.label+":final")
	c.Keys = []string{prefix + "archive", prefix + "meta"}
	for _, k := range srcKeys {
		suffix := strings.TrimPrefix(k, from)
		if g, rest, ok := strings.Cut(suffix, ":"); ok && strings.HasPrefix(g, "g") {
			suffix = rest
		}
		c.Keys = append(c.Keys, prefix+suffix)
	}
	slices.Sort(c.Keys)
	t, err := shownEntries(ctx, src, *a.show, c.Count, &c)
	if err != nil {
		return err
	}
	keep := "forever"
	if a.retention > 0 {
		keep = "until " + stamp(w.End.Add(a.retention))
	}
	if !e.g.dryRun {
		b, err := p.Archive(ctx, w, board.ArchiveOptions{Top: a.top, Retention: a.retention})
		if err != nil {
			return err
		}
		if c.Count, err = b.Len(ctx); err != nil {
			return err
		}
		if c.Keys, err = boardKeys(ctx, e, group, name+":"+a.label+":final", false); err != nil {
			return err
		}
	}
	what := fmt.Sprintf("copy %s of window %s [%s, %s) into board %s, kept %s",
		count(c.Count, "entries"), a.label, stamp(w.Start), stamp(w.End), archive, keep)
	if !e.g.dryRun {
		// Another caller may have made it meanwhile: an archive is made
		// exactly once, and this run need not be the one that copied.
		what = fmt.Sprintf("window %s [%s, %s) is archived in board %s, %s, kept %s (made once, by this run or another caller)",
			a.label, stamp(w.Start), stamp(w.End), archive, count(c.Count, "entries"), keep)
	}
	return report(e, e.g, c, t, what)
}
