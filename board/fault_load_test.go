package board

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The load of the fault tests: writers that log every write's outcome per
// id, readers that log their failures, and the checks run once the
// operation under test has finished.

// faultTarget is what the writers and readers use of a board: a *Board or
// a *Board.
type faultTarget interface {
	Submit(ctx context.Context, s Submission) (Result, error)
	Remove(ctx context.Context, ids ...string) (int64, error)
	Get(ctx context.Context, id string, opts ...ReadOption) (Entry, error)
	Rank(ctx context.Context, id string, kind RankKind) (int64, error)
	Top(ctx context.Context, n int, opts ...ReadOption) (List, error)
	Scan(ctx context.Context, cursor string, n int, opts ...ReadOption) (List, error)
	Len(ctx context.Context) (int64, error)
}

// faultState is one state an id can be in: absent, or present with values.
type faultState struct {
	gone bool
	vals string // the values, formatted
}

func presentState(vals []float64) faultState { return faultState{vals: fmt.Sprint(vals)} }

var goneState = faultState{gone: true}

func (s faultState) String() string {
	if s.gone {
		return "absent"
	}
	return s.vals
}

// idLog is what the writers know of one id: the states it may be in now.
// An acknowledged write leaves exactly one (what the write reported
// stored); a write that returned an error leaves the states before it and
// the one it would have made, since it may or may not have been applied.
type idLog struct {
	may     []faultState
	unknown int  // writes to the id that returned an error
	acked   bool // an acknowledged write is among those the states come from
}

// ledger logs every write of a board's writers, per id.
type ledger struct {
	mu  sync.Mutex
	ids map[string]*idLog

	acked, failed atomic.Int64
}

func newLedger() *ledger { return &ledger{ids: map[string]*idLog{}} }

// known records that id is in state s, as an acknowledged write reported.
func (l *ledger) known(id string, s faultState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids[id] = &idLog{may: []faultState{s}, acked: true}
	l.acked.Add(1)
}

// unsure records that a write of state s to id returned an error: id may
// be in s or in any state it might have been in before. The writer never
// writes id again (a write cut short by a timeout could still be applied
// after a later one), so its states stay as they are from here on.
func (l *ledger) unsure(id string, s faultState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lg := l.ids[id]
	if lg == nil {
		lg = &idLog{may: []faultState{goneState}}
		l.ids[id] = lg
	}
	if !slices.Contains(lg.may, s) {
		lg.may = append(lg.may, s)
	}
	lg.unknown++
	l.failed.Add(1)
}

// callLog records the calls of one kind (writes or reads): when each
// acknowledged one ended, the longest latency, and the failures.
type callLog struct {
	mu       sync.Mutex
	okEnds   []time.Time
	maxLat   time.Duration
	maxLatAt time.Time
	fails    []callFailure
	nfail    int
}

type callFailure struct {
	at  time.Time
	err error
}

func (c *callLog) record(start time.Time, err error) {
	end := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if lat := end.Sub(start); lat > c.maxLat {
		c.maxLat, c.maxLatAt = lat, start
	}
	if err != nil {
		c.nfail++
		if len(c.fails) < 20 {
			c.fails = append(c.fails, callFailure{at: end, err: err})
		}
		return
	}
	c.okEnds = append(c.okEnds, end)
}

// unavailability returns the longest stretch within [from, to] with no
// call acknowledged (a failed or slow call leaves such a stretch) and the
// longest latency of a single call.
func (c *callLog) unavailability(from, to time.Time) (gap, lat time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ends := slices.Clone(c.okEnds)
	slices.SortFunc(ends, func(a, b time.Time) int { return a.Compare(b) })
	prev := from
	for _, e := range ends {
		if e.Before(from) {
			continue
		}
		if e.After(to) {
			e = to
		}
		gap = max(gap, e.Sub(prev))
		prev = e
		if e.Equal(to) {
			break
		}
	}
	gap = max(gap, to.Sub(prev))
	return gap, c.maxLat
}

func (c *callLog) summary(kind string, from, to time.Time) string {
	gap, lat := c.unavailability(from, to)
	c.mu.Lock()
	defer c.mu.Unlock()
	s := fmt.Sprintf("%s: %d acknowledged, %d failed; unavailable for at most %.2fs (longest stretch with none acknowledged), longest call %.2fs",
		kind, len(c.okEnds), c.nfail, gap.Seconds(), lat.Seconds())
	for i, f := range c.fails[:min(len(c.fails), 3)] {
		s += fmt.Sprintf("\n\t%s failure %d at +%.2fs: %v", kind, i+1, f.at.Sub(from).Seconds(), f.err)
	}
	return s
}

// faultValues draws values for faultLayout (and what it migrates to).
func faultValues(rng *rand.Rand) []float64 {
	return []float64{float64(rng.IntN(1 << 12)), float64(rng.IntN(2)), float64(rng.IntN(1 << 8))}
}

// fillFault writes n entries f0..f<n-1> through write, a third of them
// with member data, and logs them.
func fillFault(t *testing.T, l *ledger, n int, seed uint64, write func([]Submission) []ManyResult) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 17))
	subs := make([]Submission, n)
	for i := range subs {
		subs[i] = Submission{ID: faultID(i), Values: faultValues(rng)}
		if i%3 == 0 {
			subs[i].Data = []byte("data of " + faultID(i)) // the writers leave it as it is
		}
	}
	for i, r := range write(subs) {
		if r.Err != nil {
			t.Fatalf("filling the board: submission %d: %v", i, r.Err)
		}
		l.known(subs[i].ID, presentState(r.Entry.Values))
	}
}

func faultID(i int) string { return fmt.Sprintf("f%d", i) }

// load runs writers and readers on a board until stop is called.
type load struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	start  time.Time
}

// loadConfig shapes a load.
type loadConfig struct {
	writers, readers int
	ids              int // ids f0..f<ids-1>, split among the writers
	seed             uint64
	// target returns the handle to use now; stale reports that the handle
	// returned an ErrMismatch (a Migrate switched the board), so that the
	// next call of target opens the board again.
	target func(ctx context.Context) (faultTarget, error)
	stale  func(h faultTarget)
	// ledgerOf returns the ledger of the board h writes to (a periodic
	// board writes to one window after another).
	ledgerOf func(h faultTarget) *ledger
	// writes and reads log the calls' outcomes and latencies.
	writes, reads *callLog
	// pace is the pause between two calls of one goroutine.
	pace time.Duration
}

// startLoad starts the writers and readers.
func startLoad(c loadConfig) *load {
	ctx, cancel := context.WithCancel(context.Background())
	ld := &load{cancel: cancel, start: time.Now()}
	if c.pace == 0 {
		c.pace = 2 * time.Millisecond
	}
	for w := range c.writers {
		ld.wg.Add(1)
		go func() {
			defer ld.wg.Done()
			writer(ctx, c, w)
		}()
	}
	for r := range c.readers {
		ld.wg.Add(1)
		go func() {
			defer ld.wg.Done()
			reader(ctx, c, r)
		}()
	}
	return ld
}

// stop stops the load and waits for its calls to return.
func (ld *load) stop() {
	ld.cancel()
	ld.wg.Wait()
}

// callTimeout bounds one call of the load: longer than a frozen shard
// makes a write wait (10 s).
const callTimeout = 15 * time.Second

// writer writes its share of the ids (those i with i%writers == w) until
// ctx ends: Replace, Best and Remove at random. An id whose write failed is
// written no more.
func writer(ctx context.Context, c loadConfig, w int) {
	rng := rand.New(rand.NewPCG(c.seed, uint64(w)+100))
	var mine []string
	for i := w; i < c.ids; i += c.writers {
		mine = append(mine, faultID(i))
	}
	failing := 0 // calls failed in a row
	for ctx.Err() == nil && len(mine) > 0 {
		sleepCtx(ctx, c.pace)
		h, err := c.target(ctx)
		if err != nil {
			continue
		}
		l := c.ledgerOf(h)
		k := rng.IntN(len(mine))
		id := mine[k]
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
		start := time.Now()
		var s faultState
		switch p := rng.IntN(10); {
		case p < 1:
			s = goneState
			_, err = h.Remove(cctx, id)
		default:
			vals := faultValues(rng)
			s = presentState(vals)
			policy := Replace
			if p < 5 {
				policy = Best
			}
			var r Result
			r, err = h.Submit(cctx, Submission{ID: id, Values: vals, Policy: policy})
			if err == nil {
				s = presentState(r.Entry.Values)
			}
		}
		cancel()
		c.writes.record(start, err)
		if err == nil {
			l.known(id, s)
			failing = 0
			continue
		}
		l.unsure(id, s)
		mine = slices.Delete(mine, k, k+1)
		if errors.Is(err, ErrMismatch) {
			c.stale(h)
		}
		// A failing server is not hammered, nor are all the ids spent.
		sleepCtx(ctx, min(20*time.Millisecond<<failing, 300*time.Millisecond))
		failing = min(failing+1, 8)
	}
}

// reader reads the board until ctx ends: Top, Rank and Get. A missing id
// (ErrNotFound) is an answer, not a failure.
func reader(ctx context.Context, c loadConfig, r int) {
	rng := rand.New(rand.NewPCG(c.seed, uint64(r)+200))
	for ctx.Err() == nil {
		sleepCtx(ctx, c.pace)
		h, err := c.target(ctx)
		if err != nil {
			continue
		}
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
		start := time.Now()
		id := faultID(rng.IntN(max(c.ids, 1)))
		switch rng.IntN(3) {
		case 0:
			_, err = h.Top(cctx, 10)
		case 1:
			_, err = h.Rank(cctx, id, Competition)
		default:
			_, err = h.Get(cctx, id)
		}
		cancel()
		if errors.Is(err, ErrNotFound) {
			err = nil
		}
		if ctx.Err() != nil && err != nil {
			return // stopped mid-call
		}
		c.reads.record(start, err)
		if errors.Is(err, ErrMismatch) {
			c.stale(h)
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// readBoard returns every entry of b by Scan, by id, and fails t on an id
// read twice (on two shards, or twice on one board).
func readBoard(t *testing.T, what string, b faultTarget) map[string]faultState {
	t.Helper()
	return readEntries(t, what, b, false)
}

// readEntries is readBoard; withData puts each entry's member data in its
// state too.
func readEntries(t *testing.T, what string, b faultTarget, withData bool) map[string]faultState {
	t.Helper()
	ctx := t.Context()
	got := map[string]faultState{}
	var dup []string
	var c string
	var opts []ReadOption
	if withData {
		opts = append(opts, WithData())
	}
	for {
		p, err := b.Scan(ctx, c, 500, opts...)
		if err != nil {
			t.Fatalf("%s: Scan: %v", what, err)
		}
		for _, e := range p.Entries {
			if _, ok := got[e.ID]; ok {
				dup = append(dup, e.ID)
			}
			got[e.ID] = presentState(e.Values)
			if withData && e.Data != nil {
				got[e.ID] = faultState{vals: fmt.Sprintf("%v data %q", e.Values, e.Data)}
			}
		}
		if p.Next == "" {
			break
		}
		c = p.Next
	}
	n, err := b.Len(ctx)
	if err != nil {
		t.Fatalf("%s: Len: %v", what, err)
	}
	if len(dup) > 0 {
		sort.Strings(dup)
		t.Errorf("%s: %d ids read twice by Scan (duplicated entries): %q", what, len(dup), dup[:min(len(dup), 20)])
	}
	if n != int64(len(got)) {
		t.Errorf("%s: Len %d, but Scan read %d distinct ids: an entry is duplicated or hidden", what, n, len(got))
	}
	return got
}

// lossReport compares a board's entries with its ledger.
type lossReport struct {
	acked, unknownIDs int
	lost              []string // an id in none of the states its writes allow
	phantom           []string // an id on the board that no write put there
}

// checkLedger compares the entries read from a board with the ledger of
// its writes, and reports every mismatch precisely: an id whose entry is
// none of the states the writes allow (lost: the acknowledged state, or
// every possible state, is missing), and ids no write made.
func checkLedger(l *ledger, got map[string]faultState) lossReport {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := lossReport{acked: int(l.acked.Load())}
	ids := make([]string, 0, len(l.ids))
	for id := range l.ids {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		lg := l.ids[id]
		if lg.unknown > 0 {
			r.unknownIDs++
		}
		s, ok := got[id]
		if !ok {
			s = goneState
		}
		if !slices.Contains(lg.may, s) {
			r.lost = append(r.lost, fmt.Sprintf("%s: want %s, got %s (%d unacknowledged writes)", id, joinStates(lg.may), s, lg.unknown))
		}
	}
	for id := range got {
		if _, ok := l.ids[id]; !ok {
			r.phantom = append(r.phantom, id)
		}
	}
	sort.Strings(r.phantom)
	return r
}

func joinStates(ss []faultState) string {
	var out []string
	for _, s := range ss {
		out = append(out, s.String())
	}
	if len(out) == 1 {
		return out[0]
	}
	return "one of {" + strings.Join(out, ", ") + "}"
}

// report logs the comparison and fails t on any loss or phantom, listing
// the ids.
func (r lossReport) report(t *testing.T, what string) {
	t.Helper()
	t.Logf("%s: %d writes acknowledged, %d ids with an unacknowledged write; %d lost or divergent, %d not written by anyone",
		what, r.acked, r.unknownIDs, len(r.lost), len(r.phantom))
	for _, s := range r.lost[:min(len(r.lost), 20)] {
		t.Errorf("%s: lost or divergent: %s", what, s)
	}
	if len(r.lost) > 20 {
		t.Errorf("%s: ... and %d more lost or divergent", what, len(r.lost)-20)
	}
	if len(r.phantom) > 0 {
		t.Errorf("%s: %d ids on the board that no write put there: %q", what, len(r.phantom), r.phantom[:min(len(r.phantom), 20)])
	}
}

// The fault tests' ledger names each id whose entry is none of the states
// its writes allow (acknowledged value gone, removed entry back, unknown
// write neither applied nor not), with what was expected and what was
// read, and the ids no write made; an id whose failed write may or may
// not have been applied is accepted either way.
func TestFaultLedgerReportsEachLoss(t *testing.T) {
	l := newLedger()
	v := func(x float64) faultState { return presentState([]float64{x, 0, 0}) }
	l.known("kept", v(1))
	l.known("lost", v(2))
	l.known("stale", v(3))
	l.known("back", goneState)
	l.known("either", v(4))
	l.unsure("either", v(5))
	l.known("neither", v(6))
	l.unsure("neither", goneState)
	got := map[string]faultState{"kept": v(1), "stale": v(9), "back": v(1), "either": v(5), "neither": v(7), "stray": v(1)}
	r := checkLedger(l, got)
	want := []string{
		"back: want absent, got [1 0 0] (0 unacknowledged writes)",
		"lost: want [2 0 0], got absent (0 unacknowledged writes)",
		"neither: want one of {[6 0 0], absent}, got [7 0 0] (1 unacknowledged writes)",
		"stale: want [3 0 0], got [9 0 0] (0 unacknowledged writes)",
	}
	if !slices.Equal(r.lost, want) {
		t.Errorf("lost:\n%s\nwant:\n%s", strings.Join(r.lost, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(r.phantom, []string{"stray"}) {
		t.Errorf("phantom = %q, want [stray]", r.phantom)
	}
	if r.acked != 6 || r.unknownIDs != 2 {
		t.Errorf("acked %d, unknown ids %d; want 6 and 2", r.acked, r.unknownIDs)
	}
}
