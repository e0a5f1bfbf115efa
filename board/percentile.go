package board

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// Percentile is where an entry stands on its board, as a share of the
// board: "top x%". Its ordinal rank lies in [MinRank, MaxRank]; Top and
// Error say the same as shares of Total.
type Percentile struct {
	// Top is the share of the board's entries that are at the entry's
	// rank or better, rank / Total: 1/Total for the best entry, 1 for the
	// last. When the rank is known to lie in [MinRank, MaxRank] only (a
	// sharded board), Top is the middle, (MinRank+MaxRank) / 2 / Total.
	Top float64
	// Error is the most that Top can differ from the exact share:
	// (MaxRank-MinRank) / 2 / Total; 0 when the rank is exact.
	Error float64
	// MinRank and MaxRank bound the entry's ordinal rank (1 = best):
	// MinRank <= rank <= MaxRank, equal when the rank is exact.
	MinRank, MaxRank int64
	// Total is the number of entries on the board, as Len counts them
	// (at most Cap), in the same snapshot.
	Total int64
}

// newPercentile is the Percentile of a rank in [lo, hi] among total
// entries.
func newPercentile(lo, hi, total int64) Percentile {
	t := float64(total)
	return Percentile{
		Top:     float64(lo+hi) / 2 / t,
		Error:   float64(hi-lo) / 2 / t,
		MinRank: lo, MaxRank: hi, Total: total,
	}
}

// Percentile returns where the entry of id stands on the board as a share
// of its entries (Percentile.Top: 0.01 is the top 1%), with the most that
// share can be off (Percentile.Error) and the range its ordinal rank lies
// in.
//
// On a board of one hash tag (a plain board, a board of a group, a
// periodic window, an archive) the answer is exact (Error 0, MinRank =
// MaxRank = Rank): the entry's ZRANK and the board's ZCARD, in one script,
// one round trip, one snapshot. A hidden entry (Options.Hiding) is not
// found (ErrNotFound), and counts for no other entry.
//
// On a sharded board it makes one round trip whatever the number of
// shards, all shards asked at once, and counts no entry one by one: each
// shard keeps, in the same scripts as its writes, a histogram of its
// entries' stored scores (buckets of the sign, the power of two and one
// of its 32 equal parts: scores of a bucket differ by less than 1/32 of
// their magnitude). The id's own shard gives the entry's exact rank among
// its entries and its score's bucket; every other shard its histogram, of
// which the buckets better than the entry's count exactly and the
// entry's own bucket is the uncertainty: the rank lies in [MinRank,
// MaxRank], MaxRank - MinRank being the entries of the other shards in
// the bucket of the entry's stored score, and Error = (MaxRank -
// MinRank) / 2 / Total. The stored score is the whole packed tuple on a
// PackedScore board (Error is then the entries of the other shards whose
// tuples pack within 1/32 of the entry's), the first field only on a
// KeySuffix board (so ties in the first field are uncertain whatever the
// other fields). With one shard, the answer is exact. On a board with a
// Cap, the entries beyond the best Cap of the board are not on it: an
// entry whose MinRank is beyond is ErrNotFound, and one whose MaxRank
// would be is ranked exactly, in one more round trip (ErrNotFound beyond
// the cap), so that MaxRank is at most Cap. A read across shards is not one snapshot: while writes go on, the
// bound holds for the entries as each shard saw them.
//
// It refuses an invalid id (ErrArgument), reports an id not on the board
// as ErrNotFound, and, on a sharded board, a shard whose histogram does
// not count all its entries (written by hand, not by the package's
// scripts) as ErrReply; it changes nothing.
func (b *Board) Percentile(ctx context.Context, id string) (Percentile, error) {
	if err := b.usable(ctx); err != nil {
		return Percentile{}, err
	}
	if b.sh != nil {
		return observeView(ctx, b.sh, b.sh.op("Percentile", 0), percentileOutcome, func(ctx context.Context, v *shardView) (Percentile, error) {
			return v.percentile(ctx, id)
		})
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Percentile", 0), errKinds, func(ctx context.Context) (Percentile, error) { return b.percentile(ctx, id) }, percentileOutcome)
	}
	return b.percentile(ctx, id)
}

// percentileOutcome reports the best rank the entry may have.
func percentileOutcome(p Percentile, o observe.Outcome) observe.Outcome {
	return rankOutcome(p.MinRank, o)
}

// percentile is Percentile of a board of one hash tag.
func (b *Board) percentile(ctx context.Context, id string) (Percentile, error) {
	if err := b.checkID(id); err != nil {
		return Percentile{}, err
	}
	strs, err := inGen(ctx, b, func(g *generation) ([]string, error) {
		return b.arrayReply("percentile", b.conn.Run(ctx, g.scripts.percentile, g.keys.script, []string{id}))
	})
	if err != nil {
		return Percentile{}, err
	}
	own, err := parseOwn(strs)
	if err != nil {
		return Percentile{}, err
	}
	if own.rank < 0 {
		return Percentile{}, fmt.Errorf("board: id %q: %w", id, ErrNotFound)
	}
	return newPercentile(own.rank+1, own.rank+1, own.n), nil
}

// ownPart is percentile.lua's reply from the id's board or shard.
type ownPart struct {
	n, rank, bucket int64
}

func parseOwn(strs []string) (ownPart, error) {
	if len(strs) != 3 {
		return ownPart{}, fmt.Errorf("board: percentile reply of %d elements: %w", len(strs), ErrReply)
	}
	var p ownPart
	var errs [3]error
	p.n, errs[0] = strconv.ParseInt(strs[0], 10, 64)
	p.rank, errs[1] = strconv.ParseInt(strs[1], 10, 64)
	p.bucket, errs[2] = strconv.ParseInt(strs[2], 10, 64)
	if err := errors.Join(errs[:]...); err != nil {
		return ownPart{}, fmt.Errorf("board: percentile reply %q: %w", strs, ErrReply)
	}
	return p, nil
}

// percentile is Percentile on this view: the id's shard and every other
// shard's histogram in one round trip.
func (sb *shardView) percentile(ctx context.Context, id string) (Percentile, error) {
	if err := sb.probe.checkID(id); err != nil {
		return Percentile{}, err
	}
	home := shardOf(id, len(sb.shards))
	pick := func(s *scriptSet) *luascript.Script { return s.percentile }
	calls := make([]shardCall, 0, len(sb.shards))
	calls = append(calls, shardCall{home, pick, []string{id}})
	for i := range sb.shards {
		if i != home {
			calls = append(calls, shardCall{i, pick, []string{""}})
		}
	}
	replies, err := sb.scatter(ctx, "percentile", calls)
	if err != nil {
		return Percentile{}, err
	}
	own, err := parseOwn(replies[0])
	if err != nil {
		return Percentile{}, err
	}
	if own.rank < 0 {
		return Percentile{}, fmt.Errorf("board: id %q: %w", id, ErrNotFound)
	}
	total, before, inBucket := own.n, own.rank, int64(0)
	for k, strs := range replies[1:] {
		h, err := parseHistogram(strs)
		if err != nil {
			return Percentile{}, err
		}
		if !h.complete {
			return Percentile{}, fmt.Errorf("board: %s: Percentile: shard %d counts %d entries in its histogram of %d (entries written by hand?): %w", sb.name, calls[k+1].shard, h.counted, h.n, ErrReply)
		}
		total += h.n
		for bucket, count := range h.counts {
			switch {
			case bucket < own.bucket:
				before += count
			case bucket == own.bucket:
				inBucket += count
			}
		}
	}
	visible := sb.visible(total)
	lo, hi := before+1, before+1+inBucket
	if lo > visible {
		return Percentile{}, fmt.Errorf("board: id %q: beyond the cap: %w", id, ErrNotFound)
	}
	if hi > visible { // the entry may be beyond the cap: rank it exactly
		r, err := sb.Rank(ctx, id, Ordinal)
		if err != nil {
			return Percentile{}, err
		}
		return newPercentile(r, r, visible), nil
	}
	return newPercentile(lo, hi, visible), nil
}

// histogram is percentile.lua's reply from a shard not the id's.
type histogram struct {
	n, counted int64
	complete   bool
	counts     map[int64]int64 // bucket -> entries
}

func parseHistogram(strs []string) (histogram, error) {
	if len(strs) < 2 || len(strs)%2 != 0 {
		return histogram{}, fmt.Errorf("board: percentile histogram reply of %d elements: %w", len(strs), ErrReply)
	}
	n, err := strconv.ParseInt(strs[0], 10, 64)
	if err != nil {
		return histogram{}, fmt.Errorf("board: percentile histogram reply %q: %w", strs[0], ErrReply)
	}
	h := histogram{n: n, complete: strs[1] == "1", counts: make(map[int64]int64, len(strs)/2-1)}
	for i := 2; i < len(strs); i += 2 {
		b, err1 := strconv.ParseInt(strs[i], 10, 64)
		c, err2 := strconv.ParseInt(strs[i+1], 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return histogram{}, fmt.Errorf("board: percentile histogram reply: %w: %w", ErrReply, err)
		}
		h.counts[b] += c
		h.counted += c
	}
	return h, nil
}
