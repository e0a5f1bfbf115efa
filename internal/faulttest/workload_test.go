package faulttest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/pack"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// objects are one object of each package, as the workload writes them.
type objects struct {
	board *board.Board
	tl    *timeline.Timeline[uint64]
	dm    *decimalmap.Map
	lim   *ratelimit.Limiter
}

// boardLayout is points (higher first), paid (1 first), then time
// (earlier first); the workload draws points from a small range, so many
// entries tie and dense ranks differ from ordinal ones.
func boardLayout(t testing.TB) *pack.Layout { return timedLayout(t, 32) }

// timedLayout is boardLayout with a time field of timeBits bits.
func timedLayout(t testing.TB, timeBits int) *pack.Layout {
	t.Helper()
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 20},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: timeBits, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// openObjects builds handles on client to the objects named name, their
// writes waiting for replicas replicas.
func openObjects(t testing.TB, client rueidis.Client, name string, replicas int) objects {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := board.New(ctx, client, name, boardLayout(t), board.Options{DenseRanks: true, WaitReplicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := timeline.New(client, name, tsid.TSID, timeline.Options{WaitReplicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	dm, err := decimalmap.New(client, name, decimalmap.Options{WaitReplicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	lim, err := ratelimit.New(client, ratelimit.Options{Prefix: "rl:" + name + ":", WaitReplicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	return objects{board: b, tl: tl, dm: dm, lim: lim}
}

// entry is a board entry as a write stored it.
type entry struct {
	values []float64
	data   string
}

// ledger records the acknowledged writes: those whose call returned no
// error.
type ledger struct {
	mu       sync.Mutex
	entries  map[string]entry  // board id -> entry
	msgs     map[uint64]string // timeline ID -> payload
	prices   map[string]string // decimalmap key -> its one value
	admitted map[string]int    // limiter key -> requests admitted
	failed   int               // calls that returned an error
	firstErr error             // the first of them
}

func newLedger() *ledger {
	return &ledger{entries: map[string]entry{}, msgs: map[uint64]string{}, prices: map[string]string{}, admitted: map[string]int{}}
}

// acked counts the acknowledged writes.
func (l *ledger) acked() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.entries) + len(l.msgs) + len(l.prices)
	for _, a := range l.admitted {
		n += a
	}
	return n
}

// note records one call's outcome: ok when it returned no error.
func (l *ledger) note(err error, record func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.failed++
		if l.firstErr == nil {
			l.firstErr = err
		}
		return
	}
	record()
}

// writer writes through every package, round robin, until ctx ends; every
// id, message and key it writes is its own (w), and new.
func writer(ctx context.Context, w int, o objects, l *ledger, round int) {
	rnd := rand.New(rand.NewPCG(uint64(w), uint64(round)))
	for i := 0; ctx.Err() == nil; i++ {
		tag := fmt.Sprintf("r%d-w%d-%d", round, w, i)
		var err error
		switch i % 5 {
		case 0, 1:
			err = submit(ctx, o.board, l, rnd, tag, i%5 == 1)
		case 2:
			id := uint64(round*1_000_000+i+1)<<22 | uint64(w)
			payload := "message " + tag
			err = o.tl.Append(ctx, id, []byte(payload))
			l.note(err, func() { l.msgs[id] = payload })
		case 3:
			key := fmt.Sprintf("%d.%03d%03d", i, round, w)
			_, err = o.dm.Add(ctx, key, tag)
			l.note(err, func() { l.prices[key] = tag })
		case 4:
			key := fmt.Sprintf("w%d", w)
			var res ratelimit.Result
			res, err = o.lim.Allow(ctx, key, ratelimit.Limit{N: ratelimit.MaxN, Window: time.Hour})
			l.note(err, func() { l.admitted[key] += res.Allowed })
		}
		if err != nil {
			time.Sleep(time.Millisecond) // the server is down: do not spin
		}
	}
}

// submit writes one entry with its data (Submit), or two (SubmitMany).
func submit(ctx context.Context, b *board.Board, l *ledger, rnd *rand.Rand, tag string, many bool) error {
	subs := []board.Submission{{ID: tag, Values: []float64{float64(rnd.IntN(50)), float64(rnd.IntN(2)), float64(rnd.IntN(1000))}, Data: []byte("data " + tag)}}
	if !many {
		_, err := b.Submit(ctx, subs[0])
		l.note(err, func() { l.entries[tag] = entry{subs[0].Values, string(subs[0].Data)} })
		return err
	}
	subs = append(subs, board.Submission{ID: tag + "b", Values: []float64{float64(rnd.IntN(50)), 1, 7}, Data: []byte("more " + tag)})
	var err error
	for i, r := range b.SubmitMany(ctx, subs) {
		l.note(r.Err, func() { l.entries[subs[i].ID] = entry{subs[i].Values, string(subs[i].Data)} })
		err = cmpOr(err, r.Err)
	}
	return err
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// load runs writers writers on o until stop returns (which kills the
// server, typically), then waits for them to see it and stop.
func load(o objects, l *ledger, writers, round int, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() { writer(ctx, w, o, l, round) })
	}
	stop()
	time.Sleep(50 * time.Millisecond) // the writers' calls in flight fail
	cancel()
	wg.Wait()
}

// lost checks every acknowledged write of l against o and describes those
// missing or different; it also checks that every entry's dense rank is
// the one its values give among the entries stored.
func lost(t *testing.T, o objects, l *ledger) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	out = append(out, lostEntries(ctx, o.board, l.entries)...)
	out = append(out, lostDense(ctx, o.board)...)
	for id, want := range l.msgs {
		if m, err := o.tl.Get(ctx, id); err != nil || string(m.Payload) != want {
			out = append(out, fmt.Sprintf("timeline message %d: %q, %v; want %q", id, m.Payload, err, want))
		}
	}
	for key, want := range l.prices {
		if vals, err := o.dm.Get(ctx, key); err != nil || !slices.Equal(vals, []string{want}) {
			out = append(out, fmt.Sprintf("decimalmap key %s: %q, %v; want [%q]", key, vals, err, want))
		}
	}
	out = append(out, lostAdmissions(ctx, o.lim, l.admitted)...)
	return out
}

func lostEntries(ctx context.Context, b *board.Board, entries map[string]entry) []string {
	var out []string
	for id, want := range entries {
		e, err := b.Get(ctx, id, board.WithData())
		if err != nil || !slices.Equal(e.Values, want.values) || string(e.Data) != want.data {
			out = append(out, fmt.Sprintf("board entry %s: %v %q, %v; want %v %q", id, e.Values, e.Data, err, want.values, want.data))
		}
	}
	return out
}

// lostDense compares the dense rank of every entry stored with the rank
// its values have among the distinct value tuples stored.
func lostDense(ctx context.Context, b *board.Board) []string {
	all, err := b.Page(ctx, 0, 1000)
	if err != nil {
		return []string{fmt.Sprintf("board page: %v", err)}
	}
	var out []string
	dense, prev := int64(0), []float64(nil)
	for i, e := range all.Entries {
		if !slices.Equal(e.Values, prev) {
			dense, prev = dense+1, e.Values
		}
		if i%7 != 0 { // every seventh entry: ranks cost a round trip each
			continue
		}
		if got, err := b.Rank(ctx, e.ID, board.Dense); err != nil || got != dense {
			out = append(out, fmt.Sprintf("board entry %s: dense rank %d, %v; want %d", e.ID, got, err, dense))
		}
	}
	return out
}

// lostAdmissions checks that the log of each key holds at least the
// requests admitted: a limit of that many refuses one more.
func lostAdmissions(ctx context.Context, lim *ratelimit.Limiter, admitted map[string]int) []string {
	var out []string
	for key, n := range admitted {
		if n == 0 {
			continue
		}
		res, err := lim.Allow(ctx, key, ratelimit.Limit{N: n, Window: time.Hour})
		if err != nil || res.Allowed != 0 {
			out = append(out, fmt.Sprintf("limiter key %s: %d admitted, but a limit of %d admits one more (%+v, %v)", key, n, n, res, err))
		}
	}
	return out
}
