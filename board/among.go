package board

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// maxAmong is the most ids one Among call takes.
const maxAmong = 1000

// amongList is the answer of Among: the entries of the ids asked for that
// are on the board, best first, and those that are not.
type amongList struct {
	// Entries holds the ids on the board, best first (ties by id, as on
	// the board). Each Entry's ranks are its ranks on the whole board.
	Entries []amongEntry
	// Absent holds the ids not on the board, in the order given.
	Absent []string
	// Total is the number of entries on the whole board (WithTotal), or -1.
	Total int64
}

// amongEntry is an entry with its rank among the ids asked for.
type amongEntry struct {
	Entry
	// Position is the entry's ordinal rank among the ids asked for: 1 for
	// the best of them.
	Position int64

	at pos // the stored score and member
}

// Among returns the entries of ids (a player's friends, say) that are on
// the board, best first, so that an entry's rank among them is its index
// plus one, each with its ranks on the whole board (the ordinal rank, and
// those WithRanks asks for) and member data on request (WithData); Total
// is the whole board's size with WithTotal, else -1. One script, one round trip, one snapshot; on
// a sharded board, two. An id given twice counts once; an id not on the
// board (or beyond a sharded board's cap) is left out, not an error.
//
// It refuses no ids and more than 1000 (ErrArgument), an invalid id
// (ErrArgument), and what WithRanks refuses.
func (b *Board) Among(ctx context.Context, ids []string, opts ...ReadOption) (List, error) {
	if err := b.usable(ctx); err != nil {
		return List{}, err
	}
	var l amongList
	var err error
	if b.sh != nil {
		l, err = b.sh.Among(ctx, ids, opts...)
	} else {
		l, err = b.amongObserved(ctx, ids, opts)
	}
	if err != nil {
		return List{}, err
	}
	out := List{Total: l.Total, Entries: make([]Entry, len(l.Entries))}
	for i, e := range l.Entries {
		out.Entries[i] = e.Entry
	}
	if b.sh != nil {
		return totalAsked(opts)(out, nil)
	}
	return out, nil
}

// amongObserved is Among of a board of one hash tag.
func (b *Board) amongObserved(ctx context.Context, ids []string, opts []ReadOption) (amongList, error) {
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Among", len(ids)), errKinds, func(ctx context.Context) (amongList, error) { return b.among(ctx, ids, opts) },
			func(l amongList, o observe.Outcome) observe.Outcome { return observed.Count(len(l.Entries), o) })
	}
	return b.among(ctx, ids, opts)
}

// among is Among.
func (b *Board) among(ctx context.Context, ids []string, opts []ReadOption) (amongList, error) {
	if len(ids) == 0 || len(ids) > maxAmong {
		return amongList{}, fmt.Errorf("board: Among: len(ids) = %d out of range [1, %d]: %w", len(ids), maxAmong, ErrArgument)
	}
	c, data, ranks, err := b.readFlags(opts)
	if err != nil {
		return amongList{}, err
	}
	args := make([]string, 2, len(ids)+2)
	args[0], args[1] = ranks, data
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if err := b.checkID(id); err != nil {
			return amongList{}, err
		}
		if !seen[id] {
			seen[id] = true
			args = append(args, id)
		}
	}
	strs, err := inGen(ctx, b, func(g *generation) ([]string, error) {
		return b.arrayReply("among", b.conn.Run(ctx, g.scripts.among, g.keys.script, args))
	})
	if err != nil {
		return amongList{}, err
	}
	return b.amongList(strs, args[2:], c)
}

// amongList reads among.lua's reply to ids.
func (b *Board) amongList(strs, ids []string, c readConfig) (amongList, error) {
	const step = 8
	if len(strs) != 1+step*len(ids) {
		return amongList{}, fmt.Errorf("board: among reply of %d elements for %d ids: %w", len(strs), len(ids), ErrReply)
	}
	total, err := strconv.ParseInt(strs[0], 10, 64)
	if err != nil {
		return amongList{}, fmt.Errorf("board: among reply total %q: %w", strs[0], ErrReply)
	}
	l := amongList{Total: total, Entries: []amongEntry{}}
	for i, id := range ids {
		f := strs[1+step*i : 1+step*(i+1)]
		if f[2] == "0" {
			l.Absent = append(l.Absent, id)
			continue
		}
		e, err := b.entry(f[1], f[0], f[2])
		if err == nil {
			e.Competition, e.Dense, err = parseRanks(f[3], f[4])
		}
		if err == nil {
			e.ModifiedCompetition, err = parseRank(f[7])
		}
		if err != nil {
			return amongList{}, err
		}
		if c.data && f[6] == "1" {
			e.Data = []byte(f[5])
		}
		at, err := posOf(f[1], f[0])
		if err != nil {
			return amongList{}, err
		}
		l.Entries = append(l.Entries, amongEntry{Entry: e, at: at})
	}
	slices.SortFunc(l.Entries, func(x, y amongEntry) int { return int(x.Rank - y.Rank) })
	for i := range l.Entries {
		l.Entries[i].Position = int64(i + 1)
	}
	return l, nil
}
