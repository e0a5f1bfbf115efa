package board

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// pos is a position in a board's order: a stored score and member. The
// zero pos (set false) stands for no position: the start of a range, or
// no stop.
type pos struct {
	set    bool
	score  float64
	member string
}

// posOf parses a stored score and member.
func posOf(score, member string) (pos, error) {
	f, err := strconv.ParseFloat(score, 64)
	if err != nil {
		return pos{}, fmt.Errorf("board: score %q: %w", score, ErrReply)
	}
	return pos{set: true, score: f, member: member}, nil
}

// comparePos orders positions as a board does: by score, then member bytes.
func comparePos(a, b pos) int {
	if c := cmp.Compare(a.score, b.score); c != 0 {
		return c
	}
	return strings.Compare(a.member, b.member)
}

// args writes p as the scripts take it: score and member, or ” and ”.
func (p pos) args() []string {
	if !p.set {
		return []string{"", ""}
	}
	return []string{fmtFloat(p.score), p.member}
}

// runEntry is one entry of a shard's run (shardrun.lua).
type runEntry struct {
	pos
	shard    int
	data     []byte
	tuplePos int64 // entries of the shard that hold a better tuple
}

// run is one shard's reply to shardrun.lua: entries at consecutive
// positions start, start+1, ... of the shard.
type run struct {
	total, start, anchor int64
	anchorTuple          int64 // the anchor's tuple position
	entries              []runEntry
}

// parseRun reads shardrun.lua's reply.
func parseRun(strs []string, shard int, data, tuples bool) (run, error) {
	step := 2
	if data {
		step += 2
	}
	if tuples {
		step++
	}
	if len(strs) < 4 || (len(strs)-4)%step != 0 {
		return run{}, fmt.Errorf("board: shard run reply of %d elements: %w", len(strs), ErrReply)
	}
	var r run
	var err error
	if r.total, r.start, r.anchor, err = parse3(strs); err != nil {
		return run{}, err
	}
	if r.anchorTuple, err = strconv.ParseInt(strs[3], 10, 64); err != nil {
		return run{}, fmt.Errorf("board: anchor tuple position %q: %w", strs[3], ErrReply)
	}
	r.entries = make([]runEntry, 0, (len(strs)-4)/step)
	for i := 4; i < len(strs); i += step {
		p, err := posOf(strs[i+1], strs[i])
		if err != nil {
			return run{}, err
		}
		e := runEntry{pos: p, shard: shard}
		if data && strs[i+3] == "1" {
			e.data = []byte(strs[i+2])
		}
		if tuples {
			if e.tuplePos, err = strconv.ParseInt(strs[i+step-1], 10, 64); err != nil {
				return run{}, fmt.Errorf("board: tuple position %q: %w", strs[i+step-1], ErrReply)
			}
		}
		r.entries = append(r.entries, e)
	}
	return r, nil
}

// parse3 reads three integers at the head of a reply.
func parse3(strs []string) (a, b, c int64, err error) {
	var v [3]int64
	for i := range v {
		if v[i], err = strconv.ParseInt(strs[i], 10, 64); err != nil {
			return 0, 0, 0, fmt.Errorf("board: reply header %q: %w", strs[:3], ErrReply)
		}
	}
	return v[0], v[1], v[2], nil
}

// merged is the runs of every shard merged into the board's order. Where
// each run holds every entry of its shard between two positions, merged
// holds every entry of the board between them, and the first entry's
// position on the board is base.
type merged struct {
	anchor  pos // where the runs were read from
	runs    []run
	entries []runEntry
	base    int64 // sum of the runs' starts
	total   int64 // sum of the shards' sizes
}

func mergeRuns(anchor pos, runs []run) merged {
	m := merged{anchor: anchor, runs: runs}
	for _, r := range runs {
		m.base += r.start
		m.total += r.total
		m.entries = append(m.entries, r.entries...)
	}
	slices.SortFunc(m.entries, func(a, b runEntry) int { return comparePos(a.pos, b.pos) })
	return m
}

// tuple is what competition ranks compare: the score and, for key suffix,
// the fields prefix of the member.
func (b *Board) tuple(p pos) (float64, string) {
	if !b.suffix() {
		return p.score, ""
	}
	return p.score, p.member[:min(b.width, len(p.member))]
}

// compareTuple orders the tuples of two positions.
func (b *Board) compareTuple(x, y pos) int {
	xs, xm := b.tuple(x)
	ys, ym := b.tuple(y)
	if c := cmp.Compare(xs, ys); c != 0 {
		return c
	}
	return strings.Compare(xm, ym)
}

// tupleBefore returns how many entries of the board hold a better tuple
// than e, an entry of m. Each shard's count is exact where its run covers
// the entries around e's tuple: the count of the run's entries of that
// tuple, else the anchor's when e holds the anchor's tuple, else the run's
// start plus its entries of better tuples.
func (b *Board) tupleBefore(m merged, e runEntry) int64 {
	var sum int64
	for _, r := range m.runs {
		sum += b.runTupleBefore(m, r, e.pos)
	}
	return sum
}

func (b *Board) runTupleBefore(m merged, r run, t pos) int64 {
	n := r.start
	for _, x := range r.entries {
		c := b.compareTuple(x.pos, t)
		if c == 0 {
			return x.tuplePos
		}
		if c > 0 {
			break
		}
		n++
	}
	if m.anchor.set && b.compareTuple(m.anchor, t) == 0 {
		return r.anchorTuple
	}
	return n
}

// shardSample is one shard's reply to shardsample.lua: the shard's entries
// at known positions, counted from the base of the range read.
type shardSample struct {
	total      int64 // entries of the shard
	base, stop int64
	at         []int64 // positions from the base, increasing
	pos        []pos   // the entries there
}

func parseSample(strs []string, at []int64) (shardSample, error) {
	if len(strs) < 3 || (len(strs)-3)%2 != 0 || (len(strs)-3)/2 > len(at) {
		return shardSample{}, fmt.Errorf("board: shard sample reply of %d elements: %w", len(strs), ErrReply)
	}
	var s shardSample
	var err error
	if s.total, s.base, s.stop, err = parse3(strs); err != nil {
		return s, err
	}
	for i := 3; i < len(strs); i += 2 {
		p, err := posOf(strs[i], strs[i+1])
		if err != nil {
			return s, err
		}
		s.pos = append(s.pos, p)
	}
	s.at = at[:len(s.pos)]
	return s, nil
}

// samplePositions returns where each of n shards is sampled for a page at
// offset k of n entries: densely around k/n, where hashing puts each
// shard's part of the page (a shard holds a random share of the ids, so
// its part lies within a few sqrt(k/n) of k/n), and at doubling steps out
// to 0 and to k+count, so that any spread of the entries over the shards
// is still bounded.
func samplePositions(k, count int64, n int) []int64 {
	c := k / int64(n)
	sigma := int64(math.Sqrt(float64(c))) + 1
	step := max(1, sigma/2)
	lo, hi := max(0, c-4*sigma), min(k+count, c+(count+int64(n)-1)/int64(n)+4*sigma)
	var at []int64
	for g := step * 2; lo-g > 0; g *= 2 {
		at = append(at, lo-g)
	}
	at = append(at, 0)
	for p := lo; p <= hi; p += step {
		at = append(at, p)
	}
	for g := step * 2; hi+g < k+count; g *= 2 {
		at = append(at, hi+g)
	}
	at = append(at, k+count-1)
	slices.Sort(at)
	return slices.Compact(at)
}

// candidate is a sampled entry and its shard.
type candidate struct {
	shard int
	pos   pos
}

// pageBounds returns, from every shard's sample, the entries lo and hi
// that enclose the entries at offsets k to k+count-1 of the range: at most
// k entries come before lo (unset: the range's start)
// and at least k+count before hi (hi unset: the range's end). loBelow is
// the fewest entries before lo.
func pageBounds(ss []shardSample, k, count int64) (lo, hi pos, loBelow int64) {
	var cands []candidate
	for i, s := range ss {
		for _, p := range s.pos {
			cands = append(cands, candidate{shard: i, pos: p})
		}
	}
	slices.SortFunc(cands, func(a, b candidate) int { return comparePos(a.pos, b.pos) })
	// Both bounds grow with the position: binary search.
	iLo := sort.Search(len(cands), func(i int) bool {
		_, h := before(ss, cands[i])
		return h > k
	}) - 1
	iHi := sort.Search(len(cands), func(i int) bool {
		l, _ := before(ss, cands[i])
		return l >= k+count
	})
	if iLo >= 0 {
		lo = cands[iLo].pos
		loBelow, _ = before(ss, cands[iLo])
	}
	if iHi < len(cands) {
		hi = cands[iHi].pos
	}
	return lo, hi, loBelow
}

// before bounds how many entries of the range come before c: exactly its
// position in its own shard, and in every other shard between the
// positions of the samples around it.
func before(ss []shardSample, c candidate) (lo, hi int64) {
	for i, s := range ss {
		a := sort.Search(len(s.pos), func(j int) bool { return comparePos(s.pos[j], c.pos) >= 0 })
		if i == c.shard {
			lo, hi = lo+s.at[a], hi+s.at[a]
			continue
		}
		if a > 0 {
			lo += s.at[a-1] + 1
		}
		if a < len(s.pos) {
			hi += s.at[a]
		} else {
			hi += s.stop - s.base
		}
	}
	return lo, hi
}
