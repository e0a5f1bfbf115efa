package benchload

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tiebreak/tiebreak/board"
)

// Leaderboard reads against board size, answering the folk rule that a
// sorted set should stay under 100,000 members. Every board of every size
// is loaded first, so that the sizes are measured in the same rounds.
// board's BenchmarkRead runs it at one size.
func init() {
	register(Workload{
		Num: 2, Name: "reads", Title: "2. Leaderboard reads by board size",
		RatioOf: "p50 latency / the same read's p50 at the smallest size, in the same round",
		Params: []Param{{Name: "sizes", Usage: "board sizes of the read workload (1e7 only when asked for)",
			Full: "1e4,1e5,1e6", Quick: "1e3,1e4", Min: minBoardSize, Max: 1e9, List: true}},
		Rows: func(c Config) int { return 2 * len(c.Ints("sizes")) * len(readKinds) },
		Goals: func(c Config) int {
			if len(c.Ints("sizes")) < 2 {
				return 0
			}
			return 4
		},
		Prepare: prepareReads,
	})
}

// minBoardSize is the smallest board the read workload accepts: it needs a
// full deep page in the bottom half.
const minBoardSize = 200

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
	// deep holds places in the board's bottom half, each as an offset and
	// as the keyset cursor of the same place.
	deep []deepPage
}

// deepPage is a place deep in a board: the page starting at offset is the
// page Scan returns after cursor.
type deepPage struct {
	offset int64
	cursor string
}

// readKind is one read the workload measures; s is the sequence number.
type readKind struct {
	name string
	op   func(ctx context.Context, rb *readBoard, s uint64) error
}

// readKinds are the reads measured, in table and chart order.
var readKinds = []readKind{
	{"top10", func(ctx context.Context, rb *readBoard, _ uint64) error {
		_, err := rb.b.Top(ctx, topN)
		return err
	}},
	{"rank", func(ctx context.Context, rb *readBoard, s uint64) error {
		_, err := rb.b.Rank(ctx, IDOf(int64(pick(s, int(rb.size)))), board.Ordinal)
		return err
	}},
	{"around10", func(ctx context.Context, rb *readBoard, s uint64) error {
		_, err := rb.b.Around(ctx, IDOf(int64(pick(s, int(rb.size)))), aroundN)
		return err
	}},
	{"page-offset", func(ctx context.Context, rb *readBoard, s uint64) error {
		_, err := rb.b.Page(ctx, rb.deep[pick(s, len(rb.deep))].offset, pageSize)
		return err
	}},
	{"page-cursor", func(ctx context.Context, rb *readBoard, s uint64) error {
		_, err := rb.b.Scan(ctx, rb.deep[pick(s, len(rb.deep))].cursor, pageSize)
		return err
	}},
}

// ReadKinds are the names of the reads, in order.
func ReadKinds() []string {
	out := make([]string, len(readKinds))
	for i, k := range readKinds {
		out[i] = k.name
	}
	return out
}

// prepareReads loads a board per size and strategy, and compares every
// size and strategy of one read in the same rounds.
func prepareReads(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	sizes := cfg.Ints("sizes")
	var rbs []*readBoard
	f := &Fixture{Drop: func(ctx context.Context) error {
		var errs []error
		for _, rb := range rbs {
			errs = append(errs, rb.b.Drop(ctx))
		}
		return errors.Join(errs...)
	}}
	for _, size := range sizes {
		for _, s := range []board.Strategy{board.PackedScore, board.KeySuffix} {
			b, err := board.New(ctx, env.Client, fmt.Sprintf("%s_w2_%s_%d", env.Prefix, s, size), Layout, board.Options{Strategy: s})
			if err != nil {
				return f, err
			}
			rbs = append(rbs, &readBoard{size: size, strategy: s, b: b})
			note, err := prepareReadBoard(ctx, env, rbs[len(rbs)-1])
			if err != nil {
				return f, err
			}
			f.Notes = append(f.Notes, note)
		}
	}
	var s seq
	for _, k := range readKinds {
		f.Comparisons = append(f.Comparisons, readComparison(k, rbs, &s))
	}
	readGoals(f, sizes)
	f.Notes = append(f.Notes, readNotes(cfg)...)
	return f, nil
}

// prepareReadBoard loads rb, finds its deep pages, and returns a note of
// the load rate.
func prepareReadBoard(ctx context.Context, env Env, rb *readBoard) (string, error) {
	what := StrategyLabel(rb.strategy) + " " + SizeLabel(rb.size)
	rate, err := loadBoard(ctx, env, "reads: loading "+what, rb.b, rb.size, LoadEntry)
	if err != nil {
		return "", err
	}
	env.logf("reads: walking %s with Scan for deep pages", what)
	if rb.deep, err = deepPages(ctx, rb); err != nil {
		return "", err
	}
	return fmt.Sprintf("loaded %s with SubmitMany (%d per call, %d calls in flight) at %.0f entries/s",
		what, LoadChunk, LoadWorkers, rate), checkDeepPage(ctx, rb)
}

// deepPages walks rb with Scan, about 128 steps (of at most
// 1000 entries), and keeps the cursors that fall in the bottom
// half with a full page after them.
func deepPages(ctx context.Context, rb *readBoard) ([]deepPage, error) {
	step := min(1000, max(pageSize, int(rb.size/128)))
	var out []deepPage
	var cur string
	for pos := int64(0); ; {
		p, err := rb.b.Scan(ctx, cur, step)
		if err != nil {
			return nil, err
		}
		pos += int64(len(p.Entries))
		if p.Next == "" {
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
		return fmt.Errorf("reads: %s %d: the page at offset %d differs from the page after its cursor", StrategyLabel(rb.strategy), rb.size, d.offset)
	}
	return nil
}

// readComparison measures read k on every board, all sizes and strategies
// in the same rounds; each row divides by the same strategy's smallest
// board.
func readComparison(k readKind, rbs []*readBoard, s *seq) Comparison {
	c := Comparison{Name: k.name, Metric: LatencyP50}
	for _, rb := range slices.SortedStableFunc(slices.Values(rbs), func(a, b *readBoard) int { return int(a.strategy) - int(b.strategy) }) {
		series := k.name + " " + StrategyLabel(rb.strategy)
		c.Variants = append(c.Variants, Variant{
			Name: series + " " + SizeLabel(rb.size), Row: series, Bench: rb.strategy.String() + "/" + k.name, Case: SizeLabel(rb.size),
			Baseline: series + " " + SizeLabel(rbs[0].size), Size: rb.size, Series: series, Commands: []string{"evalsha"},
			Op: func(ctx context.Context) error { return k.op(ctx, rb, s.next()) },
		})
	}
	return c
}

// readGoals holds top 10 and around 10 at the largest size to at most 1.5
// times their latency at the smallest. The goal compares 1e7 against 1e4;
// a run of other sizes says which it compared.
func readGoals(f *Fixture, sizes []int64) {
	if len(sizes) < 2 {
		f.Notes = append(f.Notes, "one board size only: the size goal is not checked")
		return
	}
	lo, hi := sizes[0], sizes[len(sizes)-1]
	note := ""
	if lo != 1e4 || hi != 1e7 {
		note = fmt.Sprintf("the goal compares 1e7 against 1e4; this run compares %s against %s", SizeLabel(hi), SizeLabel(lo))
	}
	for i, c := range f.Comparisons {
		if c.Name != "top10" && c.Name != "around10" {
			continue
		}
		for _, st := range []string{"packed", "suffix"} {
			v := c.Name + " " + st
			f.Comparisons[i].Goals = append(f.Comparisons[i].Goals, Goal{Variant: v + " " + SizeLabel(hi), Short: "vs " + SizeLabel(lo),
				Text: fmt.Sprintf("%s at %s <= 1.5x its p50 at %s", v, SizeLabel(hi), SizeLabel(lo)), Target: 1.5, Note: note})
		}
	}
}

// readNotes explains the section.
func readNotes(c Config) []string {
	notes := []string{
		"Entries: points below a million (ties happen), a paid flag and a time; ids u0, u1, ...",
		"rank: Rank (ordinal) of a random id. around10: Around a random id. page-offset: Page(offset, 50) at a random place in the bottom half; page-cursor: Scan from the keyset cursor of the same place, the same 50 entries.",
		fmt.Sprintf("Latencies are at %d concurrent goroutines: they include queueing, the same for every size.", c.Concurrency),
	}
	if !slices.Contains(c.Ints("sizes"), 1e7) {
		notes = append(notes, "1e7 was not run (it needs --sizes ...,1e7).")
	}
	return notes
}
