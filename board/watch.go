package board

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"
)

// View is what Watch reads: the best n entries, the n around an id, or
// the entries of a set of ids. Make one with TopView, AroundView or
// AmongView; the zero View is refused (ErrArgument).
type View struct {
	kind viewKind
	n    int
	id   string
	ids  []string
}

type viewKind uint8

const (
	viewNone viewKind = iota
	viewTop
	viewAround
	viewAmong
)

// TopView is the view of the best n entries, as Top(n) reads them.
func TopView(n int) View { return View{kind: viewTop, n: n} }

// AroundView is the view of the n entries around id, as Around(id, n)
// reads them; while id is not on the board, its list is empty.
func AroundView(id string, n int) View { return View{kind: viewAround, n: n, id: id} }

// AmongView is the view of the entries of ids, as Among(ids) reads them.
func AmongView(ids ...string) View { return View{kind: viewAmong, ids: slices.Clone(ids)} }

// String describes the view: "top 10", "around alice 11", "among 3 ids".
func (v View) String() string {
	switch v.kind {
	case viewTop:
		return fmt.Sprintf("top %d", v.n)
	case viewAround:
		return fmt.Sprintf("around %s %d", v.id, v.n)
	case viewAmong:
		return fmt.Sprintf("among %d ids", len(v.ids))
	}
	return "no view"
}

// readView reads v once: a view of an id not on the board is an empty list.
func (b *Board) readView(ctx context.Context, v View, opts []ReadOption) (List, error) {
	switch v.kind {
	case viewTop:
		return b.Top(ctx, v.n, opts...)
	case viewAround:
		l, err := b.Around(ctx, v.id, v.n, opts...)
		if errors.Is(err, ErrNotFound) && !errors.Is(err, ErrArgument) {
			return List{Entries: []Entry{}, Total: -1}, nil
		}
		return l, err
	case viewAmong:
		return b.Among(ctx, v.ids, opts...)
	}
	return List{}, fmt.Errorf("board: Watch: the zero View: %w", ErrArgument)
}

// Watch delivers view v of the board to deliver each time it changes: the
// list as it is first, then, reading the view again every interval, each
// list that differs from the one delivered last (so at most one delivery
// per interval, and each delivery is a read made after the change it
// shows). Reading needs no server configuration (no keyspace
// notifications), so it works alike on one server, on a cluster and on a
// managed service. A read that fails (a server restarting, a failover) is
// tried again at the next interval; the first read after such an outage,
// and a read that took longer than two intervals and 0.5 s after one that
// did not (rueidis holds a read through a short restart), is delivered
// even if unchanged, so the caller knows the list is current again.
//
// Each interval costs one read of the view (see Top, Around and Among for
// their round trips and Redis cost), which Options.Observer is told of as
// that read; opts are the reads' options. Each
// list deliver is given is its own, to keep or change, even on a handle
// with CacheTop, whose reads share theirs. Watch
// returns when ctx ends (with ctx's error), when deliver returns an
// error (that error), or when the board is stored over by another
// descriptor (ErrMismatch: a migration switched; Open the board again and
// watch through the new handle). It refuses the zero View, an interval
// under 1ms, a nil deliver, and what the view's read refuses
// (ErrArgument), before delivering anything.
func (b *Board) Watch(ctx context.Context, v View, interval time.Duration, deliver func(List) error, opts ...ReadOption) error {
	if err := b.usable(ctx); err != nil {
		return err
	}
	if interval < time.Millisecond || deliver == nil {
		return fmt.Errorf("board: Watch: interval %v (at least 1ms) or a nil deliver: %w", interval, ErrArgument)
	}
	last, _, err := b.watchRead(ctx, v, interval, opts)
	if err != nil && (watchEnds(err) || ctx.Err() != nil) {
		return err
	}
	outage := err != nil
	if !outage {
		if err := deliver(own(last)); err != nil {
			return err
		}
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	wasSlow := false
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		l, slow, err := b.watchRead(ctx, v, interval, opts)
		// Only the first of slow reads in a row may be an outage's end: a
		// board always slow to read is not delivered again and again.
		firstSlow := slow && !wasSlow
		wasSlow = slow && err == nil
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case watchEnds(err):
			return err
		case err != nil:
			outage = true
			continue
		case !outage && !firstSlow && reflect.DeepEqual(l, last):
			continue
		}
		outage, last = false, l
		if err := deliver(own(l)); err != nil {
			return err
		}
	}
}

// watchSlow is the least time a watched read may take before it counts
// as having waited through an outage (see watchRead); a variable for the
// tests.
var watchSlow = 500 * time.Millisecond

// watchRead reads view v for Watch, and reports whether the read was
// slow: longer than max(2 intervals, watchSlow). rueidis holds a
// read-only command while its server restarts and sends it once the
// server is back, so a short outage ends in a read that succeeds, late:
// Watch delivers such a read even if the list did not change, so that
// the caller learns of the outage.
func (b *Board) watchRead(ctx context.Context, v View, interval time.Duration, opts []ReadOption) (List, bool, error) {
	start := time.Now()
	l, err := b.readView(ctx, v, opts)
	return l, time.Since(start) > max(2*interval, watchSlow), err
}

// watchEnds reports an error of a watched read that no later read
// escapes: a refusal (ErrArgument), or a board stored over by another
// descriptor (ErrMismatch: a migration switched, or the board was made
// again with other settings), which this handle can no longer read.
func watchEnds(err error) bool {
	return errors.Is(err, ErrArgument) || errors.Is(err, ErrMismatch)
}

// own returns l with entries of its own: a list a handle with CacheTop
// read from memory shares them with every such read, and deliver may
// change what it is given.
func own(l List) List {
	c := copyPage(l.Entries, 0, len(l.Entries))
	for i, e := range l.Entries {
		c.Entries[i].Data = slices.Clone(e.Data)
	}
	c.Total, c.HasMore, c.Next = l.Total, l.HasMore, l.Next
	return c
}
