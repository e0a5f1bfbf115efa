package board

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/rueidis"
)

// native reports whether a submit of s can use Redis's own commands
// instead of submit.lua: a packed board whose writes keep nothing beside
// the entry (no dense index, cap, member data or expiry), not migrating,
// with Replace or Best and no expectation.
func (b *Board) native(g *generation, s Submission, expect string) bool {
	return g.mig == nil && g.state == "" && !b.suffix() && !b.opts.DenseRanks && b.opts.Cap == 0 && b.opts.expireAt.IsZero() &&
		s.Data == nil && expect == "" && (s.Policy == Replace || s.Policy == Best)
}

// submitNative writes s with one MULTI/EXEC: ZADD (LT for Best: the stored
// score is the negated packed value, so lower is better; CH counts a
// changed score), then ZSCORE and ZRANK of the id, one round trip, one
// atomic step, the same result as submit.lua's.
func (b *Board) submitNative(ctx context.Context, c rueidis.Client, g *generation, s Submission) (Result, error) {
	score, _, err := b.encode(s.ID, s.Values)
	if err != nil {
		return Result{}, err
	}
	zadd := c.B().Zadd().Key(g.keys.z)
	var add rueidis.Completed
	if s.Policy == Best {
		add = zadd.Lt().Ch().ScoreMember().ScoreMember(score, s.ID).Build()
	} else {
		add = zadd.Ch().ScoreMember().ScoreMember(score, s.ID).Build()
	}
	res := c.DoMulti(ctx, c.B().Multi().Build(), add,
		c.B().Zscore().Key(g.keys.z).Member(s.ID).Build(),
		c.B().Zrank().Key(g.keys.z).Member(s.ID).Build(),
		c.B().Exec().Build())
	arr, err := res[4].ToArray()
	if err != nil {
		return Result{}, b.nativeErr(res, err)
	}
	return b.nativeResult(s, score, arr)
}

// nativeErr is the error of a native write: the first command's that
// failed (a tombstone's WRONGTYPE among them), else err.
func (b *Board) nativeErr(res []rueidis.RedisResult, err error) error {
	for _, r := range res[:4] {
		if e := r.Error(); e != nil {
			return redisErr("submit", e)
		}
	}
	return redisErr("submit", err)
}

// nativeResult reads the EXEC reply {changed, stored score, rank} of a
// native write of s, whose score was sent.
func (b *Board) nativeResult(s Submission, sent float64, arr []rueidis.RedisMessage) (Result, error) {
	if len(arr) != 3 {
		return Result{}, fmt.Errorf("board: submit: EXEC reply of %d elements: %w", len(arr), ErrReply)
	}
	for i := range arr {
		if err := arr[i].Error(); err != nil {
			return Result{}, redisErr("submit", err)
		}
	}
	changed, err1 := arr[0].AsInt64()
	stored, err2 := arr[1].ToString()
	rank, err3 := arr[2].AsInt64()
	if err1 != nil || err2 != nil || err3 != nil {
		return Result{}, fmt.Errorf("board: submit: EXEC reply: %w", ErrReply)
	}
	res := Result{Entry: Entry{ID: s.ID, Rank: rank + 1}, Changed: changed == 1}
	if v, err := strconv.ParseFloat(stored, 64); err == nil && v == sent {
		res.Entry.Values = make([]float64, len(s.Values))
		for i, x := range s.Values {
			res.Entry.Values[i] = x + 0 // one zero: never -0
		}
		return res, nil
	}
	var err error
	_, res.Entry.Values, err = b.decode(stored, s.ID)
	return res, err
}
