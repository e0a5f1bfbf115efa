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
)

// archiveCommand is board archive: Periodic.Archive of one ended window.
// A periodic board stores neither its period nor its retention; the
// window's label tells the period (2026-11-22 daily, 2026-W47 weekly,
// 2026-11 monthly, 60000ms-29544480 every 60000 ms), --tz its location.
func archiveCommand() *command {
	return &command{name: "board archive", args: []string{"NAME"},
		help:   "keep an ended window's final standings in NAME:LABEL:final (Periodic.Archive), as the periodic board's archive would",
		writes: "creates the archive board NAME:LABEL:final, a copy of the window's entries",
		setup: func(fs *flag.FlagSet) runFunc {
			var a archiveArgs
			fs.StringVar(&a.label, "window", "", "the window's `label`, required: 2026-11-22 (daily), 2026-W47 (weekly), 2026-11 (monthly), 60000ms-29544480 (Every)")
			fs.StringVar(&a.tz, "tz", "UTC", "the period's time `zone` (a periodic board does not store it), for daily, weekly and monthly windows")
			fs.Int64Var(&a.top, "top", 0, "keep only the best `n` entries (0: every entry)")
			fs.DurationVar(&a.retention, "retention", 0, "keep the archive this long after the window's end (0: forever)")
			return func(ctx context.Context, e *env, x []string) error { a.name = x[0]; return boardArchive(ctx, e, a) }
		}}
}

// archiveArgs are board archive's arguments.
type archiveArgs struct {
	name, label, tz string
	top             int64
	retention       time.Duration
}

// windowOf returns the period and window that label names, in loc.
func windowOf(label string, loc *time.Location) (board.Period, board.Window, error) {
	var p board.Period
	var at time.Time
	switch {
	case strings.Contains(label, "ms-"):
		ms, n, _ := strings.Cut(label, "ms-")
		d, err1 := strconv.ParseInt(ms, 10, 64)
		i, err2 := strconv.ParseInt(n, 10, 64)
		if err1 != nil || err2 != nil || d < 1 {
			return p, board.Window{}, usagef("--window %q: want <ms>ms-<index>", label)
		}
		p, at = board.Every(time.Duration(d)*time.Millisecond), time.UnixMilli(d*i)
	case strings.Contains(label, "-W"):
		y, w, _ := strings.Cut(label, "-W")
		yy, err1 := strconv.Atoi(y)
		ww, err2 := strconv.Atoi(w)
		if err1 != nil || err2 != nil {
			return p, board.Window{}, usagef("--window %q: want YYYY-Www", label)
		}
		// January 4th is in week 1.
		p, at = board.Weekly(loc), time.Date(yy, 1, 4+7*(ww-1), 12, 0, 0, 0, loc)
	case len(label) == len("2006-01"):
		t, err := time.ParseInLocation("2006-01", label, loc)
		if err != nil {
			return p, board.Window{}, usagef("--window %q: %v", label, err)
		}
		p, at = board.Monthly(loc), t.Add(12*time.Hour)
	default:
		t, err := time.ParseInLocation("2006-01-02", label, loc)
		if err != nil {
			return p, board.Window{}, usagef("--window %q is no window label: want 2026-11-22, 2026-W47, 2026-11 or 60000ms-29544480", label)
		}
		p, at = board.Daily(loc), t.Add(12*time.Hour)
	}
	w, err := p.Window(at)
	if err == nil && w.Label != label {
		err = usagef("--window %q is no window label (the window there is %s)", label, w.Label)
	}
	return p, w, err
}

func boardArchive(ctx context.Context, e *env, a archiveArgs) error {
	if a.label == "" {
		return usagef("--window is required: the label of the window to archive, as in NAME:LABEL")
	}
	if a.top < 0 || a.retention < 0 {
		return usagef("--top %d, --retention %v: want 0 or more", a.top, a.retention)
	}
	loc, err := time.LoadLocation(a.tz)
	if err != nil {
		return usagef("--tz %q: %v", a.tz, err)
	}
	period, w, err := windowOf(a.label, loc)
	if err != nil {
		return err
	}
	if now := time.Now(); w.End.After(now) {
		return fmt.Errorf("window %s of %s ends at %s (%s): only an ended window is archived", a.label, a.name, stamp(w.End), ago(w.End, now))
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
	group, name := r.group, strings.TrimSuffix(strings.TrimSuffix(r.name, ":final"), ":"+a.label)
	opts := r.b.Options()
	p, err := board.NewPeriodic(e.client, name, r.b.Layout(), period, 0, opts)
	if err != nil {
		return err
	}
	archive := window + ":final"
	c := changeOut{Command: "board archive", Object: archive}
	if done, err := p.Archived(ctx, w); err == nil {
		c.Count, err = done.Len(ctx)
		if err != nil {
			return err
		}
		return report(e, e.g, c, nil, fmt.Sprintf("change nothing: window %s is archived already, %s in %s", a.label, count(c.Count, "entries"), archive))
	} else if !errors.Is(err, board.ErrNotFound) {
		return err
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
	return report(e, e.g, c, nil, fmt.Sprintf("copy %s of window %s [%s, %s) into board %s, kept %s",
		count(c.Count, "entries"), a.label, stamp(w.Start), stamp(w.End), archive, keep))
}
