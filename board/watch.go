package board

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/tiebreak/tiebreak/internal/errs"
)

// Watch delivers the list read returns to deliver each time it changes:
// the list as it is first, then, calling read again every interval, each
// list that differs from the one delivered last (so at most one delivery
// per interval, and each delivery is a read made after the change it
// shows). read is any read of one or more boards' lists:
//
//	top := func(ctx context.Context) (board.List, error) { return b.Top(ctx, 10, board.WithData()) }
//	err := board.Watch(ctx, time.Second, top, func(l board.List) error {
//		fmt.Println(l.Entries)
//		return nil // an error ends the watch
//	})
//
// or b.Around(ctx, id, 11), b.Among(ctx, friends), a Page or a Between.
// A read that answers ErrNotFound without ErrArgument (Around of an id not
// on the board) is delivered as an empty list, with Total -1.
//
// Reading needs no server configuration (no keyspace notifications), so
// it works alike on one server, on a cluster and on a managed service. A
// read that fails (a server restarting, a failover) is tried again at the
// next interval; the first read after such an outage, and a read that
// took longer than two intervals and 0.5 s after one that did not
// (rueidis holds a read through a short restart), is delivered even if
// unchanged, so the caller knows the list is current again.
//
// Each interval costs one call of read (see Top, Around and Among for
// their round trips and Redis cost), which the boards' Options.Observer is
// told of as that read. Each list deliver is given is its own, to keep or
// change, even from a handle with CacheTop, whose reads share theirs.
// Watch returns when ctx ends (with ctx's error), when deliver returns an
// error (that error), or when read answers an error no later read
// escapes: a refusal (ErrArgument, such as Top(0) or a dense rank on a
// board without them), or a board stored over by another descriptor
// (ErrMismatch: a migration switched; Open the board again and watch
// through the new handle). It refuses a nil ctx, read or deliver and an
// interval under 1ms (ErrArgument), before reading anything.
func Watch(ctx context.Context, interval time.Duration, read func(context.Context) (List, error), deliver func(List) error) error {
	if err := errs.NilContext("board: Watch", ctx); err != nil {
		return err
	}
	if interval < time.Millisecond || read == nil || deliver == nil {
		return fmt.Errorf("board: Watch: interval %v (at least 1ms), or a nil read or deliver: %w", interval, ErrArgument)
	}
	last, _, err := watchRead(ctx, read, interval)
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
		l, slow, err := watchRead(ctx, read, interval)
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

// watchRead calls read for Watch, and reports whether the read was
// slow: longer than max(2 intervals, watchSlow). rueidis holds a
// read-only command while its server restarts and sends it once the
// server is back, so a short outage ends in a read that succeeds, late:
// Watch delivers such a read even if the list did not change, so that
// the caller learns of the outage. An id not on the board (ErrNotFound)
// reads as an empty list.
func watchRead(ctx context.Context, read func(context.Context) (List, error), interval time.Duration) (List, bool, error) {
	start := time.Now()
	l, err := read(ctx)
	if errors.Is(err, ErrNotFound) && !errors.Is(err, ErrArgument) {
		l, err = List{Entries: []Entry{}, Total: -1}, nil
	}
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
