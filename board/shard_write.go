package board

import (
	"context"
	"fmt"
	"math"
	"sync"
)

// Submit writes one entry on its shard in one atomic script, as
// Board.Submit does, and returns the stored entry with its rank on the
// whole board: a second round trip counts the entries before it on every
// other shard (none with one shard; with ShardedOptions.SkipWriteRank the
// rank is 0 and there is no second round trip). An entry outside the best
// Cap of the whole board has rank 0 and Trimmed set. It refuses what
// Board.Submit refuses, changing nothing.
func (sb *Sharded) Submit(ctx context.Context, s Submission) (Result, error) {
	owner := sb.shards[shardOf(s.ID, len(sb.shards))]
	res, err := owner.Submit(ctx, s)
	if err != nil {
		return res, err
	}
	return res, sb.rankWrite(ctx, owner, &res)
}

// rankWrite turns the shard rank of a write's result into its rank on the
// whole board.
func (sb *Sharded) rankWrite(ctx context.Context, owner *Board, res *Result) error {
	if res.Entry.Rank == 0 {
		return nil
	}
	if sb.opts.SkipWriteRank && len(sb.shards) > 1 {
		res.Entry.Rank = 0
		return nil
	}
	if err := sb.placeAll(ctx, []*Entry{&res.Entry}, owner, false); err != nil {
		return err
	}
	if res.Entry.Rank > sb.visible(math.MaxInt64) {
		res.Entry.Rank, res.Trimmed = 0, true
	}
	return nil
}

// Update reads, computes and compare-and-sets the entry of id on its shard,
// as Board.Update does (the entry fn sees carries its rank on its shard),
// and returns the stored entry ranked as Submit ranks it.
func (sb *Sharded) Update(ctx context.Context, id string, fn UpdateFunc) (Result, error) {
	owner := sb.shards[shardOf(id, len(sb.shards))]
	res, err := owner.Update(ctx, id, fn)
	if err != nil {
		return res, err
	}
	return res, sb.rankWrite(ctx, owner, &res)
}

// SubmitMany writes many entries, each in its own atomic script on its
// shard, every shard's part pipelined and all shards at once: one round
// trip. It returns one result per submission, in order, as
// Board.SubmitMany; each entry's Rank is its rank on its shard, not on the
// whole board (ranking every entry on every shard would cost the shards
// more than the writes: use Among or Rank). It refuses more than
// MaxSubmitMany submissions (ErrArgument), sending nothing.
func (sb *Sharded) SubmitMany(ctx context.Context, subs []Submission) []ManyResult {
	if len(subs) > MaxSubmitMany {
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
	return out
}

// each calls fn for every shard with a part, all at once, and waits.
func (sb *Sharded) each(parts [][]int, fn func(shard int, idx []int)) {
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

// Remove removes ids, each in one atomic script on its shard (all shards
// at once, one round trip), and returns how many were on the board. It
// refuses what Board.Remove refuses, removing nothing. A Remove over
// several shards is atomic per shard, not as a whole: on an error, the
// shards that answered have removed their ids.
func (sb *Sharded) Remove(ctx context.Context, ids ...string) (int64, error) {
	if len(ids) == 0 || len(ids) > MaxRemove {
		return 0, fmt.Errorf("board: Remove: len(ids) = %d out of range [1, %d]: %w", len(ids), MaxRemove, ErrArgument)
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

// SetData sets the member data of id on its shard, as Board.SetData does.
func (sb *Sharded) SetData(ctx context.Context, id string, data []byte) error {
	return sb.shards[shardOf(id, len(sb.shards))].SetData(ctx, id, data)
}
