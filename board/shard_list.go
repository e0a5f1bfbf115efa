package board

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/tiebreak/tiebreak/internal/luascript"
)

// shallowPage bounds the entries a page read takes from the shards in one
// round trip, each shard's first offset+n: past it (and for any offset
// over 0), sampling first costs less.
const shallowPage = 2000

// Top is sharded.Top on this view.
func (sb *shardView) Top(ctx context.Context, n int, opts ...ReadOption) (List, error) {
	if len(sb.shards) == 1 {
		return sb.shards[0].Top(ctx, n, opts...)
	}
	return sb.page(ctx, "Top", pos{}, pos{}, 0, n, opts)
}

// Page is sharded.Page on this view.
func (sb *shardView) Page(ctx context.Context, offset int64, n int, opts ...ReadOption) (List, error) {
	if len(sb.shards) == 1 {
		return sb.shards[0].Page(ctx, offset, n, opts...)
	}
	return sb.page(ctx, "Page", pos{}, pos{}, offset, n, opts)
}

// Between is sharded.Between on this view.
func (sb *shardView) Between(ctx context.Context, lo, hi float64, offset int64, n int, opts ...ReadOption) (List, error) {
	if len(sb.shards) == 1 {
		return sb.shards[0].Between(ctx, lo, hi, offset, n, opts...)
	}
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return List{}, fmt.Errorf("board: between [%v, %v]: %w", lo, hi, ErrArgument)
	}
	if err := checkWindow("between", offset, n); err != nil {
		return List{}, err
	}
	slo, shi, ok := sb.probe.storedBounds(lo, hi)
	if !ok {
		if _, _, _, err := sb.probe.readFlags(opts); err != nil {
			return List{}, err
		}
		total, err := sb.Len(ctx)
		return List{Total: total, Entries: []Entry{}}, err
	}
	start := pos{set: true, score: slo}
	stop := pos{set: true, score: math.Nextafter(shi, math.Inf(1))}
	return sb.page(ctx, "between", start, stop, offset, n, opts)
}

// page returns the entries at offsets k to k+n-1 of the range [start,
// stop) (unset: the board's start and end).
func (sb *shardView) page(ctx context.Context, op string, start, stop pos, k int64, n int, opts []ReadOption) (List, error) {
	if err := checkWindow(op, k, n); err != nil {
		return List{}, err
	}
	c, _, _, err := sb.probe.readFlags(opts)
	if err != nil {
		return List{}, err
	}
	count := int64(n)
	if k == 0 || int64(len(sb.shards))*(k+count) <= shallowPage {
		return sb.pageFrom(ctx, op, start, stop, k+count, k, count, c)
	}
	for range deepPageReads {
		l, again, err := sb.deepPage(ctx, op, start, stop, k, count, c)
		if !again || err != nil {
			return l, err
		}
	}
	return List{}, fmt.Errorf("board: %s at offset %d: writes moved entries across its bounds in each of %d reads: %w", op, k, deepPageReads, ErrConflict)
}

// deepPageReads bounds the reads of a deep page whose bounds writes keep
// moving between its two round trips.
const deepPageReads = 3

// deepPage returns the entries at offsets k to k+count-1 of the range
// [start, stop) in two round trips: a sample of every shard that bounds
// them, then every shard's entries between the bounds. again reports runs
// that do not hold the page, because writes between the round trips moved
// entries across the lower bound (entries written before it start the
// page late; entries removed before it end the page early); the list is
// then the part of the page the runs hold.
func (sb *shardView) deepPage(ctx context.Context, op string, start, stop pos, k, count int64, c readConfig) (l List, again bool, err error) {
	at := samplePositions(k, count, len(sb.shards))
	ss, err := sb.sample(ctx, op, start, stop, at)
	if err != nil {
		return List{}, false, err
	}
	atStep("Page", "sample")
	var size, total int64 // entries in the range, on the board
	for _, s := range ss {
		size, total = size+s.stop-s.base, total+s.total
	}
	if k >= size {
		return List{Entries: []Entry{}, Total: sb.visible(total)}, false, nil
	}
	count = min(count, size-k)
	lo, hi, loBelow := pageBounds(ss, k, count)
	if !hi.set {
		hi = stop
	}
	anchor, skip := start, k
	if lo.set {
		anchor, skip = lo, -1 // known once the shards say where lo is
	}
	m, err := sb.runs(ctx, op, anchor, 0, k+count-loBelow, hi, c)
	if err != nil {
		return List{}, false, err
	}
	if skip < 0 {
		var base int64 // entries of the range before lo
		for i, r := range m.runs {
			base += r.anchor - ss[i].base
		}
		skip = k - base
	}
	if skip < 0 || skip+count > int64(len(m.entries)) {
		return List{}, true, nil
	}
	l, err = sb.listOf(ctx, m, skip, count, c)
	return l, false, err
}

// pageFrom reads after entries of every shard from anchor (none at or
// after stop) and returns the count entries after the first skip.
func (sb *shardView) pageFrom(ctx context.Context, op string, anchor, stop pos, after, skip, count int64, c readConfig) (List, error) {
	m, err := sb.runs(ctx, op, anchor, 0, after, stop, c)
	if err != nil {
		return List{}, err
	}
	return sb.listOf(ctx, m, skip, count, c)
}

// listOf is the list of count merged entries from index skip.
func (sb *shardView) listOf(ctx context.Context, m merged, skip, count int64, c readConfig) (List, error) {
	es, err := sb.entries(ctx, m, skip, count, c)
	return List{Entries: es, Total: sb.visible(m.total)}, err
}

// sample reads every shard's entries at positions at of the range [start,
// stop).
func (sb *shardView) sample(ctx context.Context, op string, start, stop pos, at []int64) ([]shardSample, error) {
	args := append(start.args(), stop.args()...)
	for _, p := range at {
		args = append(args, strconv.FormatInt(p, 10))
	}
	calls := make([]shardCall, len(sb.shards))
	for i := range calls {
		calls[i] = shardCall{i, func(s *scriptSet) *luascript.Script { return s.shardSample }, args}
	}
	replies, err := sb.scatter(ctx, op, calls)
	if err != nil {
		return nil, err
	}
	ss := make([]shardSample, len(replies))
	for i, strs := range replies {
		if ss[i], err = parseSample(strs, at); err != nil {
			return nil, err
		}
	}
	return ss, nil
}

// Around is sharded.Around on this view.
func (sb *shardView) Around(ctx context.Context, id string, n int, opts ...ReadOption) (List, error) {
	if len(sb.shards) == 1 {
		return sb.shards[0].Around(ctx, id, n, opts...)
	}
	owner := sb.shards[shardOf(id, len(sb.shards))]
	if err := owner.checkID(id); err != nil {
		return List{}, err
	}
	if err := checkWindow("around", 0, n); err != nil {
		return List{}, err
	}
	c, _, _, err := sb.probe.readFlags(opts)
	if err != nil {
		return List{}, err
	}
	for range aroundReads {
		e, err := owner.rank(ctx, "around", id, Ordinal, nil)
		if err != nil {
			return List{}, err
		}
		score, member, err := owner.encode(e.ID, e.Values)
		if err != nil {
			return List{}, err
		}
		at := pos{set: true, score: score, member: member}
		m, err := sb.runs(ctx, "around", at, int64(n-1), int64(n), pos{}, c)
		if err != nil {
			return List{}, err
		}
		if ahead, still := slices.BinarySearchFunc(m.entries, at, func(e runEntry, p pos) int { return comparePos(e.pos, p) }); still {
			return sb.window(ctx, m, int64(ahead), id, int64(n), c)
		}
		// id moved (or left) between the two round trips: read again.
	}
	return List{}, fmt.Errorf("board: Around(%q): the id moved between the round trips of %d reads: %w", id, aroundReads, ErrConflict)
}

// aroundReads bounds the reads of a sharded board's Around whose id keeps
// moving between its two round trips.
const aroundReads = 8

// window picks Around's n entries from the merged runs around the entry
// of id, the merged entry at index ahead. Where the runs hold each
// shard's n-1 entries before it and n from it, the merged entries hold
// the board's n-1 before it and n from it: their positions follow from
// its.
func (sb *shardView) window(ctx context.Context, m merged, ahead int64, id string, n int64, c readConfig) (List, error) {
	var r int64 // id's position on the board
	for _, x := range m.runs {
		r += x.anchor
	}
	m.base = r - ahead
	total := sb.visible(m.total)
	if r >= total {
		return List{}, fmt.Errorf("board: id %q: beyond the cap: %w", id, ErrNotFound)
	}
	start := r - (n-1)/2
	if start+n > total {
		start = total - n
	}
	start = max(start, 0)
	es, err := sb.entries(ctx, m, start-m.base, min(n, total-start), c)
	return List{Entries: es, Total: total}, err
}

// Scan is sharded.Scan on this view.
func (sb *shardView) Scan(ctx context.Context, cursor string, n int, opts ...ReadOption) (scanPage, error) {
	if len(sb.shards) == 1 {
		return sb.shards[0].scanPage(ctx, cursor, n, opts)
	}
	if err := checkWindow("scan", 0, n); err != nil {
		return scanPage{}, err
	}
	score, member, err := sb.probe.parseCursor(cursor)
	if err != nil {
		return scanPage{}, err
	}
	c, _, _, err := sb.probe.readFlags(opts)
	if err != nil {
		return scanPage{}, err
	}
	var at pos
	if score != "" {
		if at, err = posOf(score, member); err != nil {
			return scanPage{}, err
		}
	}
	// n+2: the cursor's own entry, the page, and one to tell there is more.
	m, err := sb.runs(ctx, "scan", at, 0, int64(n)+2, pos{}, c)
	if err != nil {
		return scanPage{}, err
	}
	skip := int64(0)
	if at.set && len(m.entries) > 0 && comparePos(m.entries[0].pos, at) == 0 {
		skip = 1 // the cursor's own entry, still in place
	}
	l, err := sb.listOf(ctx, m, skip, int64(n)+1, c)
	if err != nil {
		return scanPage{}, err
	}
	p := scanPage{Entries: l.Entries, Total: l.Total}
	if len(p.Entries) > n {
		p.Entries, p.HasMore = p.Entries[:n], true
		p.Next, err = sb.probe.cursorOf(p.Entries[n-1])
	}
	return p, err
}

// Among is sharded.Among on this view.
func (sb *shardView) Among(ctx context.Context, ids []string, opts ...ReadOption) (amongList, error) {
	if len(ids) == 0 || len(ids) > maxAmong {
		return amongList{}, fmt.Errorf("board: Among: len(ids) = %d out of range [1, %d]: %w", len(ids), maxAmong, ErrArgument)
	}
	c, _, _, err := sb.probe.readFlags(opts)
	if err != nil {
		return amongList{}, err
	}
	parts := make([][]string, len(sb.shards))
	for _, id := range ids {
		if err := sb.probe.checkID(id); err != nil {
			return amongList{}, err
		}
		i := shardOf(id, len(sb.shards))
		parts[i] = append(parts[i], id)
	}
	lists, err := sb.amongShards(ctx, parts, opts)
	if err != nil {
		return amongList{}, err
	}
	var all []*Entry
	var total int64
	for _, l := range lists {
		total += l.Total
		for j := range l.Entries {
			all = append(all, &l.Entries[j].Entry)
		}
	}
	if err := sb.placeAll(ctx, all, nil, c); err != nil {
		return amongList{}, err
	}
	for _, e := range all {
		e.ModifiedCompetition = min(e.ModifiedCompetition, sb.visible(math.MaxInt64)) // the ties past the cap are not on the board
	}
	return sb.amongOf(ids, lists, total), nil
}

// amongShards runs among.lua on every shard, with the ids it holds (none
// tells its size): one round trip.
func (sb *shardView) amongShards(ctx context.Context, parts [][]string, opts []ReadOption) ([]amongList, error) {
	c, data, ranks, _ := sb.probe.readFlags(opts) // Among checked them
	ranks += "t"                                  // the shards' totals make the board's
	var calls []shardCall
	for i, p := range parts {
		args := append([]string{ranks, data}, slices.Compact(slices.Sorted(slices.Values(p)))...)
		calls = append(calls, shardCall{i, func(s *scriptSet) *luascript.Script { return s.among }, args})
	}
	replies, err := sb.scatter(ctx, "among", calls)
	if err != nil {
		return nil, err
	}
	lists := make([]amongList, len(replies))
	for j, strs := range replies {
		if lists[j], err = sb.shards[calls[j].shard].amongList(strs, calls[j].args[2:], c); err != nil {
			return nil, err
		}
	}
	return lists, nil
}

// amongOf merges the shards' answers, ranked on the whole board, into one
// Among answer for ids.
func (sb *shardView) amongOf(ids []string, lists []amongList, total int64) amongList {
	limit := sb.visible(math.MaxInt64)
	out := amongList{Total: sb.visible(total), Entries: []amongEntry{}}
	found := map[string]bool{}
	for _, l := range lists {
		for _, e := range l.Entries {
			if e.Rank <= limit {
				out.Entries = append(out.Entries, e)
				found[e.ID] = true
			}
		}
	}
	// In board order, by stored position: while writes go on, the ranks
	// the shards count at different moments may tie or cross.
	slices.SortFunc(out.Entries, func(a, b amongEntry) int { return comparePos(a.at, b.at) })
	for i := range out.Entries {
		out.Entries[i].Position = int64(i + 1)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if !found[id] && !seen[id] {
			out.Absent = append(out.Absent, id)
		}
		seen[id] = true
	}
	return out
}
