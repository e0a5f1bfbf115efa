package board

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// updateFunc is Update's fn.
type updateFunc = func(old *Entry) ([]float64, error)

// Update applies fn to the entry of id for logic a fixed policy cannot
// express: it reads the entry, calls fn, then writes the new values with a
// compare-and-set script that writes only if the entry is still what was
// read; otherwise it reads again and retries, with a short jittered pause.
//
// fn computes the entry's new values from its current one; old is nil when
// the id is not on the board. An error from fn aborts the update with that
// error and writes nothing. fn may be called several times, once per
// attempt.
//
// It gives up after Options.UpdateAttempts attempts (default 64, so a
// context without a deadline never retries forever) with an error
// wrapping ErrConflict, or when ctx ends while it retries after a
// conflict, with an error wrapping ErrConflict and the context's error (a
// ctx that ends before any conflict gives an error wrapping the
// context's error alone, as any call's). It refuses a nil fn and a bad
// id (ErrArgument); values fn returns are checked as Submit checks them
// (ErrArgument). Its write waits for replicas as Submit's does
// (Options.WaitReplicas).
func (b *Board) Update(ctx context.Context, id string, fn func(old *Entry) ([]float64, error)) (Result, error) {
	if err := b.usable(ctx); err != nil {
		return Result{}, err
	}
	if fn == nil {
		return Result{}, fmt.Errorf("board: update %q: a nil fn: %w", id, ErrArgument)
	}
	if b.sh != nil {
		return b.sh.Update(ctx, id, fn)
	}
	if b.opts.Observer != nil {
		var tries updateTries
		return observed.Call(ctx, b.opts.Observer, b.op("Update", 0), errKinds, func(ctx context.Context) (Result, error) { return b.update(ctx, id, fn, &tries) },
			func(r Result, o observe.Outcome) observe.Outcome { return tries.outcome(resultOutcome(r, o)) })
	}
	return b.update(ctx, id, fn, nil)
}

// updateTries counts an Update's attempts and the compare-and-sets it
// lost, for its observer.
type updateTries struct{ attempts, conflicts int }

func (t *updateTries) outcome(o observe.Outcome) observe.Outcome {
	o.Attempts, o.Conflicts, o.Has = t.attempts, t.conflicts, o.Has|observe.HasAttempts
	return o
}

// update is Update; it counts its attempts in tries when not nil.
func (b *Board) update(ctx context.Context, id string, fn updateFunc, tries *updateTries) (Result, error) {
	if err := b.checkID(id); err != nil {
		return Result{}, err
	}
	for attempt := 1; ; attempt++ {
		res, done, err := b.tryUpdate(ctx, id, fn)
		if tries != nil {
			tries.attempts = attempt
			if err == nil && !done {
				tries.conflicts++
			}
		}
		if err != nil && attempt > 1 && ctx.Err() != nil {
			// The context ended while retrying after conflicts.
			return Result{}, fmt.Errorf("board: update %q after %d attempts: %w: %w", id, attempt, ErrConflict, err)
		}
		if done || err != nil {
			return res, err
		}
		if attempt >= b.opts.UpdateAttempts {
			return Result{}, fmt.Errorf("board: update %q: %w: %w after %d attempts (Options.UpdateAttempts)",
				id, ErrConflict, errRetriesExhausted, attempt)
		}
		if err := pause(ctx, attempt-1); err != nil {
			return Result{}, fmt.Errorf("board: update %q after %d attempts: %w: %w", id, attempt, ErrConflict, err)
		}
	}
}

// tryUpdate makes one read-compute-write attempt; done is false when a
// concurrent writer won.
func (b *Board) tryUpdate(ctx context.Context, id string, fn updateFunc) (Result, bool, error) {
	var old *Entry
	expect := &expectation{op: "-"}
	e, err := b.rank(ctx, "update", id, Ordinal, []ReadOption{AsSelf()}) // a hidden member's own entry
	switch {
	case err == nil:
		old = &e
		s, m, encErr := b.encode(e.ID, e.Values)
		if encErr != nil {
			return Result{}, false, encErr
		}
		expect = &expectation{op: "=", score: fmtFloat(s), member: m}
	case !errors.Is(err, ErrNotFound):
		return Result{}, false, err
	}
	vals, err := fn(old)
	if err != nil {
		return Result{}, false, err
	}
	p, err := b.plan(Submission{ID: id, Values: vals}, expect)
	if err != nil {
		return Result{}, false, err
	}
	res, conflict, err := b.submit(ctx, &p)
	return res, !conflict, err
}

// pause waits a little before the next attempt, longer after more
// attempts (up to about 50ms), or returns ctx's error.
func pause(ctx context.Context, attempt int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	d := time.Duration(1+rand.IntN(1<<min(attempt, 5))) * time.Millisecond
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// ManyResult is the outcome of one submission of SubmitMany.
type ManyResult struct {
	Result
	// Err is the submission's error, nil when it was written.
	Err error
}

// SubmitMany writes many entries in one pipelined round trip (at most
// 100,000; more are all refused with ErrArgument, nothing sent), in
// order, each in its own atomic script: one EVALSHA each (on a key-suffix
// board, plain writes, Replace or Best with nothing else, go up to 64 in
// one, made in turn, when the call holds nothing else; a call that mixes
// them with others sends them all one by one with the script of the
// others, so that one script runs them, in order); in a second round
// trip, those a server answered NOSCRIPT go again, in order, the first as
// the EVAL that loads the script (never SCRIPT LOAD, so it talks only to
// the nodes of the board's keys).
// It returns one result per submission, in order; an invalid submission
// gets its error without being sent, and does not stop the others. Each
// written entry's Rank is its rank when its script ran; on a sharded
// board, whose shards write their parts at once, it is its rank on the
// whole board after the batch (docs/boards.md).
//
// With Options.WaitReplicas, a WAIT follows each pipeline, in the same
// round trip; when fewer replicas acknowledged the last, every submission
// written gets its result with an error wrapping ErrNotReplicated.
func (b *Board) SubmitMany(ctx context.Context, subs []Submission) []ManyResult {
	if err := b.usable(ctx); err != nil {
		out := make([]ManyResult, len(subs))
		for i := range out {
			out[i].Err = err
		}
		return out
	}
	if b.sh != nil {
		return b.sh.SubmitMany(ctx, subs)
	}
	if b.opts.Observer != nil {
		rs, _ := observed.Call(ctx, b.opts.Observer, b.op("SubmitMany", len(subs)), errKinds, func(ctx context.Context) ([]ManyResult, error) { return b.submitManyOf(ctx, subs), nil }, manyOutcome)
		return rs
	}
	return b.submitManyOf(ctx, subs)
}

// submitManyOf is SubmitMany.
func (b *Board) submitManyOf(ctx context.Context, subs []Submission) []ManyResult {
	out := make([]ManyResult, len(subs))
	if len(subs) > maxSubmitMany {
		err := fmt.Errorf("board: SubmitMany: len(subs) = %d over maxSubmitMany = %d: %w", len(subs), maxSubmitMany, ErrArgument)
		for i := range out {
			out[i].Err = err
		}
		return out
	}
	plans := make([]writePlan, len(subs))
	todo := make([]int, 0, len(subs))
	for i, s := range subs {
		p, err := b.plan(s, nil)
		if err != nil {
			out[i].Err = err
			continue
		}
		plans[i], todo = p, append(todo, i)
	}
	_, err := rdb.Durable(ctx, b.conn, b.opts.wait(), "board: submit many", func(c rdb.Conn) (struct{}, error) {
		b.submitAll(ctx, c, plans, todo, out)
		return struct{}{}, nil
	})
	if err != nil {
		for i := range out {
			if out[i].Err == nil {
				out[i].Err = err
			}
		}
	}
	return out
}

// submitAll sends the plans listed in todo on c and writes their results
// to out, sending again those that found the board moved to another
// generation.
func (b *Board) submitAll(ctx context.Context, c rdb.Conn, plans []writePlan, todo []int, out []ManyResult) {
	g := b.gen.Load()
	for reloads := 0; ; reloads++ {
		todo = b.submitMany(ctx, c, g, plans, todo, out)
		if len(todo) == 0 || reloads == maxReloads {
			return
		}
		var err error
		if g, err = b.reload(ctx, g); err != nil {
			for _, i := range todo {
				out[i] = ManyResult{Err: err}
			}
			return
		}
	}
}

// submitMany sends the plans listed in todo, pipelined, and writes their
// results to out: with submitlean.lua, up to maxNativeBatch plans a call,
// when every plan can go so (see submitsLean); otherwise all with
// submit.lua, one plan a call. One script for all of them: a server that
// lost its scripts answers every call NOSCRIPT, and they go again in
// order, where a server holding one of two scripts would run its calls
// before the other's. It returns the plans that found the board in
// another generation, to send again.
func (b *Board) submitMany(ctx context.Context, client rdb.Conn, g *generation, plans []writePlan, todo []int, out []ManyResult) []int {
	lean := true
	for _, i := range todo {
		lean = lean && b.submitsLean(g, &plans[i])
	}
	var calls []luascript.Call
	var sent [][]int // the plans each call writes
	if lean {
		calls, sent = b.leanCalls(g, plans, todo, calls, sent)
	} else {
		calls, sent = b.scriptCalls(g, plans, todo, out, calls, sent)
	}
	return b.sendCalls(ctx, client, g, plans, calls, sent, out, nil)
}

// sendCalls sends calls in one pipelined round trip, writes the results
// of the plans each writes (sent) to out, and returns again with those
// that found the board in another generation appended.
func (b *Board) sendCalls(ctx context.Context, client rdb.Conn, g *generation, plans []writePlan, calls []luascript.Call, sent [][]int, out []ManyResult, again []int) []int {
	if len(calls) == 0 {
		return again
	}
	for j, r := range client.RunEach(ctx, calls) {
		if calls[j].Script == g.scripts.submitLean {
			again = b.leanResults(plans, sent[j], r, out, again)
			continue
		}
		i := sent[j][0]
		res, _, err := b.finish(&plans[i], r)
		out[i] = ManyResult{Result: res, Err: err}
		if errors.Is(err, errStale) {
			again = append(again, i)
		}
	}
	return again
}

// scriptCalls appends to calls a submit.lua call for each plan listed in
// todo, and to sent its plan; a plan whose arguments fail gets its error
// in out instead.
func (b *Board) scriptCalls(g *generation, plans []writePlan, todo []int, out []ManyResult, calls []luascript.Call, sent [][]int) ([]luascript.Call, [][]int) {
	for k, i := range todo {
		args, err := b.scriptArgs(&plans[i])
		if err != nil {
			out[i].Err = err
			continue
		}
		calls = append(calls, luascript.Call{Script: g.scripts.submit, Keys: b.scriptKeys(g, &plans[i]), Args: args})
		sent = append(sent, todo[k:k+1])
	}
	return calls, sent
}

// leanCalls appends to calls the submitlean.lua calls of the plans listed
// in todo, up to maxNativeBatch a call, and to sent the plans of each.
func (b *Board) leanCalls(g *generation, plans []writePlan, todo []int, calls []luascript.Call, sent [][]int) ([]luascript.Call, [][]int) {
	for from := 0; from < len(todo); from += maxNativeBatch {
		part := todo[from:min(from+maxNativeBatch, len(todo))]
		args := make([]string, 0, 5*len(part))
		for _, i := range part {
			args = plans[i].appendLeanArgs(args)
		}
		calls = append(calls, luascript.Call{Script: g.scripts.submitLean, Keys: g.keys.lean(), Args: args})
		sent = append(sent, part)
	}
	return calls, sent
}

// leanResults writes to out the results of the plans listed in sent from
// r, the reply of their submitlean.lua call, and returns again with those
// that found the board in another generation appended.
func (b *Board) leanResults(plans []writePlan, sent []int, r rdb.Result, out []ManyResult, again []int) []int {
	parts, err := b.leanParts(r, len(sent))
	for k, i := range sent {
		if err != nil {
			out[i] = ManyResult{Err: err}
			if errors.Is(err, errStale) {
				again = append(again, i)
			}
			continue
		}
		res, werr := b.leanResult(&plans[i], parts[k])
		out[i] = ManyResult{Result: res, Err: werr}
	}
	return again
}
