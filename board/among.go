package board

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// MaxAmong is the most ids one Among call takes.
const MaxAmong = 1000

// AmongList is the answer of Among: the entries of the ids asked for that
// are on the board, best first, and those that are not.
type AmongList struct {
	// Entries holds the ids on the board, best first (ties by id, as on
	// the board). Each Entry's ranks are its ranks on the whole board.
	Entries []AmongEntry
	// Absent holds the ids not on the board, in the order given.
	Absent []string
	// Total is the number of entries on the whole board.
	Total int64
}

// AmongEntry is an entry with its rank among the ids asked for.
type AmongEntry struct {
	Entry
	// Position is the entry's ordinal rank among the ids asked for: 1 for
	// the best of them.
	Position int64
}

// Among returns the entries of ids (a player's friends, say), best first,
// each with its rank among them and its ranks on the whole board (the
// ordinal rank, and those WithRanks asks for), member data on request
// (WithData): one script, one round trip, one snapshot. An id given twice
// counts once; an id not on the board is listed in Absent, not an error.
//
// It refuses no ids and more than MaxAmong (ErrArgument), an invalid id
// (ErrID), and what WithRanks refuses.
func (b *Board) Among(ctx context.Context, ids []string, opts ...ReadOption) (AmongList, error) {
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Among", len(ids)), errKinds, func(ctx context.Context) (AmongList, error) { return b.among(ctx, ids, opts) },
			func(l AmongList, o observe.Outcome) observe.Outcome { return observed.Count(len(l.Entries), o) })
	}
	return b.among(ctx, ids, opts)
}

// among is Among.
func (b *Board) among(ctx context.Context, ids []string, opts []ReadOption) (AmongList, error) {
	if len(ids) == 0 || len(ids) > MaxAmong {
		return AmongList{}, fmt.Errorf("board: Among: len(ids) = %d out of range [1, %d]: %w", len(ids), MaxAmong, ErrArgument)
	}
	c, data, ranks, err := b.readFlags(opts)
	if err != nil {
		return AmongList{}, err
	}
	args := make([]string, 2, len(ids)+2)
	args[0], args[1] = ranks, data
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if err := b.checkID(id); err != nil {
			return AmongList{}, err
		}
		if !seen[id] {
			seen[id] = true
			args = append(args, id)
		}
	}
	strs, err := inGen(ctx, b, func(g *generation) ([]string, error) {
		return b.arrayReply("among", g.scripts.among.Exec(ctx, b.client, g.keys.script, args))
	})
	if err != nil {
		return AmongList{}, err
	}
	return b.amongList(strs, args[2:], c)
}

// amongList reads among.lua's reply to ids.
func (b *Board) amongList(strs, ids []string, c readConfig) (AmongList, error) {
	const step = 7
	if len(strs) != 1+step*len(ids) {
		return AmongList{}, fmt.Errorf("board: among reply of %d elements for %d ids: %w", len(strs), len(ids), ErrReply)
	}
	total, err := strconv.ParseInt(strs[0], 10, 64)
	if err != nil {
		return AmongList{}, fmt.Errorf("board: among reply total %q: %w", strs[0], ErrReply)
	}
	l := AmongList{Total: total, Entries: []AmongEntry{}}
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
		if err != nil {
			return AmongList{}, err
		}
		if c.data && f[6] == "1" {
			e.Data = []byte(f[5])
		}
		l.Entries = append(l.Entries, AmongEntry{Entry: e})
	}
	slices.SortFunc(l.Entries, func(x, y AmongEntry) int { return int(x.Rank - y.Rank) })
	for i := range l.Entries {
		l.Entries[i].Position = int64(i + 1)
	}
	return l, nil
}
