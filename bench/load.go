package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tiebreak/tiebreak/board"
)

// loadChunk is the number of entries per bulk call (one pipelined round
// trip of SubmitMany, or of ZADD commands).
const loadChunk = 10_000

// loadWorkers is the number of chunks in flight at once: enough to keep
// Redis busy while the client encodes the next chunk.
const loadWorkers = 4

// chunkFunc writes entries [from, to) of a board.
type chunkFunc func(ctx context.Context, from, to int64) error

// loadChunks runs fn over [0, n) in chunks, loadWorkers at a time,
// reporting progress under label, and returns the entries per second.
func (h *harness) loadChunks(ctx context.Context, label string, n int64, fn chunkFunc) (float64, error) {
	t := h.log.newTicker(label, n)
	var next, done atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range loadWorkers {
		wg.Go(func() {
			for from := next.Add(loadChunk) - loadChunk; from < n && ctx.Err() == nil; from = next.Add(loadChunk) - loadChunk {
				to := min(from+loadChunk, n)
				if err := fn(ctx, from, to); err != nil {
					once.Do(func() { first = err })
					return
				}
				t.at(done.Add(to - from))
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
	return t.finish(), nil
}

// loadBoard fills b with entries 0..n-1 (ids idOf(i), values ent(i))
// through SubmitMany.
func (h *harness) loadBoard(ctx context.Context, label string, b *board.Board, n int64, ent func(int64) entry) (float64, error) {
	return h.loadChunks(ctx, label, n, func(ctx context.Context, from, to int64) error {
		return submitChunk(ctx, b, from, to, ent)
	})
}

// submitChunk writes entries [from, to) of a board with one SubmitMany.
func submitChunk(ctx context.Context, b *board.Board, from, to int64, ent func(int64) entry) error {
	subs := make([]board.Submission, 0, to-from)
	for i := from; i < to; i++ {
		subs = append(subs, board.Submission{ID: idOf(i), Values: ent(i).values()})
	}
	for _, r := range b.SubmitMany(ctx, subs) {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

// loadPlain fills the sorted set key with the same ids and the same stored
// scores as a packed board loaded by loadBoard: ZADD key -packed id.
func (h *harness) loadPlain(ctx context.Context, label, key string, n int64) (float64, error) {
	score := func(i int64) float64 { return -float64(loadEntry(i).packed()) }
	return h.loadChunks(ctx, label, n, func(ctx context.Context, from, to int64) error {
		return zaddChunk(ctx, h.client, key, from, to, score)
	})
}
