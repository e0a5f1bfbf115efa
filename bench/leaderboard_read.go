package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tiebreak/tiebreak/board"
)

// Workload 2: leaderboard reads against board size, answering the folk
// rule that a sorted set should stay under 100,000 members. Every
// board of every size is loaded first, so that the sizes are measured
// interleaved, in the same rounds.
func init() {
	register(workload{num: 2, name: "reads", title: "2. Leaderboard reads by board size", run: runReads})
}

// The reads' sizes: top 10, around 10, and pages of 50.
const (
	topN     = 10
	aroundN  = 10
	pageSize = 50
)

// readBoard is one loaded board of the workload.
type readBoard struct {
	size     int64
	strategy board.Strategy
	b        *board.Board
	// deep holds positions in the board's bottom half, each as an offset
	// and as the keyset cursor of the same place.
	deep []deepPage
}

// deepPage is a place deep in a board: the page starting at offset is the
// page Scan returns after cursor.
type deepPage struct {
	offset int64
	cursor board.Cursor
}

// readKind is one read the workload measures.
type readKind struct {
	name string
	op   func(ctx context.Context, rb *readBoard, seq uint64) error
}

// readKinds are the reads measured, in table and chart order.
var readKinds = []readKind{
	{"top10", func(ctx context.Context, rb *readBoard, _ uint64) error {
		_, err := rb.b.Top(ctx, topN)
		return err
	}},
	{"rank", func(ctx context.Context, rb *readBoard, seq uint64) error {
		_, err := rb.b.Rank(ctx, idOf(int64(mix(seq)%uint64(rb.size))), board.Ordinal)
		return err
	}},
	{"around10", func(ctx context.Context, rb *readBoard, seq uint64) error {
		_, err := rb.b.Around(ctx, idOf(int64(mix(seq)%uint64(rb.size))), aroundN)
		return err
	}},
	{"page-offset", func(ctx context.Context, rb *readBoard, seq uint64) error {
		_, err := rb.b.Page(ctx, rb.deep[mix(seq)%uint64(len(rb.deep))].offset, pageSize)
		return err
	}},
	{"page-cursor", func(ctx context.Context, rb *readBoard, seq uint64) error {
		_, err := rb.b.Scan(ctx, rb.deep[mix(seq)%uint64(len(rb.deep))].cursor, pageSize)
		return err
	}},
}

// runReads loads a board per size and strategy, then compares every size
// of one read and strategy in the same rounds.
func runReads(ctx context.Context, h *harness) (sec Section, err error) {
	rbs, err := newReadBoards(h)
	if err != nil {
		return sec, err
	}
	defer func() { err = errors.Join(err, dropReadBoards(context.WithoutCancel(ctx), rbs)) }()
	sec = Section{Workload: "reads", Title: "2. Leaderboard reads by board size", Kind: "throughput",
		RatioOf: fmt.Sprintf("p50 latency / the same read's p50 at %s, in the same round", sizeLabel(rbs[0].size))}
	for _, rb := range rbs {
		if err := prepareReadBoard(ctx, h, rb, &sec); err != nil {
			return sec, err
		}
	}
	for _, k := range readKinds {
		if err := compareReads(ctx, h, &sec, k, rbs); err != nil {
			return sec, err
		}
	}
	readGoals(&sec, h.cfg.Sizes)
	sec.Notes = append(sec.Notes, readNotes(h.cfg)...)
	return sec, nil
}

// newReadBoards builds (without loading) one board per size and strategy,
// smallest size first.
func newReadBoards(h *harness) ([]*readBoard, error) {
	var rbs []*readBoard
	for _, size := range h.cfg.Sizes {
		for _, s := range []board.Strategy{board.PackedScore, board.KeySuffix} {
			name := fmt.Sprintf("%s_w2_%s_%d", h.cfg.Prefix, s, size)
			b, err := board.New(context.Background(), h.client, name, benchLayout, board.Options{Strategy: s})
			if err != nil {
				return nil, err
			}
			rbs = append(rbs, &readBoard{size: size, strategy: s, b: b})
		}
	}
	return rbs, nil
}

// prepareReadBoard loads rb and finds its deep pages, noting the load rate.
func prepareReadBoard(ctx context.Context, h *harness, rb *readBoard, sec *Section) error {
	label := fmt.Sprintf("reads: loading %s %s", strategyLabel(rb.strategy), sizeLabel(rb.size))
	rate, err := h.loadBoard(ctx, label, rb.b, rb.size, loadEntry)
	if err != nil {
		return err
	}
	sec.Notes = append(sec.Notes, fmt.Sprintf("loaded %s %s with SubmitMany (%d per call, %d calls in flight) at %.0f entries/s",
		strategyLabel(rb.strategy), sizeLabel(rb.size), loadChunk, loadWorkers, rate))
	h.log.printf("reads: walking %s %s with Scan for deep pages", strategyLabel(rb.strategy), sizeLabel(rb.size))
	if rb.deep, err = deepPages(ctx, rb); err != nil {
		return err
	}
	return checkDeepPage(ctx, rb)
}

// deepPages walks rb with Scan, about 128 steps, and keeps the cursors
// that fall in the bottom half with a full page after them.
func deepPages(ctx context.Context, rb *readBoard) ([]deepPage, error) {
	step := max(pageSize, int(rb.size/128))
	var out []deepPage
	var cur board.Cursor
	for pos := int64(0); ; {
		p, err := rb.b.Scan(ctx, cur, step)
		if err != nil {
			return nil, err
		}
		pos += int64(len(p.Entries))
		if !p.HasMore {
			break
		}
		cur = p.Next
		if pos >= rb.size/2 && pos+pageSize <= rb.size {
			out = append(out, deepPage{offset: pos, cursor: cur})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("reads: no deep page in a board of %d", rb.size)
	}
	return out, nil
}

// checkDeepPage makes sure a deep page read by offset and by cursor is the
// same page, so the two reads compared do the same work.
func checkDeepPage(ctx context.Context, rb *readBoard) error {
	d := rb.deep[len(rb.deep)/2]
	byOffset, err := rb.b.Page(ctx, d.offset, pageSize)
	if err != nil {
		return err
	}
	byCursor, err := rb.b.Scan(ctx, d.cursor, pageSize)
	if err != nil {
		return err
	}
	a, b := byOffset.Entries, byCursor.Entries
	if len(a) != pageSize || len(b) != pageSize || a[0].ID != b[0].ID || a[pageSize-1].ID != b[pageSize-1].ID {
		return fmt.Errorf("reads: %s %d: the page at offset %d differs from the page after its cursor", strategyLabel(rb.strategy), rb.size, d.offset)
	}
	return nil
}

// compareReads measures read k on every board, all sizes and strategies
// in the same rounds, and adds a row per board.
func compareReads(ctx context.Context, h *harness, sec *Section, k readKind, rbs []*readBoard) error {
	vs := make([]variant, len(rbs))
	for i, rb := range rbs {
		vs[i] = variant{name: fmt.Sprintf("%s %s %s", k.name, strategyLabel(rb.strategy), sizeLabel(rb.size)),
			op: func(ctx context.Context, seq uint64) error { return k.op(ctx, rb, seq) }}
	}
	ms, err := h.compare(ctx, "reads "+k.name, vs)
	if err != nil {
		return err
	}
	for _, s := range []board.Strategy{board.PackedScore, board.KeySuffix} {
		base := -1
		for i, rb := range rbs {
			if rb.strategy != s {
				continue
			}
			if base < 0 {
				base = i
			}
			row := newRow(sizeLabel(rb.size), k.name+" "+strategyLabel(s), ms[i])
			row.Size, row.Series = rb.size, row.Variant
			row.Ratio, row.Baseline = ratio(ms[i], ms[base], latencyP50), k.name+" "+strategyLabel(s)+" "+sizeLabel(rbs[base].size)
			sec.Rows = append(sec.Rows, row)
		}
	}
	return nil
}

// readGoals holds top 10 and around 10 at the largest size to at most 1.5
// times their latency at the smallest. The goal compares 1e7 against 1e4;
// a run of other sizes says which it compared.
func readGoals(sec *Section, sizes []int64) {
	if len(sizes) < 2 {
		sec.Notes = append(sec.Notes, "one board size only: the size goal is not checked")
		return
	}
	lo, hi := sizes[0], sizes[len(sizes)-1]
	note := ""
	if lo != 1e4 || hi != 1e7 {
		note = fmt.Sprintf("the goal compares 1e7 against 1e4; this run compares %s against %s", sizeLabel(hi), sizeLabel(lo))
	}
	for i, r := range sec.Rows {
		kind, _, _ := strings.Cut(r.Variant, " ")
		if r.Size != hi || (kind != "top10" && kind != "around10") {
			continue
		}
		g := newGoal(fmt.Sprintf("%s at %s <= 1.5x its p50 at %s", r.Variant, sizeLabel(hi), sizeLabel(lo)), "vs "+sizeLabel(lo), r.Ratio, 1.5, false)
		g.Note = note
		sec.addGoal(i, g)
	}
}

// dropReadBoards deletes every board.
func dropReadBoards(ctx context.Context, rbs []*readBoard) error {
	var errs []error
	for _, rb := range rbs {
		errs = append(errs, rb.b.Drop(ctx))
	}
	return errors.Join(errs...)
}

// sizeLabel writes a power of ten as "1e6", anything else in digits.
func sizeLabel(n int64) string {
	e := math.Log10(float64(n))
	if e == math.Trunc(e) {
		return "1e" + strconv.Itoa(int(e))
	}
	return strconv.FormatInt(n, 10)
}

// readNotes explains the section.
func readNotes(c config) []string {
	notes := []string{
		"Entries: points below a million (ties happen), a paid flag and a time; ids u0, u1, ...",
		"rank: Rank (ordinal) of a random id. around10: Around a random id. page-offset: Page(offset, 50) at a random place in the bottom half; page-cursor: Scan from the keyset cursor of the same place, the same 50 entries.",
		fmt.Sprintf("Latencies are at %d concurrent goroutines: they include queueing, the same for every size.", c.Concurrency),
	}
	if !slices.Contains(c.Sizes, 1e7) {
		notes = append(notes, "1e7 was not run (it needs --sizes ...,1e7).")
	}
	return notes
}

// strategyLabel is the short name of a strategy in tables and charts.
func strategyLabel(s board.Strategy) string {
	if s == board.KeySuffix {
		return "suffix"
	}
	return "packed"
}
