package board

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/luascript"
)

// shardCall is one shard's part of a read: which script of the shard's
// generation to run, with what arguments.
type shardCall struct {
	shard int
	pick  func(*scriptSet) *luascript.Script
	args  []string
}

// scatter runs the calls in one round trip, every shard at once, and
// returns their replies. A shard that a migration moved to another
// generation is read again in its new one.
func (sb *shardView) scatter(ctx context.Context, op string, calls []shardCall) ([][]string, error) {
	lc := make([]luascript.Call, len(calls))
	for i, c := range calls {
		g := sb.shards[c.shard].gen.Load()
		lc[i] = luascript.Call{Script: c.pick(g.scripts), Keys: g.keys.script, Args: c.args}
	}
	out := make([][]string, len(calls))
	for i, r := range sb.conn.RunEach(ctx, lc) {
		s, c := sb.shards[calls[i].shard], calls[i]
		strs, err := s.arrayReply(op, r)
		if errors.Is(err, errStale) {
			strs, err = inGen(ctx, s, func(g *generation) ([]string, error) {
				return s.arrayReply(op, sb.conn.Run(ctx, c.pick(g.scripts), g.keys.script, c.args))
			})
		}
		if err != nil {
			return nil, err
		}
		out[i] = strs
	}
	return out, nil
}

// visible is how many of total entries the board shows: at most its cap.
func (sb *shardView) visible(total int64) int64 {
	if sb.opts.Cap > 0 {
		return min(total, sb.opts.Cap)
	}
	return total
}

// Len is sharded.Len on this view.
func (sb *shardView) Len(ctx context.Context) (int64, error) {
	res := sb.conn.DoMulti(ctx, func(p *rdb.Pipe) {
		for _, s := range sb.shards {
			p.ZCard(s.gen.Load().keys.z)
		}
	})
	var total int64
	for i, r := range res {
		n, err := r.AsInt64()
		if err != nil && isTombstone(err) {
			n, err = sb.shards[i].Len(ctx)
		} else if err != nil {
			err = redisErr("count", err)
		}
		if err != nil {
			return 0, err
		}
		total += n
	}
	return sb.visible(total), nil
}

// Get is sharded.Get on this view.
func (sb *shardView) Get(ctx context.Context, id string, opts ...ReadOption) (Entry, error) {
	return sb.rank(ctx, "get", id, Ordinal, opts)
}

// Rank is sharded.Rank on this view.
func (sb *shardView) Rank(ctx context.Context, id string, kind RankKind) (int64, error) {
	e, err := sb.rank(ctx, "rank", id, kind, nil)
	switch kind {
	case Competition:
		return e.Competition, err
	case ModifiedCompetition:
		return e.ModifiedCompetition, err
	}
	return e.Rank, err
}

func (sb *shardView) rank(ctx context.Context, op, id string, kind RankKind, opts []ReadOption) (Entry, error) {
	owner := sb.shards[shardOf(id, len(sb.shards))]
	if kind == Competition || kind == ModifiedCompetition {
		opts = append(opts, WithRanks(kind))
	}
	if _, err := owner.kindCode(kind); err != nil {
		return Entry{}, err
	}
	c, _, _, err := sb.probe.readFlags(append([]ReadOption{takesSelf}, opts...))
	if err != nil {
		return Entry{}, err
	}
	e, err := owner.rank(ctx, op, id, Ordinal, opts)
	if err != nil {
		return Entry{}, err
	}
	if err := sb.placeAll(ctx, []*Entry{&e}, owner, c); err != nil {
		return Entry{}, err
	}
	e.ModifiedCompetition = min(e.ModifiedCompetition, sb.visible(math.MaxInt64)) // the ties past the cap are not on the board
	if e.Rank > sb.visible(math.MaxInt64) {
		return Entry{}, fmt.Errorf("board: id %q: beyond the cap: %w", id, ErrNotFound)
	}
	return e, nil
}

// everyShard is placeAll's shard for entries counted on every shard,
// their own included.
var everyShard = new(Board)

// placeAll turns shard ranks into ranks on the whole board: each entry,
// stored on the shard given (nil: each on its own id's shard), gains the
// count of the entries before it on every other shard (on every shard,
// its own too, when the shard given is everyShard), of the better tuples
// when c asks for competition ranks, and of the better or equal tuples
// when it asks for modified competition ranks. One round trip; none with
// one shard.
func (sb *shardView) placeAll(ctx context.Context, es []*Entry, on *Board, c readConfig) error {
	if len(sb.shards) == 1 || len(es) == 0 {
		return nil
	}
	flag := ""
	if c.comp {
		flag = "c"
	}
	if c.mod {
		flag += "m"
	}
	calls := make([]shardCall, 0, len(sb.shards))
	asked := make([][]*Entry, 0, len(sb.shards))
	for i, s := range sb.shards {
		args, mine := []string{flag}, []*Entry(nil)
		for _, e := range es {
			if home := on; (home == nil && shardOf(e.ID, len(sb.shards)) == i) || home == s {
				continue
			}
			score, member, err := s.encode(e.ID, e.Values)
			if err != nil {
				return err
			}
			args, mine = append(args, fmtFloat(score), member), append(mine, e)
		}
		if len(mine) > 0 {
			calls, asked = append(calls, shardCall{i, func(s *scriptSet) *luascript.Script { return s.shardProbe }, args}), append(asked, mine)
		}
	}
	replies, err := sb.scatter(ctx, "rank", calls)
	if err != nil {
		return err
	}
	for k, strs := range replies {
		if len(strs) != 1+3*len(asked[k]) {
			return fmt.Errorf("board: shard probe reply of %d elements: %w", len(strs), ErrReply)
		}
		for j, e := range asked[k] {
			p, err1 := strconv.ParseInt(strs[1+3*j], 10, 64)
			t, err2 := strconv.ParseInt(strs[2+3*j], 10, 64)
			u, err3 := strconv.ParseInt(strs[3+3*j], 10, 64)
			if err := errors.Join(err1, err2, err3); err != nil {
				return fmt.Errorf("board: shard probe reply: %w", ErrReply)
			}
			e.Rank += p
			if c.comp {
				e.Competition += t
			}
			if c.mod {
				e.ModifiedCompetition += u
			}
		}
	}
	return nil
}

// uptoAll returns the modified competition rank on the whole board of e
// (stored or not): how many entries of every shard hold its tuple or a
// better one. One round trip.
func (sb *shardView) uptoAll(ctx context.Context, e Entry) (int64, error) {
	score, member, err := sb.probe.encode(e.ID, e.Values)
	if err != nil {
		return 0, err
	}
	args := []string{"m", fmtFloat(score), member}
	calls := make([]shardCall, len(sb.shards))
	for i := range calls {
		calls[i] = shardCall{i, func(s *scriptSet) *luascript.Script { return s.shardProbe }, args}
	}
	replies, err := sb.scatter(ctx, "rank", calls)
	if err != nil {
		return 0, err
	}
	var sum int64
	for _, strs := range replies {
		if len(strs) != 4 {
			return 0, fmt.Errorf("board: shard probe reply of %d elements: %w", len(strs), ErrReply)
		}
		u, err := strconv.ParseInt(strs[3], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("board: shard probe reply: %w", ErrReply)
		}
		sum += u
	}
	return sum, nil
}

// runArgs are the arguments of shardrun.lua.
func runArgs(anchor pos, before, after int64, stop pos, data bool, tuples bool) []string {
	args := append(anchor.args(), strconv.FormatInt(before, 10), strconv.FormatInt(after, 10))
	args = append(args, stop.args()...)
	return append(args, flag(data), flag(tuples))
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// runs reads a run of every shard around anchor (before entries before
// it, after from it on, none at or after stop), merged.
func (sb *shardView) runs(ctx context.Context, op string, anchor pos, before, after int64, stop pos, c readConfig) (merged, error) {
	calls := make([]shardCall, len(sb.shards))
	args := runArgs(anchor, before, after, stop, c.data, c.comp)
	for i := range calls {
		calls[i] = shardCall{i, func(s *scriptSet) *luascript.Script { return s.shardRun }, args}
	}
	replies, err := sb.scatter(ctx, op, calls)
	if err != nil {
		return merged{}, err
	}
	runs := make([]run, len(replies))
	for i, strs := range replies {
		if runs[i], err = parseRun(strs, i, c.data, c.comp); err != nil {
			return merged{}, err
		}
	}
	return mergeRuns(anchor, runs), nil
}

// entries turns the merged entries from index from (at most n of them)
// into a board's entries, ranked from m.base, cut at the cap, with the
// competition ranks when c asks for them.
func (sb *shardView) entries(ctx context.Context, m merged, from, n int64, c readConfig) ([]Entry, error) {
	limit := sb.visible(math.MaxInt64)
	out := []Entry{}
	for j := max(from, 0); j < int64(len(m.entries)) && j < from+n; j++ {
		x := m.entries[j]
		rank := m.base + j + 1
		if rank > limit {
			break
		}
		id, vals, err := sb.probe.decode(fmtFloat(x.score), x.member)
		if err != nil {
			return nil, err
		}
		out = append(out, Entry{ID: id, Values: vals, Rank: rank, Data: x.data})
	}
	if c.comp && len(out) > 0 {
		first := m.entries[max(from, 0)]
		fillRanks(out, 1+sb.probe.tupleBefore(m, first), 0, c)
	}
	if c.mod && len(out) > 0 {
		upto, err := sb.uptoAll(ctx, out[len(out)-1])
		if err != nil {
			return nil, err
		}
		fillModified(out, min(upto, sb.visible(math.MaxInt64)), c)
	}
	return out, nil
}
