package benchload

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// LoadChunk is the number of entries per bulk call (one pipelined round
// trip of SubmitMany, or of ZADD commands); LoadWorkers the chunks in
// flight at once, enough to keep Redis busy while the client encodes the
// next.
//
// A chunk stays under rueidis's DefaultBlockingPipeline (2,000 commands),
// so that it goes through the client's shared, auto-pipelined connection
// as an application's writes do. At 10,000 a chunk went to a dedicated
// connection of its own, and loads of a million dense-ranked entries
// failed about once in four runs (twice in a row on one day) with "use of
// closed network connection": rueidis closed the connection under the
// chunk. Why was not pinned down (its keep-alive closes a connection that
// gets no reply for a second and then no answer to its PING within ten);
// loads in chunks of 1,000 have not failed since.
const (
	LoadChunk   = 1_000
	LoadWorkers = 4
)

// progressEvery is how often a long load reports progress.
const progressEvery = 2 * time.Second

// chunkFunc writes entries [from, to).
type chunkFunc func(ctx context.Context, from, to int64) error

// loadChunks runs fn over [0, n) in chunks, LoadWorkers at a time,
// reporting progress under label, and returns the entries per second.
func loadChunks(ctx context.Context, env Env, label string, n int64, fn chunkFunc) (float64, error) {
	start := time.Now()
	var next, done, last atomic.Int64
	last.Store(start.UnixNano())
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range LoadWorkers {
		wg.Go(func() {
			for from := next.Add(LoadChunk) - LoadChunk; from < n && ctx.Err() == nil; from = next.Add(LoadChunk) - LoadChunk {
				to := min(from+LoadChunk, n)
				if err := fn(ctx, from, to); err != nil {
					once.Do(func() { first = err })
					return
				}
				d, now, l := done.Add(to-from), time.Now().UnixNano(), last.Load()
				if time.Duration(now-l) >= progressEvery && last.CompareAndSwap(l, now) {
					env.logf("%s: %d/%d (%.0f/s)", label, d, n, float64(d)/time.Since(start).Seconds())
				}
			}
		})
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	if first != nil {
		return 0, fmt.Errorf("%s: %w", label, first)
	}
	rate := float64(n) / time.Since(start).Seconds()
	env.logf("%s: %d done in %.1fs (%.0f/s)", label, n, time.Since(start).Seconds(), rate)
	return rate, nil
}

// loadBoard fills b with entries 0..n-1 (ids IDOf(i), values ent(i))
// through SubmitMany.
func loadBoard(ctx context.Context, env Env, label string, b *board.Board, n int64, ent func(int64) Entry) (float64, error) {
	return loadChunks(ctx, env, label, n, func(ctx context.Context, from, to int64) error {
		return submitChunk(ctx, b, from, to, ent)
	})
}

// submitChunk writes entries [from, to) of a board with one SubmitMany.
func submitChunk(ctx context.Context, b *board.Board, from, to int64, ent func(int64) Entry) error {
	subs := make([]board.Submission, 0, to-from)
	for i := from; i < to; i++ {
		subs = append(subs, board.Submission{ID: IDOf(i), Values: ent(i).Values()})
	}
	for _, r := range b.SubmitMany(ctx, subs) {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

// zaddPairs is the number of (score, member) pairs per ZADD of a bulk load.
const zaddPairs = 1000

// zaddChunk adds members IDOf(from)..IDOf(to-1) to key with score(i), a
// thousand per ZADD, in one pipelined round trip.
func zaddChunk(ctx context.Context, c rueidis.Client, key string, from, to int64, score func(i int64) float64) error {
	var cmds rueidis.Commands
	for i := from; i < to; i += zaddPairs {
		cmd := c.B().Zadd().Key(key).ScoreMember()
		for j := i; j < min(i+zaddPairs, to); j++ {
			cmd = cmd.ScoreMember(score(j), IDOf(j))
		}
		cmds = append(cmds, cmd.Build())
	}
	return redisops.FirstErr(c.DoMulti(ctx, cmds...))
}
