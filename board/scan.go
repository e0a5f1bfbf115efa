package board

import (
	"context"
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"

	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
	"github.com/tiebreak/tiebreak/pack"
)

// scanPage is one page of a Scan, as List gives it (list).
type scanPage struct {
	// Entries holds the page, best first, each with its ordinal rank.
	Entries []Entry
	// Total is the number of entries on the board (WithTotal), or -1.
	Total int64
	// HasMore reports that entries follow this page.
	HasMore bool
	// Next is the cursor of the following page (empty when HasMore is
	// false).
	Next string
}

// Scan returns up to n entries that come strictly after cursor, best first.
// Paging by value, not by rank: an entry that stays put is returned exactly
// once across the pages of a scan, however other entries are inserted,
// moved or removed meanwhile, and the cursor stays valid when its own entry
// has moved or gone. A cursor stays valid across a Reshard and a Migrate
// that keeps the layout and strategy. It refuses n outside [1, 1000] and a
// malformed cursor (ErrArgument), and a cursor made before a Migrate to
// another layout or strategy, or by a board of another one (ErrMismatch):
// read in this board's encoding it would skip or repeat entries. One
// script, one round trip (on a sharded board, one per shard, at once).
func (b *Board) Scan(ctx context.Context, cursor string, n int, opts ...ReadOption) (List, error) {
	if err := b.usable(ctx); err != nil {
		return List{}, err
	}
	p, err := b.scanPage(ctx, cursor, n, opts)
	if b.sh != nil {
		return totalAsked(opts)(p.list(), err)
	}
	return p.list(), err
}

// list is the List of page p: Next is empty when no entries follow.
func (p scanPage) list() List {
	l := List{Entries: p.Entries, Total: p.Total, HasMore: p.HasMore}
	if p.HasMore {
		l.Next = p.Next
	}
	return l
}

// scanPage is Scan.
func (b *Board) scanPage(ctx context.Context, cursor string, n int, opts []ReadOption) (scanPage, error) {
	if b.sh != nil {
		return b.sh.Scan(ctx, cursor, n, opts...)
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Scan", n), errKinds, func(ctx context.Context) (scanPage, error) { return b.scan(ctx, cursor, n, opts) },
			func(p scanPage, o observe.Outcome) observe.Outcome { return observed.Count(len(p.Entries), o) })
	}
	return b.scan(ctx, cursor, n, opts)
}

// scan is Scan.
func (b *Board) scan(ctx context.Context, cursor string, n int, opts []ReadOption) (scanPage, error) {
	if err := checkWindow("scan", 0, n); err != nil {
		return scanPage{}, err
	}
	score, member, err := b.parseCursor(cursor)
	if err != nil {
		return scanPage{}, err
	}
	c, data, ranks, err := b.readFlags(opts)
	if err != nil {
		return scanPage{}, err
	}
	args := []string{score, member, strconv.Itoa(n), data, ranks}
	l, err := b.list(ctx, "scan", func(s *scriptSet) *luascript.Script { return s.after }, args, c)
	if err != nil {
		return scanPage{}, err
	}
	p := scanPage{Entries: l.Entries, Total: l.Total}
	if len(p.Entries) > n {
		p.Entries, p.HasMore = p.Entries[:n], true
	}
	if p.HasMore {
		p.Next, err = b.cursorOf(p.Entries[n-1])
	}
	return p, err
}

// cursorOf encodes the stored position of e, after the tag of the
// board's encoding.
func (b *Board) cursorOf(e Entry) (string, error) {
	score, member, err := b.encode(e.ID, e.Values)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString([]byte(b.tag + "\n" + fmtFloat(score) + "\n" + member)), nil
}

// encodingTag names how a board of strategy s and layout l stores a
// position (field names too: Migrate carries values over by name). A
// cursor carries it, so that a cursor made before a Migrate changed the
// encoding is refused rather than read as another position.
func encodingTag(s Strategy, l *pack.Layout) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%d %s", s, l)
	return fmt.Sprintf("%08x", h.Sum32())
}

// maxMemberLen bounds a stored member: the widest fields prefix (16
// digits) and the longest id.
const maxMemberLen = 16 + 65536

// parseCursor reads a cursor of this board's encoding: "" is the start, a
// cursor of another encoding (made before a Migrate changed it, or by a
// board of another layout) is ErrMismatch, anything cursorOf did not
// write is ErrArgument.
func (b *Board) parseCursor(c string) (score, member string, err error) {
	if c == "" {
		return "", "", nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err == nil {
		tag, rest, ok1 := strings.Cut(string(raw), "\n")
		var ok2 bool
		score, member, ok2 = strings.Cut(rest, "\n")
		// Only what cursorOf writes: a finite score in its canonical text.
		f, perr := strconv.ParseFloat(score, 64)
		if ok1 && ok2 && len(tag) == 8 && perr == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && fmtFloat(f) == score && len(member) <= maxMemberLen {
			if tag != b.tag {
				return "", "", fmt.Errorf("board: cursor of another layout or strategy than the board's (it migrated since the scan began?): scan again from the start: %w", ErrMismatch)
			}
			return score, member, nil
		}
	}
	return "", "", fmt.Errorf("board: malformed cursor %q: %w", c, ErrArgument)
}
