package board

import (
	"context"
	"fmt"
	"math"
	"sync"
)

// Submit is sharded.Submit on this view.
func (sb *shardView) Submit(ctx context.Context, s Submission) (Result, error) {
	owner := sb.shards[shardOf(s.ID, len(sb.shards))]
	res, err := owner.Submit(ctx, s)
	if err != nil {
		return res, err
	}
	atStep("Submit", "written")
	return res, sb.rankWrite(ctx, owner, &res)
}

// rankWrite turns the shard rank of a write's result into its rank on the
// whole board.
func (sb *shardView) rankWrite(ctx context.Context, owner *Board, res *Result) error {
	if res.Entry.Rank == 0 {
		return nil
	}
	if sb.opts.SkipWriteRank && len(sb.shards) > 1 {
		res.Entry.Rank = 0
		return nil
	}
	if err := sb.placeAll(ctx, []*Entry{&res.Entry}, owner, readConfig{}); err != nil {
		// The ranking failed after the write (its context ended, a shard
		// was unreachable, a resharding switched between the two): the
		// write stands, and must not be sent again; its rank is unknown.
		res.Entry.Rank = 0
		return nil
	}
	if res.Entry.Rank > sb.visible(math.MaxInt64) {
		res.Entry.Rank, res.Trimmed = 0, true
	}
	return nil
}

// Update is sharded.Update on this view, counting its rounds in tries.
func (sb *shardView) Update(ctx context.Context, id string, fn updateFunc, tries *updateTries) (Result, error) {
	owner := sb.shards[shardOf(id, len(sb.shards))]
	res, err := owner.update(ctx, id, fn, tries)
	if err != nil {
		return res, err
	}
	return res, sb.rankWrite(ctx, owner, &res)
}

// SubmitMany is sharded.SubmitMany on this view.
func (sb *shardView) SubmitMany(ctx context.Context, subs []Submission) []ManyResult {
	if len(subs) > maxSubmitMany {
		return sb.probe.SubmitMany(ctx, subs) // refuses them all
	}
	parts := make([][]int, len(sb.shards))
	for i, s := range subs {
		j := shardOf(s.ID, len(sb.shards))
		parts[j] = append(parts[j], i)
	}
	out := make([]ManyResult, len(subs))
	sb.each(parts, func(shard int, idx []int) {
		mine := make([]Submission, len(idx))
		for j, i := range idx {
			mine[j] = subs[i]
		}
		for j, r := range sb.shards[shard].SubmitMany(ctx, mine) {
			out[idx[j]] = r
		}
	})
	sb.rankMany(ctx, out)
	return out
}

// rankMany turns the shard ranks of SubmitMany's written entries into
// their ranks on the whole board after the batch: each entry's rank counts
// the entries before it on every shard, its own included, read once every
// shard's part was written, so that the batch's entries rank one another
// as they stand at its end, whichever shard wrote first. One more round
// trip per maxAmong entries, as Among ranks them (none with SkipWriteRank,
// which leaves every Rank 0, or one shard); when it fails, the writes
// stand and their ranks are unknown (0).
func (sb *shardView) rankMany(ctx context.Context, out []ManyResult) {
	var es []*Entry
	for i := range out {
		if out[i].Err == nil && out[i].Entry.Rank != 0 {
			es = append(es, &out[i].Entry)
		}
	}
	if len(sb.shards) == 1 || len(es) == 0 {
		return
	}
	if sb.opts.SkipWriteRank {
		for _, e := range es {
			e.Rank = 0
		}
		return
	}
	for _, e := range es {
		e.Rank = 1 // placeAll adds the entries before it on every shard
	}
	for from := 0; from < len(es); from += maxAmong {
		part := es[from:min(from+maxAmong, len(es))]
		if err := sb.placeAll(ctx, part, everyShard, readConfig{}); err != nil {
			for _, e := range es[from:] {
				e.Rank = 0
			}
			return
		}
	}
	sb.unrankSuperseded(out)
	visible := sb.visible(math.MaxInt64)
	for i := range out {
		if e := &out[i].Entry; out[i].Err == nil && e.Rank > visible {
			e.Rank, out[i].Trimmed = 0, true
		}
	}
}

// unrankSuperseded takes out of the rank of each written entry that a
// later submission of the same id in the batch replaced the entry the
// board holds for that id after the batch: counted before it when better,
// it is not another entry but its own later self.
func (sb *shardView) unrankSuperseded(out []ManyResult) {
	last := make(map[string]int, len(out))
	for i := range out {
		if out[i].Err == nil {
			last[out[i].Entry.ID] = i
		}
	}
	if len(last) == len(out) {
		return // every id once
	}
	for i := range out {
		e := &out[i].Entry
		j := last[e.ID]
		if out[i].Err != nil || j == i || e.Rank == 0 {
			continue
		}
		fs, fm, err1 := sb.probe.encode(e.ID, out[j].Entry.Values)
		es, em, err2 := sb.probe.encode(e.ID, e.Values)
		if err1 == nil && err2 == nil && (fs < es || fs == es && fm < em) {
			e.Rank--
		}
	}
}

// each calls fn for every shard with a part, all at once, and waits.
func (sb *shardView) each(parts [][]int, fn func(shard int, idx []int)) {
	var wg sync.WaitGroup
	for shard, idx := range parts {
		if len(idx) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(shard, idx)
		}()
	}
	wg.Wait()
}

// Remove is sharded.Remove on this view.
func (sb *shardView) Remove(ctx context.Context, ids ...string) (int64, error) {
	if len(ids) == 0 || len(ids) > maxRemove {
		return 0, fmt.Errorf("board: Remove: len(ids) = %d out of range [1, %d]: %w", len(ids), maxRemove, ErrArgument)
	}
	parts := make([][]int, len(sb.shards))
	for i, id := range ids {
		if err := sb.probe.checkID(id); err != nil {
			return 0, err
		}
		j := shardOf(id, len(sb.shards))
		parts[j] = append(parts[j], i)
	}
	var mu sync.Mutex
	var total int64
	var errs []error
	sb.each(parts, func(shard int, idx []int) {
		mine := make([]string, len(idx))
		for j, i := range idx {
			mine[j] = ids[i]
		}
		n, err := sb.shards[shard].Remove(ctx, mine...)
		mu.Lock()
		defer mu.Unlock()
		total += n
		if err != nil {
			errs = append(errs, err)
		}
	})
	if len(errs) > 0 {
		return total, errs[0]
	}
	return total, nil
}

// SetData is sharded.SetData on this view.
func (sb *shardView) SetData(ctx context.Context, id string, data []byte) error {
	return sb.shards[shardOf(id, len(sb.shards))].SetData(ctx, id, data)
}
