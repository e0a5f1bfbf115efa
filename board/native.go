package board

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/engine"
)

// submitNative writes p (see writePlan.nativeIn) with one MULTI/EXEC
// through c: ZADD (LT for Best: the stored score is the negated packed
// value, so lower is better; CH counts a changed score), then ZRANK,
// which for Best is ZRANK ... WITHSCORE where the engine takes it (Redis
// 7.2, Valkey 8), else ZSCORE then ZRANK (Replace stores the score sent);
// one round trip, one atomic step, the same result as submit.lua's.
// Submit's own path, writeNative, sends the same commands, batched with
// other callers' under load.
func (b *Board) submitNative(ctx context.Context, c rdb.Conn, g *generation, p *writePlan) (Result, error) {
	send := func(withScore bool) []rdb.Result {
		return c.DoMulti(ctx, func(pp *rdb.Pipe) {
			pp.Grow(8)
			pp.Multi()
			b.addGuard(pp, g)
			b.addNative(pp, g.keys.z, p, withScore)
			pp.Exec()
		})
	}
	withScore := b.withScore()
	res := send(withScore)
	if withScore && refusedWithScore(res) {
		zrankWithScore.Refuse(b.conn.Client())
		withScore = false
		res = send(false)
	}
	arr, err := res[len(res)-1].ToArray()
	if err != nil {
		return Result{}, b.nativeErr(res, err)
	}
	if want := guardReplies(g) + nativeReplies(p, withScore); len(arr) != want {
		return Result{}, fmt.Errorf("board: submit: EXEC reply of %d elements, want %d: %w", len(arr), want, ErrReply)
	}
	return b.nativeResult(p, arr[guardReplies(g):], withScore)
}

// zrankWithScore is ZRANK ... WITHSCORE, whose reply holds the member's
// score beside its rank: a Best native write sends it instead of ZSCORE
// and ZRANK unless the engine of the client the board was given refused
// it (Redis 7.0), as the first write that sent it found, once per client.
var zrankWithScore engine.Form

// withScore reports whether b's native writes of Best send ZRANK ...
// WITHSCORE (see zrankWithScore).
func (b *Board) withScore() bool { return !zrankWithScore.Refused(b.conn.Client()) }

// refusedWithScore reports whether res, the replies of a native write's
// MULTI/EXEC, say that the engine refused ZRANK ... WITHSCORE: a command
// refused when queued, as an unknown form, and EXEC aborted (nothing ran).
func refusedWithScore(res []rdb.Result) bool {
	if !rdb.HasPrefix(res[len(res)-1].Error(), "EXECABORT") {
		return false
	}
	for _, r := range res[1 : len(res)-1] {
		if engine.IsRefusal(r.Error()) {
			return true
		}
	}
	return false
}

// guardReplies is how many replies appendGuard's commands have in
// generation g.
func guardReplies(g *generation) int {
	if g.n == 0 {
		return 1
	}
	return 2
}

// addGuard adds to p what a native write of generation g sends
// first, in its transaction: HSETNX of the descriptor in the meta HASH
// and, past generation 0, of the generation (a meta HASH without them
// reads as generation 0, live). On a board at rest they change nothing;
// on a board dropped since the handle read it, they make it whole again
// with the entry written, as submit.lua does. One command in generation
// 0: each costs Redis about as much as the write's own ZADD.
func (b *Board) addGuard(p *rdb.Pipe, g *generation) {
	p.HSetNX(g.keys.meta, fieldDesc, g.desc)
	if g.n != 0 {
		p.HSetNX(g.keys.meta, fieldGen, strconv.FormatInt(g.n, 10))
	}
}

// addNative adds to pp the commands of a native write of p to
// the sorted set z: ZADD, then for Best ZRANK ... WITHSCORE (withScore)
// or ZSCORE and ZRANK, for Replace ZRANK.
func (b *Board) addNative(pp *rdb.Pipe, z string, p *writePlan, withScore bool) {
	pp.ZAddCh(z, p.score, p.id, p.policy != Replace)
	switch {
	case p.policy == Replace:
	case withScore:
		pp.ZRankWithScore(z, p.id)
		return
	default:
		pp.ZScore(z, p.id)
	}
	pp.ZRank(z, p.id)
}

// nativeReplies is how many replies the commands of a native write of p
// have in EXEC's: {changed, stored score, rank} for Best, {changed, [rank,
// stored score]} for Best withScore, {changed, rank} for Replace.
func nativeReplies(p *writePlan, withScore bool) int {
	if p.policy == Replace || withScore {
		return 2
	}
	return 3
}

// nativeErr is the error of a native write: the first command's that
// failed (a tombstone's WRONGTYPE among them), else err.
func (b *Board) nativeErr(res []rdb.Result, err error) error {
	for _, r := range res[:len(res)-1] {
		if e := r.Error(); e != nil {
			return redisErr("submit", e)
		}
	}
	return redisErr("submit", err)
}

// nativeResult reads the replies arr (see nativeReplies) of a native
// write of p.
func (b *Board) nativeResult(p *writePlan, arr []rdb.Reply, withScore bool) (Result, error) {
	for i := range arr {
		if err := arr[i].Error(); err != nil {
			return Result{}, redisErr("submit", err)
		}
	}
	last := arr[len(arr)-1]
	changed, err1 := arr[0].AsInt64()
	var rank int64
	var err2, err3 error
	stored := ""
	switch {
	case p.policy == Replace:
		rank, err2 = last.AsInt64()
	case withScore:
		var pair []rdb.Reply
		if pair, err2 = last.ToArray(); err2 == nil && len(pair) != 2 {
			err2 = ErrReply
		}
		if err2 == nil {
			rank, err2 = pair[0].AsInt64()
			stored, err3 = pair[1].ToString()
		}
	default:
		rank, err2 = last.AsInt64()
		stored, err3 = arr[1].ToString()
	}
	if err1 != nil || err2 != nil || err3 != nil {
		return Result{}, fmt.Errorf("board: submit: EXEC reply: %w", ErrReply)
	}
	res := Result{Entry: Entry{ID: p.id, Rank: rank + 1}, Changed: changed == 1}
	if p.policy == Replace || storedIs(stored, p.score) {
		res.Entry.Values = p.sentValues()
		return res, nil
	}
	var err error
	_, res.Entry.Values, err = b.decode(stored, p.id)
	return res, err
}

// storedIs reports whether the stored score, as ZSCORE replied it, is the
// score sent.
func storedIs(stored string, sent float64) bool {
	v, err := strconv.ParseFloat(stored, 64)
	return err == nil && v == sent
}
