package board

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// The public methods of sharded: each runs on the current view of the
// shards, and again on the new one when a resharding moved them (onView).

// Len returns the number of entries: the sum of the shards' (at most Cap),
// in one round trip.
func (sb *sharded) Len(ctx context.Context) (int64, error) {
	return observeView(ctx, sb, sb.op("Len", 0), observed.Count[int64], func(ctx context.Context, v *shardView) (int64, error) { return v.Len(ctx) })
}

// Get returns the entry of id with its ordinal rank on the whole board
// (and the competition rank WithRanks asks for): two round trips, the
// shard of id then the others, one when there is one shard. It refuses an
// invalid id (ErrArgument) and Dense (ErrArgument), and reports an id not
// on the board (or beyond the cap) as ErrNotFound.
func (sb *sharded) Get(ctx context.Context, id string, opts ...ReadOption) (Entry, error) {
	return observeView(ctx, sb, sb.op("Get", 0), entryOutcome, func(ctx context.Context, v *shardView) (Entry, error) { return v.Get(ctx, id, opts...) })
}

// Rank returns the rank of id of the given kind on the whole board, 1 =
// best, as Get does. It refuses Dense (ErrArgument) and an unknown
// kind (ErrArgument).
func (sb *sharded) Rank(ctx context.Context, id string, kind RankKind) (int64, error) {
	op := sb.op("Rank", 0)
	op.Policy = kind.String()
	return observeView(ctx, sb, op, rankOutcome, func(ctx context.Context, v *shardView) (int64, error) { return v.Rank(ctx, id, kind) })
}

// Top returns the best n entries of the whole board, in one round trip:
// each shard's best n, merged. It refuses n outside [1, 1000]
// (ErrArgument) and Dense (ErrArgument).
func (sb *sharded) Top(ctx context.Context, n int, opts ...ReadOption) (List, error) {
	return observeView(ctx, sb, sb.op("Top", n), listOutcome, func(ctx context.Context, v *shardView) (List, error) { return v.Top(ctx, n, opts...) })
}

// Page returns up to n entries starting at the 0-based offset, as
// Board.Page. At offset 0, or while Shards*(offset+n) is at most 2,000, it
// makes one round trip (each shard's first offset+n entries, merged);
// deeper, two: each shard's entries at about 40 sampled positions, which
// bound where the page lies in every shard, then the entries between the
// bounds. A shard holds a random share of the ids, so the second reads
// about n + sqrt(offset*Shards) entries in all. With one shard it is
// that shard's Page. It refuses what Board.Page refuses.
func (sb *sharded) Page(ctx context.Context, offset int64, n int, opts ...ReadOption) (List, error) {
	return observeView(ctx, sb, sb.op("Page", n), listOutcome, func(ctx context.Context, v *shardView) (List, error) { return v.Page(ctx, offset, n, opts...) })
}

// Between returns up to n entries, skipping offset, whose first field lies
// in [lo, hi], best first, as Board.Between, in one round trip or, deeper,
// two (as Page). It refuses what Board.Between
// refuses.
func (sb *sharded) Between(ctx context.Context, lo, hi float64, offset int64, n int, opts ...ReadOption) (List, error) {
	return observeView(ctx, sb, sb.op("Between", n), listOutcome, func(ctx context.Context, v *shardView) (List, error) {
		return v.Between(ctx, lo, hi, offset, n, opts...)
	})
}

// Around returns n entries around id, id among them and as central as the
// edges allow, as Board.Around: two round trips, the shard of id, then
// every shard's n-1 entries before id and n from it, merged. When id
// moves between the two, Around reads again, so the list always holds id;
// an id that moved between the round trips of 8 reads is ErrConflict. It
// refuses what Board.Around refuses, and Dense (ErrArgument); an id not on
// the board, or beyond the cap, is ErrNotFound.
func (sb *sharded) Around(ctx context.Context, id string, n int, opts ...ReadOption) (List, error) {
	return observeView(ctx, sb, sb.op("Around", n), listOutcome, func(ctx context.Context, v *shardView) (List, error) { return v.Around(ctx, id, n, opts...) })
}

// Scan returns up to n entries that come strictly after cursor, best
// first, as Board.Scan, in one round trip: each shard's n+2 entries from
// the cursor, merged. Cursors of a sharded board and of a board are alike.
// It refuses what Board.Scan refuses, and Dense (ErrArgument).
func (sb *sharded) Scan(ctx context.Context, cursor string, n int, opts ...ReadOption) (scanPage, error) {
	return observeView(ctx, sb, sb.op("Scan", n), func(p scanPage, o observe.Outcome) observe.Outcome { return observed.Count(len(p.Entries), o) }, func(ctx context.Context, v *shardView) (scanPage, error) { return v.Scan(ctx, cursor, n, opts...) })
}

// Among returns the entries of ids, best first, each with its rank among
// them and its ranks on the whole board, as Board.Among: two round trips,
// each shard's own ids, then every shard's count before each entry of the
// others (one with one shard). Ids beyond the cap are listed in Absent. It
// refuses what Board.Among refuses, and Dense (ErrArgument).
func (sb *sharded) Among(ctx context.Context, ids []string, opts ...ReadOption) (amongList, error) {
	return observeView(ctx, sb, sb.op("Among", len(ids)), func(l amongList, o observe.Outcome) observe.Outcome { return observed.Count(len(l.Entries), o) }, func(ctx context.Context, v *shardView) (amongList, error) { return v.Among(ctx, ids, opts...) })
}

// Submit writes one entry on its shard in one atomic script, as
// Board.Submit does, and returns the stored entry with its rank on the
// whole board: a second round trip counts the entries before it on every
// other shard (none with one shard; with shardedOptions.SkipWriteRank the
// rank is 0 and there is no second round trip; so it is when a resharding
// switches between the two, or when that round trip fails: its context
// ends, a shard is unreachable. The write stands, and is never sent
// twice: Submit returns the stored entry, with no error). An
// entry outside the best Cap of the whole board has rank 0 and Trimmed
// set. It refuses what Board.Submit refuses, changing nothing.
func (sb *sharded) Submit(ctx context.Context, s Submission) (Result, error) {
	return observeView(ctx, sb, sb.submitOp(s), resultOutcome, func(ctx context.Context, v *shardView) (Result, error) { return v.Submit(ctx, s) })
}

// Update reads, computes and compare-and-sets the entry of id on its shard,
// as Board.Update does (the entry fn sees carries its rank on its shard),
// and returns the stored entry ranked as Submit ranks it.
func (sb *sharded) Update(ctx context.Context, id string, fn updateFunc) (Result, error) {
	var tries updateTries
	out := func(r Result, o observe.Outcome) observe.Outcome { return tries.outcome(resultOutcome(r, o)) }
	return observeView(ctx, sb, sb.op("Update", 0), out, func(ctx context.Context, v *shardView) (Result, error) { return v.Update(ctx, id, fn, &tries) })
}

// Remove removes ids, each in one atomic script on its shard (all shards
// at once, one round trip), and returns how many were on the board. It
// refuses what Board.Remove refuses, removing nothing. A Remove over
// several shards is atomic per shard, not as a whole: on an error, the
// shards that answered have removed their ids. When a resharding froze a
// shard, the ids of the other shards are removed at once and the rest on
// the new shards: the count is of both.
func (sb *sharded) Remove(ctx context.Context, ids ...string) (int64, error) {
	var before int64 // removed by attempts that met a frozen or retired shard
	return observeView(ctx, sb, sb.op("Remove", len(ids)), removedOutcome, func(ctx context.Context, v *shardView) (int64, error) {
		n, err := v.Remove(ctx, ids...)
		if errors.Is(err, errFrozen) || errors.Is(err, errRetired) {
			before += n
			return before, err
		}
		return before + n, err
	})
}

// SetData sets the member data of id on its shard, as Board.SetData does.
func (sb *sharded) SetData(ctx context.Context, id string, data []byte) error {
	_, err := observeView(ctx, sb, sb.op("SetData", 0), nil, func(ctx context.Context, v *shardView) (struct{}, error) { return struct{}{}, v.SetData(ctx, id, data) })
	return err
}

// SubmitMany writes many entries, each in its own atomic script on its
// shard, every shard's part pipelined as Board.SubmitMany pipelines it and
// all shards at once: one round trip (more as Board.SubmitMany says), then
// one more per 1,000 entries written that ranks them on the whole board
// as they stand after the batch, the batch's own entries counted on every
// shard whichever wrote first (none with SkipWriteRank, whose entries
// have Rank 0). That ranking costs Redis more than the writes (3.7 times
// their CPU for 1,000 entries on 4 shards): a bulk load sets
// SkipWriteRank. It returns one result per submission, in order, as
// Board.SubmitMany. It refuses more than 100,000 submissions
// (ErrArgument), sending nothing.
func (sb *sharded) SubmitMany(ctx context.Context, subs []Submission) []ManyResult {
	if sb.opts.Observer != nil {
		rs, _ := observed.Call(ctx, sb.opts.Observer, sb.op("SubmitMany", len(subs)), errKinds,
			func(ctx context.Context) ([]ManyResult, error) { return sb.submitMany(ctx, subs), nil }, manyOutcome)
		return rs
	}
	return sb.submitMany(ctx, subs)
}

// reshardWait bounds how long a call waits for a resharding to switch to
// its new shards: past it, the call fails with an error wrapping
// ErrMigrating.
const reshardWait = 10 * time.Second

// op describes the operation name of sb asking for n entries.
func (sb *sharded) op(name string, n int) observe.Op {
	return observe.Op{Package: "board", Name: name, Object: sb.name, Strategy: sb.opts.Strategy.String(), N: int64(n)}
}

// submitOp describes a Submit of s.
func (sb *sharded) submitOp(s Submission) observe.Op {
	o := sb.op("Submit", 0)
	o.Policy = policyName(s)
	return o
}

// observeView runs op on the current view (onView), under a span of
// Options.Observer when the board has one; out adds what the result tells
// to the span's outcome. The shards' own handles observe nothing, so that
// one call makes one span.
func observeView[T any](ctx context.Context, sb *sharded, o observe.Op, out func(T, observe.Outcome) observe.Outcome,
	op func(context.Context, *shardView) (T, error)) (T, error) {
	call := func(ctx context.Context) (T, error) {
		return onView(ctx, sb, func(v *shardView) (T, error) { return op(ctx, v) })
	}
	if sb.opts.Observer != nil {
		return observed.Call(ctx, sb.opts.Observer, o, errKinds, call, out)
	}
	return call(ctx)
}

// onView runs op on the current view of the shards; when a shard answers
// that a resharding froze or retired it, it reads the board's descriptor
// again and runs op on the new view, waiting while the resharding
// switches (writes to frozen shards wait; nothing was written).
func onView[T any](ctx context.Context, sb *sharded, op func(v *shardView) (T, error)) (T, error) {
	deadline := time.Now().Add(reshardWait)
	for attempt := 0; ; attempt++ {
		v := sb.view.Load()
		res, err := op(v)
		if !errors.Is(err, errFrozen) && !errors.Is(err, errRetired) {
			return res, err
		}
		if werr := sb.awaitView(ctx, v, attempt, deadline); werr != nil {
			return res, errors.Join(err, werr)
		}
	}
}

// awaitView reads the board's descriptor again after view v met a frozen
// or retired shard, and pauses unless it found new shards. When the
// resharding that froze the shards lost its process (its lease ran out),
// it revokes the lease and thaws them (rescue), so that writes go on.
func (sb *sharded) awaitView(ctx context.Context, v *shardView, attempt int, deadline time.Time) error {
	if time.Now().After(deadline) {
		return fmt.Errorf("board: %s: the resharding did not switch within %v: %w", sb.name, reshardWait, ErrMigrating)
	}
	if err := sb.reload(ctx, v); err != nil {
		return err
	}
	if sb.view.Load() != v {
		_ = sb.retireOld(ctx) // at best: the write goes on; the next handle to look retires them
		return nil
	}
	if thawed, err := sb.rescue(ctx, v); err != nil || thawed {
		return err
	}
	return pause(ctx, min(attempt, 6))
}

// rescue thaws the frozen shards of view v when the resharding's lease
// ran out (reshard.lua's revoke), and reads the state of every frozen
// shard again (the process that froze them may have thawed them, its
// check having failed); it reports whether a shard of v is no longer
// frozen.
func (sb *sharded) rescue(ctx context.Context, v *shardView) (bool, error) {
	l := &lease{sb: sb}
	r, err := l.call(ctx, "revoke")
	if err != nil {
		return false, err
	}
	thawed := false
	for _, s := range v.shards {
		if s.gen.Load().state != phaseFrozen {
			continue
		}
		if r == "revoked" {
			err = s.thaw(ctx)
		} else {
			err = s.refresh(ctx)
		}
		if errors.Is(err, errRetired) {
			return true, nil // switched meanwhile: the next try reads the new shards
		}
		if err != nil {
			return false, err
		}
		thawed = thawed || s.gen.Load().state != phaseFrozen
	}
	return thawed, nil
}

// reload reads the board's descriptor and, when it lists other shards
// than view old, makes them the current view.
func (sb *sharded) reload(ctx context.Context, old *shardView) error {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.view.Load() != old {
		return nil
	}
	m, err := readMeta(ctx, sb.conn, sb.name, prefixOf("", sb.name), "")
	if err != nil || m.desc == old.desc.encoded() {
		return err
	}
	if m.desc == "" {
		return fmt.Errorf("board: %s: %w", sb.name, notStored("the board"))
	}
	d, err := parseDescriptor(sb.name, m.desc)
	if err != nil {
		return err
	}
	v, err := sb.viewOf(d)
	if err == nil {
		err = v.connect(ctx, sb.conn)
	}
	if err != nil {
		return err
	}
	sb.view.Store(v)
	return nil
}

// submitMany is SubmitMany, sending again the submissions that met a
// frozen or retired shard, on the new view.
func (sb *sharded) submitMany(ctx context.Context, subs []Submission) []ManyResult {
	out := make([]ManyResult, len(subs))
	todo := make([]int, len(subs))
	for i := range todo {
		todo[i] = i
	}
	deadline := time.Now().Add(reshardWait)
	for attempt := 0; len(todo) > 0; attempt++ {
		v := sb.view.Load()
		mine := make([]Submission, len(todo))
		for j, i := range todo {
			mine[j] = subs[i]
		}
		var again []int
		for j, r := range v.SubmitMany(ctx, mine) {
			out[todo[j]] = r
			if errors.Is(r.Err, errFrozen) || errors.Is(r.Err, errRetired) {
				again = append(again, todo[j])
			}
		}
		if len(again) > 0 {
			if err := sb.awaitView(ctx, v, attempt, deadline); err != nil {
				return out
			}
		}
		todo = again
	}
	return out
}
