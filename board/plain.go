package board

import (
	"context"
	"errors"
	"fmt"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/engine"
)

// The reads that ask for nothing but entries and ordinal ranks are plain
// commands, not scripts: a top or a page is one ZRANGE, the ordinal rank
// of an id one ZRANK, a Get ZRANK ... WITHSCORE, Around ZRANK then ZRANGE.
// So they cost Redis what the bare commands of a hand-written leaderboard
// cost, and a cached read (cache.go) is the same command answered from
// the client's memory. Where an id is not its own member (a key-suffix
// board of more than one field), the read first finds the member with one
// HGET of the id lookup (lookup.go), as a hand-written key-suffix board
// does.

// memberIsID reports that an id's stored member is the id itself: a
// packed board, or a key-suffix board whose layout has no field but the
// score.
func (b *Board) memberIsID() bool { return !b.suffix() || b.width == 0 }

// plainPage is Top and Page of a read with no extras: one ZRANGE.
func (b *Board) plainPage(ctx context.Context, offset int64, n int) (List, error) {
	return inGen(ctx, b, func(g *generation) (List, error) {
		zs, err := b.zrange(ctx, g, offset, n)
		if err != nil {
			return List{}, redisErr("range", err)
		}
		return b.plainList(zs, offset+1)
	})
}

// errScript reports a plain read that must be made again by its script:
// the member the id lookup gave is gone from the sorted set (a write came
// between), or the lookup kept changing under the read; the script, one
// snapshot, decides. Never returned where an id is its own member.
var errScript = errors.New("board: read with the script")

// memberIn is the stored member of id in g: the id itself, or the one
// the id lookup gives (ErrNotFound when it holds no record of id).
func (b *Board) memberIn(ctx context.Context, g *generation, id string) (string, error) {
	if b.memberIsID() {
		return id, nil
	}
	m, ok, err := b.lookupMember(ctx, g, id)
	if err == nil && !ok {
		err = fmt.Errorf("board: id %q: %w", id, ErrNotFound)
	}
	return m, err
}

// absent is the error of a plain read whose sorted set holds no member of
// id's: ErrNotFound where the id is its own member, else errScript (the
// member the lookup gave may have changed since).
func (b *Board) absent(id string) error {
	if b.memberIsID() {
		return fmt.Errorf("board: id %q: %w", id, ErrNotFound)
	}
	return errScript
}

// plainAround is Around of a read with no extras: ZRANK, then ZRANGE of
// the window around the rank found, the bare commands in two round trips
// (three with the lookup's HGET), which cost Redis less than around.lua
// once many callers share a connection. The window is the answer of the
// moment the ZRANGE ran when it holds id's member where the rank put it
// and is full (or starts at rank 1): then id's rank was the same at that
// moment, and so was the window around it. Otherwise (the board changed
// between the commands, the window runs past the last entry and must
// fill from above, or the lookup has no record of id) ok is false and
// around.lua answers, in one snapshot.
func (b *Board) plainAround(ctx context.Context, id string, n int) (l List, ok bool, err error) {
	l, err = inGen(ctx, b, func(g *generation) (List, error) {
		m, r, err := b.rankIn(ctx, g, id)
		if err != nil {
			return List{}, err
		}
		start := max(r-int64((n-1)/2), 0)
		zs, err := b.zrange(ctx, g, start, n)
		if err != nil {
			return List{}, redisErr("around", err)
		}
		if at := r - start; at >= int64(len(zs)) || zs[at].Member != m || (len(zs) < n && start > 0) {
			return List{}, errScript
		}
		return b.plainList(zs, start+1)
	})
	if errors.Is(err, errScript) {
		return List{}, false, nil
	}
	return l, err == nil, err
}

// plainList is the List of the entries of a ZRANGE ... WITHSCORES reply
// whose first has ordinal rank first; its Total is unknown (-1).
func (b *Board) plainList(zs []rdb.Scored, first int64) (List, error) {
	l := List{Total: -1, Entries: make([]Entry, 0, len(zs))}
	vs := b.valuesOf(len(zs))
	for i, z := range zs {
		id, vals, err := b.decodeInto(vs(i), z.Score, z.Member)
		if err != nil {
			return List{}, err
		}
		l.Entries = append(l.Entries, Entry{ID: id, Values: vals, Rank: first + int64(i)})
	}
	return l, nil
}

// zrange is ZRANGE ... WITHSCORES of the n entries of g from 0-based rank
// start (rdb's one-command reads build the command for each send, so a
// read allocates none).
func (b *Board) zrange(ctx context.Context, g *generation, start int64, n int) ([]rdb.Scored, error) {
	return b.conn.ZRangeWithScores(ctx, g.keys.z, start, start+int64(n)-1).AsZScores()
}

// valuesOf gives the Values of n entries, cut from one array: the i-th
// of the layout's length, its capacity its length (an append to one
// copies it, never writes over the next).
func (b *Board) valuesOf(n int) func(i int) []float64 {
	k := b.layout.Len()
	all := make([]float64, n*k)
	return func(i int) []float64 { return all[i*k : (i+1)*k : (i+1)*k] }
}

// plainRank is the ordinal rank of id: one ZRANK (after the lookup's
// HGET where id is not its member); errScript when the lookup or the
// sorted set has no member of id's.
func (b *Board) plainRank(ctx context.Context, id string) (int64, error) {
	return inGen(ctx, b, func(g *generation) (int64, error) {
		_, r, err := b.rankIn(ctx, g, id)
		if err != nil {
			return 0, err
		}
		return r + 1, nil
	})
}

// rankIn is id's member in g and its 0-based rank.
func (b *Board) rankIn(ctx context.Context, g *generation, id string) (string, int64, error) {
	m, err := b.memberIn(ctx, g, id)
	if err != nil {
		return "", 0, err
	}
	r, err := b.conn.ZRank(ctx, g.keys.z, m).AsInt64()
	if rdb.IsNil(err) {
		return "", 0, b.absent(id)
	}
	if err != nil {
		return "", 0, redisErr("rank", err)
	}
	return m, r, nil
}

// leanGet is Get of a read that asks for nothing more than the entry and
// its ordinal rank: ZRANK ... WITHSCORE where the engine takes it (Redis
// and Valkey 7.2+), else ZSCORE and ZRANK in one MULTI/EXEC (one
// snapshot, one round trip, and cheaper for Redis than a script), after
// the lookup's HGET where id is not its member. get.lua answers when the
// engine refuses the MULTI at its memory limit, or the lookup or the
// sorted set has no member of id's.
func (b *Board) leanGet(ctx context.Context, id string) (Entry, error) {
	e, err := inGen(ctx, b, func(g *generation) (Entry, error) {
		m, err := b.memberIn(ctx, g, id)
		if err != nil {
			return Entry{}, err
		}
		if b.withScore() {
			e, err := b.rankWithScore(ctx, g, id, m)
			if !engine.IsRefusal(errors.Unwrap(err)) {
				return e, err
			}
			zrankWithScore.Refuse(b.conn.Client())
		}
		return b.scoreAndRank(ctx, g, id, m)
	})
	if !errors.Is(err, errMultiOOM) && !errors.Is(err, errScript) {
		return e, err
	}
	return b.scriptGet(ctx, id)
}

// scriptGet is Get of a read that asks for nothing more, by get.lua.
func (b *Board) scriptGet(ctx context.Context, id string) (Entry, error) {
	strs, err := inGen(ctx, b, func(g *generation) ([]string, error) {
		return b.arrayReply("get", b.conn.Run(ctx, g.scripts.get, g.keys.script, []string{id}))
	})
	switch {
	case err != nil:
		return Entry{}, err
	case len(strs) == 0:
		return Entry{}, fmt.Errorf("board: id %q: %w", id, ErrNotFound)
	case len(strs) != 3:
		return Entry{}, fmt.Errorf("board: get reply %q: %w", strs, ErrReply)
	}
	return b.entry(strs[1], strs[0], strs[2])
}

// rankWithScore is leanGet's ZRANK ... WITHSCORE of id's member m. An
// engine that refuses the form gives an error whose Unwrap is the
// refusal.
func (b *Board) rankWithScore(ctx context.Context, g *generation, id, m string) (Entry, error) {
	arr, err := b.conn.ZRankWithScore(ctx, g.keys.z, m).ToArray()
	if rdb.IsNil(err) {
		return Entry{}, b.absent(id)
	}
	if engine.IsRefusal(err) {
		return Entry{}, fmt.Errorf("board: get: %w", err)
	}
	if err != nil {
		return Entry{}, redisErr("get", err)
	}
	if len(arr) != 2 {
		return Entry{}, fmt.Errorf("board: get: ZRANK reply of %d elements: %w", len(arr), ErrReply)
	}
	r, err1 := arr[0].AsInt64()
	s, err2 := arr[1].AsFloat64()
	if err1 != nil || err2 != nil {
		return Entry{}, fmt.Errorf("board: get: ZRANK reply: %w", ErrReply)
	}
	id, vals, err := b.decodeScore(s, m)
	return Entry{ID: id, Values: vals, Rank: r + 1}, err
}

// errMultiOOM reports a MULTI/EXEC that Redis refused at its memory limit,
// where it refuses every command queued, reads too (a read-only script it
// runs): leanGet then reads with get.lua.
var errMultiOOM = errors.New("board: MULTI refused at the memory limit")

// scoreAndRank is leanGet's MULTI, ZSCORE, ZRANK, EXEC of id's member m.
func (b *Board) scoreAndRank(ctx context.Context, g *generation, id, m string) (Entry, error) {
	res := b.conn.ReadTx(ctx, func(p *rdb.Pipe) {
		p.Grow(4)
		p.Multi()
		p.ZScore(g.keys.z, m)
		p.ZRank(g.keys.z, m)
		p.Exec()
	})
	arr, err := res[len(res)-1].ToArray()
	if rdb.HasPrefix(res[1].Error(), "OOM") {
		return Entry{}, errMultiOOM
	}
	if err != nil {
		return Entry{}, redisErr("get", errors.Join(err, res[1].Error(), res[2].Error()))
	}
	if len(arr) != 2 {
		return Entry{}, fmt.Errorf("board: get: EXEC reply of %d elements: %w", len(arr), ErrReply)
	}
	s, err := arr[0].AsFloat64()
	if rdb.IsNil(err) {
		return Entry{}, b.absent(id)
	}
	if err != nil {
		return Entry{}, redisErr("get", err)
	}
	r, err := arr[1].AsInt64()
	if err != nil {
		return Entry{}, redisErr("get", err)
	}
	id, vals, err := b.decodeScore(s, m)
	return Entry{ID: id, Values: vals, Rank: r + 1}, err
}
