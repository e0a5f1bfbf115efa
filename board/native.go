package board

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisretry"
)

// native reports whether a submit of s can use Redis's own commands
// instead of submit.lua: a packed board whose writes keep nothing beside
// the entry (no dense index, cap, member data or expiry), not migrating,
// with Replace or Best and no expectation.
func (b *Board) native(g *generation, s Submission, expect string) bool {
	return g.mig == nil && g.state == "" && b.fence == "" && !b.suffix() && !b.opts.DenseRanks && b.opts.Cap == 0 && b.opts.expireAt.IsZero() &&
		s.Data == nil && expect == "" && (s.Policy == Replace || s.Policy == Best)
}

// submitNative writes s with one MULTI/EXEC through c: ZADD (LT for
// Best: the stored score is the negated packed value, so lower is better;
// CH counts a changed score), then, for Best, ZSCORE of the id (Replace
// stores the score sent), and ZRANK; one round trip, one atomic step, the
// same result as submit.lua's. Submit's own path, writeNative, sends the
// same commands, batched with other callers' under load.
func (b *Board) submitNative(ctx context.Context, c rueidis.Client, g *generation, s Submission) (Result, error) {
	score, _, err := b.encode(s.ID, s.Values)
	if err != nil {
		return Result{}, err
	}
	res := redisretry.DoMultiBuilt(ctx, c, func() rueidis.Commands {
		cmds := append(make(rueidis.Commands, 0, 5), c.B().Multi().Build())
		return append(b.appendNative(cmds, g.keys.z, s, score), c.B().Exec().Build())
	})
	arr, err := res[len(res)-1].ToArray()
	if err != nil {
		return Result{}, b.nativeErr(res, err)
	}
	if len(arr) != nativeReplies(s) {
		return Result{}, fmt.Errorf("board: submit: EXEC reply of %d elements, want %d: %w", len(arr), nativeReplies(s), ErrReply)
	}
	return b.nativeResult(s, score, arr)
}

// appendNative appends to cmds the commands of a native write of s, whose
// score is given, to the sorted set z: ZADD, ZSCORE (Best only), ZRANK.
func (b *Board) appendNative(cmds rueidis.Commands, z string, s Submission, score float64) rueidis.Commands {
	c := b.client
	zadd := c.B().Zadd().Key(z)
	if s.Policy == Replace {
		cmds = append(cmds, zadd.Ch().ScoreMember().ScoreMember(score, s.ID).Build())
	} else {
		cmds = append(cmds, zadd.Lt().Ch().ScoreMember().ScoreMember(score, s.ID).Build(),
			c.B().Zscore().Key(z).Member(s.ID).Build())
	}
	return append(cmds, c.B().Zrank().Key(z).Member(s.ID).Build())
}

// nativeReplies is how many replies the commands of a native write of s
// have in EXEC's: {changed, stored score, rank} for Best, {changed, rank}
// for Replace.
func nativeReplies(s Submission) int {
	if s.Policy == Replace {
		return 2
	}
	return 3
}

// nativeErr is the error of a native write: the first command's that
// failed (a tombstone's WRONGTYPE among them), else err.
func (b *Board) nativeErr(res []rueidis.RedisResult, err error) error {
	for _, r := range res[:len(res)-1] {
		if e := r.Error(); e != nil {
			return redisErr("submit", e)
		}
	}
	return redisErr("submit", err)
}

// nativeResult reads the replies arr (see nativeReplies) of a native
// write of s, whose score was sent.
func (b *Board) nativeResult(s Submission, sent float64, arr []rueidis.RedisMessage) (Result, error) {
	for i := range arr {
		if err := arr[i].Error(); err != nil {
			return Result{}, redisErr("submit", err)
		}
	}
	want := len(arr)
	changed, err1 := arr[0].AsInt64()
	rank, err2 := arr[want-1].AsInt64()
	stored, err3 := "", error(nil)
	if want == 3 {
		stored, err3 = arr[1].ToString()
	}
	if err1 != nil || err2 != nil || err3 != nil {
		return Result{}, fmt.Errorf("board: submit: EXEC reply: %w", ErrReply)
	}
	res := Result{Entry: Entry{ID: s.ID, Rank: rank + 1}, Changed: changed == 1}
	if want == 2 || storedIs(stored, sent) {
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

// storedIs reports whether the stored score, as ZSCORE replied it, is the
// score sent.
func storedIs(stored string, sent float64) bool {
	v, err := strconv.ParseFloat(stored, 64)
	return err == nil && v == sent
}
