package benchload

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tiebreak/tiebreak/board"
)

// A hot board's top 10 read by many players while results keep arriving:
// Top(10) through a handle with CacheTop (the board keeps its best
// entries in a key of its own, KeepTop, and the handle serves them from
// its client's memory) against the same read through a handle without,
// while a background writer submits results spread over the board and a
// probe puts a new entry at the top now and then. Besides the reads/s
// and Redis CPU per read of both, it measures how stale a cached read can
// be (from a probe's acknowledged write to the first cached read that
// shows it) and how late a Watch of the top delivers it. board's
// BenchmarkHotTop runs it.
func init() {
	register(Workload{
		Num: 11, Name: "hottop", Title: "11. A hot top: cached reads and watches",
		RatioOf: "reads/s / the uncached read's reads/s, in the same round",
		Params: []Param{
			{Name: "hot-board", Usage: "entries of the hot workload's board", Full: "1e6", Quick: "1e4", Min: 1000, Max: 1e8},
			{Name: "hot-writes", Usage: "background writes per second of the hot workload", Full: "1000", Quick: "1000", Min: 0, Max: 1e5},
			{Name: "hot-readers", Usage: "concurrent readers of the hot workload's top", Full: "64", Quick: "64", Min: 1, Max: 4096},
			{Name: "hot-calm", Usage: "milliseconds of probes without readers at the end of the hot workload", Full: "5000", Quick: "1000", Min: 0, Max: 600000},
		},
		Rows:    func(Config) int { return 2 },
		Goals:   func(Config) int { return 1 },
		Prepare: prepareHot,
	})
}

// The hot workload's variants; HTUncached is what ratios divide by.
const (
	HTCached   = "cached"
	HTUncached = "uncached"
)

// hotYieldEvery is how many reads a reader makes, on average, between
// two yields of its processor (runtime.Gosched), as a request handler
// yields when it writes its response. A goroutine that never blocks and
// never yields runs for Go's whole time slice (10ms) each turn, so 64 of
// them on 2 cores keep the client's goroutine that reads Redis's
// messages (the invalidations, the watch's replies) waiting for hundreds
// of milliseconds: that wait is Go's scheduler, not the cache.
const hotYieldEvery = 16

// hotWatchEvery is the interval of the workload's Watch of the top.
const hotWatchEvery = 50 * time.Millisecond

// hotProbe is the probe's state: the id it put at the top last, and when
// its write was acknowledged.
type hotProbe struct {
	mu    sync.Mutex
	id    string
	acked time.Time
	seen  bool // a cached read showed it
	watch bool // the watch delivered it
	stale []time.Duration
	late  []time.Duration
}

// saw records a cached read (or, watch, a delivery) whose best entry is
// first, at now.
func (p *hotProbe) saw(first string, now time.Time, watch bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if first != p.id || p.acked.IsZero() {
		return
	}
	switch {
	case watch && !p.watch:
		p.watch, p.late = true, append(p.late, now.Sub(p.acked))
	case !watch && !p.seen:
		p.seen, p.stale = true, append(p.stale, now.Sub(p.acked))
	}
}

// prepareHot loads a board with KeepTop, starts the background writer,
// the probe and a watch, and compares cached and uncached Top(10).
func prepareHot(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	size := int64(cfg.Int("hot-board"))
	name := env.Prefix + "_w11_hot"
	b, err := board.New(ctx, env.Client, name, Layout, board.Options{KeepTop: 10})
	if err != nil {
		return nil, err
	}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	probe := &hotProbe{}
	f := &Fixture{Drop: func(ctx context.Context) error {
		stop()
		wg.Wait()
		return b.Drop(ctx)
	}}
	rate, err := loadBoard(ctx, env, "hot: loading "+SizeLabel(size), b, size, LoadEntry)
	if err != nil {
		return f, err
	}
	caching := cmp.Or(env.Caching, env.Client)
	cached, err := board.Open(ctx, caching, name, board.Options{CacheTop: true})
	if err != nil {
		return f, err
	}
	var writes, failed atomic.Int64
	wg.Go(func() { hotWriter(bg, b, size, cfg.Int("hot-writes"), &writes, &failed) })
	wg.Go(func() { hotProber(bg, b, probe, &failed) })
	wg.Go(func() {
		top := func(ctx context.Context) (board.List, error) { return cached.Top(ctx, 10) }
		_ = board.Watch(bg, hotWatchEvery, top, func(l board.List) error {
			if len(l.Entries) > 0 {
				probe.saw(l.Entries[0].ID, time.Now(), true)
			}
			return nil
		})
	})
	wg.Go(func() { hotSentinel(bg, cached, probe) })
	read := func(h *board.Board) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			_, err := h.Top(ctx, 10)
			if rand.N(hotYieldEvery) == 0 {
				runtime.Gosched()
			}
			return err
		}
	}
	c := Comparison{Name: "top10", Case: "top10 " + SizeLabel(size), Baseline: HTUncached, Metric: Throughput, Callers: cfg.Int("hot-readers"),
		Variants: []Variant{
			{Name: HTCached, Op: read(cached), Commands: []string{"get"}},
			{Name: HTUncached, Op: read(b), Commands: []string{"zrange"}},
		},
		Goals: []Goal{{Variant: HTCached, Short: "vs uncached", Target: 50, AtLeast: true,
			Text: "cached Top(10) >= 50x the uncached reads/s"}}}
	f.Comparisons = []Comparison{c}
	f.Notes = []string{
		fmt.Sprintf("A packed board of %s entries with KeepTop 10, loaded at %.0f entries/s; %d readers of Top(10), each yielding its processor every %d reads on average; in the background, %d writes/s (Submit, Best) of random entries spread over the board, and a probe that puts a new entry at the top every 100ms.",
			SizeLabel(size), rate, cfg.Int("hot-readers"), hotYieldEvery, cfg.Int("hot-writes")),
		"cached: a handle with CacheTop on a client with client-side caching (the board's best entries' key, dropped by Redis's invalidation when a write changes them); uncached: the same Top(10) without, one ZRANGE.",
	}
	calm := time.Duration(cfg.Int("hot-calm")) * time.Millisecond
	f.Finish = func() []string {
		// Under load: while the readers ran (the comparisons), then calm:
		// the background writes, the probe, the sentinel and the watch
		// alone, so that the client's own CPU does not hold them back.
		probe.mu.Lock()
		stale, late := probe.stale, probe.late
		probe.stale, probe.late = nil, nil
		probe.mu.Unlock()
		time.Sleep(calm)
		probe.mu.Lock()
		defer probe.mu.Unlock()
		return []string{
			fmt.Sprintf("Staleness of a cached read (from a probe's acknowledged write to the first cached read showing it, read by a sentinel every %v): while the readers ran (%d probes) %s; calm, for %v after (%d probes) %s.",
				hotSentinelEvery, len(stale), durationQuantiles(stale), calm, len(probe.stale), durationQuantiles(probe.stale)),
			fmt.Sprintf("Watch delay (a Watch of the top every %v; from a probe's acknowledged write to its delivery; goal: p99 within 2 intervals, %v): while the readers ran (%d probes) %s; calm (%d probes) %s.",
				hotWatchEvery, 2*hotWatchEvery, len(late), durationQuantiles(late), len(probe.late), durationQuantiles(probe.late)),
			fmt.Sprintf("Background writes made: %d; failed writes (writer and probe): %d. While the readers run they hold the client's cores: the staleness and the delay then include the wait of the client's goroutine that reads Redis's messages.", writes.Load(), failed.Load()),
		}
	}
	return f, nil
}

// hotSentinelEvery is how often the staleness sentinel reads the cached
// top: the staleness it measures is late by at most as much.
const hotSentinelEvery = 200 * time.Microsecond

// hotSentinel reads the cached top of h every hotSentinelEvery until ctx
// ends, and tells the probe what it saw.
func hotSentinel(ctx context.Context, h *board.Board, p *hotProbe) {
	for ctx.Err() == nil {
		if l, err := h.Top(ctx, 10); err == nil && len(l.Entries) > 0 {
			p.saw(l.Entries[0].ID, time.Now(), false)
		}
		time.Sleep(hotSentinelEvery)
	}
}

// hotWriter submits perSec random entries a second to b until ctx ends.
func hotWriter(ctx context.Context, b *board.Board, size int64, perSec int, writes, failed *atomic.Int64) {
	if perSec == 0 {
		return
	}
	tick := time.NewTicker(time.Second / time.Duration(perSec))
	defer tick.Stop()
	for s := uint64(1 << 40); ; s++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		e := LoadEntry(int64(Mix(s) % uint64(size)))
		e.Points = int64(Mix(s+1) % 1_000_000)
		if _, err := b.Submit(ctx, board.Submission{ID: IDOf(int64(Mix(s) % uint64(size))), Values: e.Values(), Policy: board.Best}); err != nil && ctx.Err() == nil {
			failed.Add(1)
		}
		writes.Add(1)
	}
}

// hotProber puts a new entry at the top of b every 100ms (the most points
// of the layout, each probe earlier than the last), and records when its
// write was acknowledged.
func hotProber(ctx context.Context, b *board.Board, p *hotProbe, failed *atomic.Int64) {
	maxPoints := int64(1)<<pointsBits - 1
	for i := int64(0); ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
		id := "probe" + strconv.FormatInt(i, 10)
		e := Entry{Points: maxPoints, Paid: 1, Time: 1<<timeBits - 2 - i%(1<<timeBits-2)}
		if _, err := b.Submit(ctx, board.Submission{ID: id, Values: e.Values()}); err != nil {
			if ctx.Err() == nil {
				failed.Add(1)
			}
			continue
		}
		p.mu.Lock()
		p.id, p.acked, p.seen, p.watch = id, time.Now(), false, false
		p.mu.Unlock()
	}
}

// durationQuantiles is "p50 X, p99 Y, max Z" of ds, or "none".
func durationQuantiles(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	q := func(p float64) time.Duration {
		return s[int(math.Min(float64(len(s)-1), math.Ceil(p*float64(len(s)))-1))]
	}
	return fmt.Sprintf("p50 %v, p99 %v, max %v", q(0.50).Round(time.Microsecond), q(0.99).Round(time.Microsecond), s[len(s)-1].Round(time.Microsecond))
}
