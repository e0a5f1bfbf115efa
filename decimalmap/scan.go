package decimalmap

import (
	"context"
	"fmt"
	"math"

	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// Cursor is a position for Scan: the canonical text of the last key a page
// returned. The zero Cursor is the start of the map; any key may serve as a
// cursor, starting the scan just after it.
type Cursor string

// Page is one page of a Scan.
type Page struct {
	// Entries holds the page's keys with their values, smallest first.
	Entries []Entry
	// HasMore reports that keys follow this page.
	HasMore bool
	// Next is the cursor of the following page (empty when HasMore is
	// false).
	Next Cursor
}

// Scan returns up to n keys strictly after cursor, smallest first, with
// their values, each page in one round trip; a page ends early, with
// HasMore, rather than hold more than MaxCallValues values (it holds one
// key at least). Paging is by key, not by
// position: a key present throughout a scan is returned exactly once,
// however other keys are added or removed meanwhile, and a cursor stays
// valid when its own key is gone. It refuses n under 1 and a cursor that
// is not a key of at most MaxKeyLenLimit bytes (ErrArgument): a cursor
// of any handle's page is taken by every handle, whatever its MaxKeyLen.
func (m *Map) Scan(ctx context.Context, cursor Cursor, n int) (Page, error) {
	if err := m.usable(ctx); err != nil {
		return Page{}, err
	}
	if m.opts.Observer != nil {
		return observed.Call(ctx, m.opts.Observer, m.op("Scan", n), errKinds, func(ctx context.Context) (Page, error) { return m.scan(ctx, cursor, n) }, func(p Page, o observe.Outcome) observe.Outcome { return observed.Count(len(p.Entries), o) })
	}
	return m.scan(ctx, cursor, n)
}

// scan is Scan.
func (m *Map) scan(ctx context.Context, cursor Cursor, n int) (Page, error) {
	if n < 1 {
		return Page{}, fmt.Errorf("decimalmap: scan: n = %d out of range [1, %d]: %w", n, math.MaxInt, ErrArgument)
	}
	after := Unbounded()
	if cursor != "" {
		if _, err := m.encodeAs("scan: cursor", string(cursor), ErrArgument, MaxKeyLenLimit); err != nil {
			return Page{}, err
		}
		after = Bound{key: string(cursor), kind: exclusive, cursor: true}
	}
	entries, more, err := m.rangeEntries(ctx, "scan: ", after, Unbounded(), false, min(n, MaxCallValues), true)
	if err != nil {
		return Page{}, err
	}
	p := Page{Entries: entries, HasMore: more}
	if more {
		p.Next = Cursor(entries[len(entries)-1].Key)
	}
	return p, nil
}
