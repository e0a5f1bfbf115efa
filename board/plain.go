package board

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/engine"
)

// The reads that ask for nothing but entries and ordinal ranks are plain
// commands, not scripts: a top or a page is one ZRANGE, the ordinal rank
// of an id that is its own member (a packed board, or a key-suffix board
// of one field) one ZRANK. So they cost Redis what the bare commands of a
// hand-written leaderboard cost, and a cached read (cache.go) is the same
// command answered from the client's memory.

// memberIsID reports that an id's stored member is the id itself: a
// packed board, or a key-suffix board whose layout has no field but the
// score.
func (b *Board) memberIsID() bool { return !b.suffix() || b.width == 0 }

// plainPage is Top and Page of a read with no extras: one ZRANGE.
func (b *Board) plainPage(ctx context.Context, offset int64, n int) (List, error) {
	return inGen(ctx, b, func(g *generation) (List, error) {
		cmd := b.client.B().Zrange().Key(g.keys.z).Min(strconv.FormatInt(offset, 10)).
			Max(strconv.FormatInt(offset+int64(n)-1, 10)).Withscores().Build()
		zs, err := b.client.Do(ctx, cmd).AsZScores()
		if err != nil {
			return List{}, redisErr("range", err)
		}
		return b.plainList(zs, offset+1)
	})
}

// plainList is the List of the entries of a ZRANGE ... WITHSCORES reply
// whose first has ordinal rank first; its Total is unknown (-1).
func (b *Board) plainList(zs []rueidis.ZScore, first int64) (List, error) {
	l := List{Total: -1, Entries: make([]Entry, 0, len(zs))}
	for i, z := range zs {
		id, vals, err := b.decodeScore(z.Score, z.Member)
		if err != nil {
			return List{}, err
		}
		l.Entries = append(l.Entries, Entry{ID: id, Values: vals, Rank: first + int64(i)})
	}
	return l, nil
}

// plainRank is the ordinal rank of id on a board whose members are ids:
// one ZRANK.
func (b *Board) plainRank(ctx context.Context, id string) (int64, error) {
	return inGen(ctx, b, func(g *generation) (int64, error) {
		r, err := b.client.Do(ctx, b.client.B().Zrank().Key(g.keys.z).Member(id).Build()).AsInt64()
		if rueidis.IsRedisNil(err) {
			return 0, fmt.Errorf("board: id %q: %w", id, ErrNotFound)
		}
		if err != nil {
			return 0, redisErr("rank", err)
		}
		return r + 1, nil
	})
}

// leanGet is Get of a read that asks for nothing more than the entry and
// its ordinal rank. Where the member is the id: ZRANK ... WITHSCORE where
// the engine takes it (Redis and Valkey 7.2+), else ZSCORE and ZRANK in
// one MULTI/EXEC (one snapshot, one round trip, and cheaper for Redis
// than a script). Else get.lua, which finds the member in the id lookup.
func (b *Board) leanGet(ctx context.Context, id string) (Entry, error) {
	if b.memberIsID() && b.withScore() {
		e, err := b.rankWithScore(ctx, id)
		if !engine.IsRefusal(errors.Unwrap(err)) {
			return e, err
		}
		zrankWithScore.Refuse(b.given)
	}
	if b.memberIsID() {
		e, err := b.scoreAndRank(ctx, id)
		if !errors.Is(err, errMultiOOM) {
			return e, err
		}
	}
	strs, err := inGen(ctx, b, func(g *generation) ([]string, error) {
		return b.arrayReply("get", g.scripts.get.Exec(ctx, b.client, g.keys.script, []string{id}))
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

// rankWithScore is leanGet's ZRANK ... WITHSCORE. An engine that refuses
// the form gives an error whose Unwrap is the refusal.
func (b *Board) rankWithScore(ctx context.Context, id string) (Entry, error) {
	return inGen(ctx, b, func(g *generation) (Entry, error) {
		arr, err := b.client.Do(ctx, b.client.B().Zrank().Key(g.keys.z).Member(id).Withscore().Build()).ToArray()
		if rueidis.IsRedisNil(err) {
			return Entry{}, fmt.Errorf("board: id %q: %w", id, ErrNotFound)
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
		id, vals, err := b.decodeScore(s, id)
		return Entry{ID: id, Values: vals, Rank: r + 1}, err
	})
}

// errMultiOOM reports a MULTI/EXEC that Redis refused at its memory limit,
// where it refuses every command queued, reads too (a read-only script it
// runs): leanGet then reads with get.lua.
var errMultiOOM = errors.New("board: MULTI refused at the memory limit")

// scoreAndRank is leanGet's MULTI, ZSCORE, ZRANK, EXEC.
func (b *Board) scoreAndRank(ctx context.Context, id string) (Entry, error) {
	return inGen(ctx, b, func(g *generation) (Entry, error) {
		c := b.client
		res := c.DoMulti(ctx, c.B().Multi().Build(), c.B().Zscore().Key(g.keys.z).Member(id).Build(),
			c.B().Zrank().Key(g.keys.z).Member(id).Build(), c.B().Exec().Build())
		arr, err := res[len(res)-1].ToArray()
		if e, ok := rueidis.IsRedisErr(res[1].Error()); ok && strings.HasPrefix(e.Error(), "OOM") {
			return Entry{}, errMultiOOM
		}
		if err != nil {
			return Entry{}, redisErr("get", errors.Join(err, res[1].Error(), res[2].Error()))
		}
		if len(arr) != 2 {
			return Entry{}, fmt.Errorf("board: get: EXEC reply of %d elements: %w", len(arr), ErrReply)
		}
		s, err := arr[0].AsFloat64()
		if rueidis.IsRedisNil(err) {
			return Entry{}, fmt.Errorf("board: id %q: %w", id, ErrNotFound)
		}
		if err != nil {
			return Entry{}, redisErr("get", err)
		}
		r, err := arr[1].AsInt64()
		if err != nil {
			return Entry{}, redisErr("get", err)
		}
		id, vals, err := b.decodeScore(s, id)
		return Entry{ID: id, Values: vals, Rank: r + 1}, err
	})
}
