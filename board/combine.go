package board

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
)

// The native writes of one handle's concurrent callers share MULTI/EXECs
// (group commit): a write is sent at once while fewer than
// maxNativeSends are in flight; past that it joins the newest batch
// waiting for a send to end, which goes, whole, as one MULTI/EXEC when one
// does. A caller alone pays nothing; under load, MULTI and EXEC are sent
// once per batch instead of once per write, and each write is still its
// commands' own atomic step inside the transaction.
const (
	maxNativeSends = 8  // MULTI/EXECs of native writes in flight, per handle
	maxNativeBatch = 64 // writes in one MULTI/EXEC (about 0.2 ms of Redis time) or submitlean.lua call (about 0.6 ms)
	maxLeanSends   = 2  // calls of submitlean.lua in flight, per handle: fewer, larger calls than MULTI/EXECs, as each call's fixed cost is higher
)

// sendsOf is how many batches of native (or lean) writes may be in flight.
func sendsOf(lean bool) int {
	if lean {
		return maxLeanSends
	}
	return maxNativeSends
}

// nativeWrite is one write in a batch; replies (its part of EXEC's reply,
// or of submitlean.lua's) or err is set once the batch was sent. Its caller reads its result from
// them: the sender never reads another caller's values, which that
// caller may reuse once it has left.
type nativeWrite struct {
	writePlan
	replies   []rdb.Reply
	err       error
	withScore bool // sent with ZRANK ... WITHSCORE (see appendNative)
	skip      bool // its caller left before the batch was sent: not sent
}

// nativeBatch is the writes sent as one MULTI/EXEC to the sorted set z
// of generation g, or, lean, as one call of submitlean.lua: a key-suffix
// board's plain writes (see Board.submitsLean) share batches the same
// way, past maxLeanSends calls in flight, and the script makes each write
// in turn, each with its own part of the reply, reading the descriptor,
// the lookup's number of buckets and the writes' buckets once for all.
type nativeBatch struct {
	z       string
	g       *generation
	lean    bool // submitlean.lua's writes, not native ones
	writes  []*nativeWrite
	start   chan struct{} // closed when the batch may be sent (nil: at once)
	done    chan struct{} // closed when every write has its result
	sending bool          // taken from the queue: no write joins or leaves
}

// combiner gathers the native writes of one handle into batches.
type combiner struct {
	mu    sync.Mutex
	sends int            // batches in flight
	queue []*nativeBatch // batches waiting for a send to end, oldest first
}

// join adds w to a batch for z, native or lean, and reports whether its
// caller leads it (sends it); a led batch with a start channel waits for
// it first.
func (c *combiner) join(g *generation, w *nativeWrite, lean bool) (*nativeBatch, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	z := g.keys.z
	if c.sends < sendsOf(lean) && len(c.queue) == 0 {
		c.sends++
		return &nativeBatch{z: z, g: g, lean: lean, writes: []*nativeWrite{w}, sending: true}, true
	}
	if n := len(c.queue); n > 0 {
		if last := c.queue[n-1]; last.z == z && last.lean == lean && len(last.writes) < maxNativeBatch {
			last.writes = append(last.writes, w)
			return last, false
		}
	}
	nb := &nativeBatch{z: z, g: g, lean: lean, writes: []*nativeWrite{w}, start: make(chan struct{}), done: make(chan struct{})}
	c.queue = append(c.queue, nb)
	return nb, true
}

// release ends a send: its place goes to the oldest waiting batch, if any.
func (c *combiner) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		c.sends--
		return
	}
	next := c.queue[0]
	c.queue[0] = nil
	c.queue = c.queue[1:]
	next.sending = true
	close(next.start)
}

// leave takes w out of its batch, if the batch has not been sent yet, and
// reports whether it did.
func (c *combiner) leave(nb *nativeBatch, w *nativeWrite) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if nb.sending {
		return false
	}
	w.skip = true
	return true
}

// writeNative writes p as a native write of the generation g, or with
// submitlean.lua when lean, alone or in a batch (see combiner).
func (b *Board) writeNative(ctx context.Context, g *generation, p *writePlan, lean bool) (Result, error) {
	w := &nativeWrite{writePlan: *p}
	nb, lead := b.comb.join(g, w, lean)
	if lead {
		if nb.start != nil {
			<-nb.start                       // as long as the send before it
			ctx = context.WithoutCancel(ctx) // it carries other callers' writes
		}
		b.sendBatch(ctx, nb)
		b.comb.release()
		return b.writeResult(w, lean)
	}
	select {
	case <-nb.done:
		return b.writeResult(w, lean)
	case <-ctx.Done():
		if b.comb.leave(nb, w) {
			return Result{}, fmt.Errorf("board: submit: %w (nothing written)", ctx.Err())
		}
		return Result{}, fmt.Errorf("board: submit: %w (the write may have run)", ctx.Err())
	}
}

// writeResult is the result of the sent write w, native or lean.
func (b *Board) writeResult(w *nativeWrite, lean bool) (Result, error) {
	if w.err != nil {
		return Result{}, w.err
	}
	if lean {
		return b.leanResult(&w.writePlan, w.replies)
	}
	return b.nativeResult(&w.writePlan, w.replies, w.withScore)
}

// sendBatch sends nb's writes (those whose callers did not leave) in one
// MULTI/EXEC, gives each write its replies or the error, and closes
// nb.done.
func (b *Board) sendBatch(ctx context.Context, nb *nativeBatch) {
	ws := nb.writes[:0:0]
	for _, w := range nb.writes {
		if !w.skip {
			ws = append(ws, w)
		}
	}
	if nb.lean {
		b.sendLean(ctx, nb.g, ws)
		if nb.done != nil {
			close(nb.done)
		}
		return
	}
	withScore := b.withScore()
	send := func() []rdb.Result {
		for _, w := range ws {
			w.withScore = withScore
		}
		return b.conn.DoMulti(ctx, func(p *rdb.Pipe) { b.batchCommands(p, nb.g, ws) })
	}
	res := send()
	if withScore && refusedWithScore(res) {
		zrankWithScore.Refuse(b.conn.Client())
		withScore = false
		res = send()
	}
	arr, err := res[len(res)-1].ToArray()
	if err != nil {
		err = b.nativeErr(res, err)
	} else {
		err = b.batchResults(nb.g, ws, arr)
	}
	if err != nil {
		for _, w := range ws {
			w.err = err
		}
	}
	if nb.done != nil {
		close(nb.done)
	}
}

// batchCommands adds to p MULTI, the guard of generation g (see
// addGuard), each write's commands (see addNative), EXEC.
func (b *Board) batchCommands(p *rdb.Pipe, g *generation, ws []*nativeWrite) {
	p.Grow(2 + guardReplies(g) + 3*len(ws))
	p.Multi()
	b.addGuard(p, g)
	for _, w := range ws {
		b.addNative(p, g.keys.z, &w.writePlan, w.withScore)
	}
	p.Exec()
}

// batchResults gives each write its part of the EXEC reply arr.
func (b *Board) batchResults(g *generation, ws []*nativeWrite, arr []rdb.Reply) error {
	n := guardReplies(g)
	for _, w := range ws {
		n += nativeReplies(&w.writePlan, w.withScore)
	}
	if len(arr) != n {
		return fmt.Errorf("board: submit: EXEC reply of %d elements, want %d: %w", len(arr), n, ErrReply)
	}
	arr = arr[guardReplies(g):]
	for _, w := range ws {
		k := nativeReplies(&w.writePlan, w.withScore)
		w.replies, arr = arr[:k:k], arr[k:]
	}
	return nil
}

// sendLean sends the lean writes ws of generation g as one call of
// submitlean.lua and gives each write its reply, or the error.
func (b *Board) sendLean(ctx context.Context, g *generation, ws []*nativeWrite) {
	b.sendLeanOn(ctx, b.conn, g, ws)
}

// sendLeanOn is sendLean through client.
func (b *Board) sendLeanOn(ctx context.Context, client rdb.Conn, g *generation, ws []*nativeWrite) {
	args := make([]string, 0, 5*len(ws))
	for _, w := range ws {
		args = w.appendLeanArgs(args)
	}
	parts, err := b.leanParts(client.Run(ctx, g.scripts.submitLean, g.keys.lean(), args), len(ws))
	for i, w := range ws {
		if err != nil {
			w.err = err
		} else {
			w.replies = parts[i]
		}
	}
}

// leanParts is each of n writes' part of r, the reply of their
// submitlean.lua call (see splitLean), or the call's error.
func (b *Board) leanParts(r rdb.Result, n int) ([][]rdb.Reply, error) {
	arr, err := r.ToArray()
	if err != nil {
		return nil, b.scriptErr("submit", err)
	}
	return splitLean(arr, n)
}

// splitLean splits submitlean.lua's flat reply arr into each of its n
// writes' part: rank and code, then the stored member and score when the
// code is 2 or more.
func splitLean(arr []rdb.Reply, n int) ([][]rdb.Reply, error) {
	parts := make([][]rdb.Reply, 0, n)
	for len(arr) >= 2 && len(parts) < n {
		k := 2
		if code, err := arr[1].AsInt64(); err != nil {
			return nil, fmt.Errorf("board: submit reply: %w: %w", ErrReply, err)
		} else if code >= 2 {
			k = 4
		}
		if len(arr) < k {
			break
		}
		parts, arr = append(parts, arr[:k:k]), arr[k:]
	}
	if len(parts) != n || len(arr) != 0 {
		return nil, fmt.Errorf("board: submit: script reply for %d writes, want %d: %w", len(parts), n, ErrReply)
	}
	return parts, nil
}

// leanResult reads one write's part of submitlean.lua's reply (see
// splitLean) to p.
func (b *Board) leanResult(p *writePlan, part []rdb.Reply) (Result, error) {
	rank, err1 := part[0].AsInt64()
	code, err2 := part[1].AsInt64()
	if err := errors.Join(err1, err2); err != nil {
		return Result{}, fmt.Errorf("board: submit reply: %w: %w", ErrReply, err)
	}
	res := Result{Entry: Entry{ID: p.id, Rank: rank}, Changed: code%2 == 1}
	var err error
	res.Entry.Values, err = b.storedValues(p, part[2:])
	return res, err
}

// submitLeanOne writes p alone with submitlean.lua in generation g through
// client (see submitsLean).
func (b *Board) submitLeanOne(ctx context.Context, client rdb.Conn, g *generation, p *writePlan) (Result, error) {
	w := &nativeWrite{writePlan: *p}
	b.sendLeanOn(ctx, client, g, []*nativeWrite{w})
	return b.writeResult(w, true)
}
