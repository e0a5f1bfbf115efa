package board

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/observe"
)

// watchLog collects a watcher's deliveries.
type watchLog struct {
	got  chan List
	done chan error
}

// topOf is the read of b's best n entries, for Watch.
func topOf(b *Board, n int, opts ...ReadOption) func(context.Context) (List, error) {
	return func(ctx context.Context) (List, error) { return b.Top(ctx, n, opts...) }
}

// startWatch watches read every interval until the test ends.
func startWatch(t *testing.T, read func(context.Context) (List, error), interval time.Duration) *watchLog {
	ctx, cancel := context.WithCancel(context.Background())
	w := &watchLog{got: make(chan List, 10000), done: make(chan error, 1)}
	go func() {
		w.done <- Watch(ctx, interval, read, func(l List) error { w.got <- l; return nil })
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-w.done; !errors.Is(err, context.Canceled) {
			t.Errorf("Watch ended with %v, want context.Canceled", err)
		}
	})
	return w
}

// until reads deliveries until one equals want, and returns them all; it
// fails the test if none does within a minute (a deadline for a broken
// watcher, not a measure: the watch delivers within intervals).
func (w *watchLog) until(t *testing.T, want List) []List {
	t.Helper()
	var out []List
	deadline := time.After(time.Minute)
	for {
		select {
		case l := <-w.got:
			out = append(out, l)
			if reflect.DeepEqual(l, want) {
				return out
			}
		case <-deadline:
			t.Fatalf("no delivery of %v in a minute; got %d: %v", listIDs(want), len(out), out)
		}
	}
}

// Every delivery of a watch is the view as it was at some moment (a state
// the board went through), two deliveries in a row differ, and the last
// state is delivered: for the best entries, the entries around an id and
// a set of ids, with and without extra ranks, on one server and a
// cluster, on both strategies.
func TestWatchDeliversEachChange(t *testing.T) {
	// No read here waits through an outage: a slow one (a loaded test
	// machine) must not be delivered twice.
	setWatchSlow(t, time.Hour)
	for env, e := range serverAndCluster(t) {
		for _, s := range []Strategy{PackedScore, KeySuffix} {
			t.Run(env+"/"+s.String(), func(t *testing.T) {
				ctx := context.Background()
				b := newBoard(t, e.Client, e.Prefix, "watch"+s.String(), testLayout(t), Options{Strategy: s})
				views := []struct {
					name string
					read func(context.Context) (List, error)
				}{
					{"top 3", topOf(b, 3)},
					{"top 5 with ranks and total", topOf(b, 5, WithRanks(Competition), WithTotal())},
					{"around p7", func(ctx context.Context) (List, error) { return b.Around(ctx, "p7", 3) }},
					{"among 3 with total", func(ctx context.Context) (List, error) {
						return b.Among(ctx, []string{"p1", "p7", "p9"}, WithTotal())
					}},
				}
				logs := make([]*watchLog, len(views))
				states := make([]map[string]bool, len(views))
				record := func() {
					for i, v := range views {
						l, _, err := watchRead(ctx, v.read, time.Hour)
						if err != nil {
							t.Fatal(err)
						}
						states[i][listKey(l)] = true
					}
				}
				for i := range views {
					states[i] = map[string]bool{}
				}
				record() // the empty board
				for i, v := range views {
					logs[i] = startWatch(t, v.read, 2*time.Millisecond)
				}
				for step := range 60 {
					id := "p" + strconv.Itoa(step*7%13)
					mustSubmit(t, b, Submission{ID: id, Values: []float64{float64(step * 37 % 50), float64(step % 2), 1}})
					record()
				}
				for i, v := range views {
					final, _, err := watchRead(ctx, v.read, time.Hour)
					if err != nil {
						t.Fatal(err)
					}
					got := logs[i].until(t, final)
					for j, l := range got {
						if !states[i][listKey(l)] {
							t.Errorf("%s: delivery %d is no state the board went through: %v", v.name, j, l)
						}
						if j > 0 && reflect.DeepEqual(l, got[j-1]) {
							t.Errorf("%s: deliveries %d and %d are the same list", v.name, j-1, j)
						}
					}
					t.Logf("%s: %d deliveries for 60 writes", v.name, len(got))
				}
			})
		}
	}
}

// listKey is a list's identity for a set of lists.
func listKey(l List) string {
	s := strconv.FormatInt(l.Total, 10)
	for _, e := range l.Entries {
		s += "|" + e.ID + ":" + strconv.FormatInt(e.Rank, 10) + ":" + strconv.FormatInt(e.Competition, 10)
		for _, v := range e.Values {
			s += "," + strconv.FormatFloat(v, 'g', -1, 64)
		}
	}
	return s
}

// A watch rides out a server crash and restart: the change made after it
// is delivered (the client retries its reads meanwhile; a read that
// fails is tried again at the next interval).
func TestWatchSurvivesRestart(t *testing.T) {
	srv, client := privateServer(t, "--appendonly", "yes", "--appendfsync", "always")
	ctx := context.Background()
	b := newBoard(t, client, "", "watchrestart", testLayout(t), Options{})
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{5, 0, 1}})
	w := startWatch(t, topOf(b, 2), 2*time.Millisecond)
	before, err := b.Top(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	w.until(t, before)
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	waitServing(t, b.Len)
	resubmit(t, b, Submission{ID: "b", Values: []float64{9, 0, 1}})
	after, err := b.Top(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	w.until(t, after)
}

// A watch learns of an outage shorter than the client's own retries (the
// client holds a read while the server restarts and sends it once it is
// back, so the read succeeds late): the first read after it is delivered,
// though the list did not change.
func TestWatchDeliversAfterShortOutage(t *testing.T) {
	setWatchSlow(t, 50*time.Millisecond)
	srv, client := privateServer(t, "--appendonly", "yes", "--appendfsync", "always")
	b := newBoard(t, client, "", "watchshort", testLayout(t), Options{})
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{5, 0, 1}})
	w := startWatch(t, topOf(b, 2), 2*time.Millisecond)
	before, err := b.Top(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	w.until(t, before)
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the read held meanwhile is slow
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if got := w.until(t, before); len(got) != 1 {
		t.Errorf("after the outage: %d deliveries, want the unchanged list once: %v", len(got), got)
	}
}

// slowReads is an Observer that makes every read slow and counts them.
type slowReads struct{ n atomic.Int64 }

func (s *slowReads) Start(ctx context.Context, _ observe.Op) (context.Context, observe.Span) {
	time.Sleep(5 * time.Millisecond)
	s.n.Add(1)
	return ctx, s
}

func (*slowReads) End(observe.Outcome) {}

// A board always slow to read (every read longer than the watch's slow
// bound) is delivered once more, not at every read: only the first slow
// read after a fast one may be an outage's end.
func TestWatchSlowBoardDeliveredOnce(t *testing.T) {
	setWatchSlow(t, time.Millisecond)
	env := redistest.New(t)
	w := newBoard(t, env.Client, env.Prefix, "watchslow", testLayout(t), Options{})
	mustSubmit(t, w, Submission{ID: "a", Values: []float64{5, 0, 1}})
	obs := &slowReads{}
	b, err := Open(t.Context(), env.Client, w.Name(), Options{Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	log := startWatch(t, topOf(b, 2), time.Millisecond)
	for obs.n.Load() < 30 {
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(log.got); n > 2 {
		t.Errorf("%d deliveries of an unchanged board in %d slow reads, want the first and at most one more", n, obs.n.Load())
	}
}

// setWatchSlow sets watchSlow to d for the test, and back after its
// watches end (a cleanup registered before theirs runs after them).
func setWatchSlow(t *testing.T, d time.Duration) {
	old := watchSlow
	watchSlow = d
	t.Cleanup(func() { watchSlow = old })
}

// Watch refuses what it cannot watch, delivering nothing.
func TestWatchRefuses(t *testing.T) {
	env := redistest.New(t)
	b := newBoard(t, env.Client, env.Prefix, "watchbad", testLayout(t), Options{})
	ctx := context.Background()
	none := func(List) error { t.Error("delivered"); return nil }
	among := func(ids ...string) func(context.Context) (List, error) {
		return func(ctx context.Context) (List, error) { return b.Among(ctx, ids) }
	}
	around := func(ctx context.Context) (List, error) { return b.Around(ctx, "", 3) }
	reads := 0
	counted := func(ctx context.Context) (List, error) { reads++; return b.Top(ctx, 3) }
	for name, err := range map[string]error{
		"top 0":       Watch(ctx, time.Second, topOf(b, 0), none),
		"among none":  Watch(ctx, time.Second, among(), none),
		"empty id":    Watch(ctx, time.Second, around, none),
		"interval":    Watch(ctx, 0, counted, none),
		"no read":     Watch(ctx, time.Second, nil, none),
		"no deliver":  Watch(ctx, time.Second, counted, nil),
		"dense ranks": Watch(ctx, time.Second, topOf(b, 3, WithRanks(Dense)), none),
		"nil context": Watch(nil, time.Second, counted, none), //nolint:staticcheck // the refusal tested
	} {
		if !errors.Is(err, ErrArgument) {
			t.Errorf("%s: err = %v, want ErrArgument", name, err)
		}
	}
	if reads != 0 {
		t.Errorf("Watch refused its arguments after %d reads, want none", reads)
	}
	stop := errors.New("stop")
	if err := Watch(ctx, time.Second, topOf(b, 3), func(List) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("a deliver that fails: Watch returned %v, want its error", err)
	}
}

// A watch whose board a migration switched to another descriptor ends
// with ErrMismatch (its handle can no longer read the board), instead of
// trying the same read forever.
func TestWatchEndsAfterMigration(t *testing.T) {
	env := redistest.New(t)
	b := newBoard(t, env.Client, env.Prefix, "watchmig", testLayout(t), Options{})
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{5, 0, 1}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	delivered := make(chan struct{}, 100)
	done := make(chan error, 1)
	go func() {
		done <- Watch(ctx, 5*time.Millisecond, topOf(b, 2), func(List) error { delivered <- struct{}{}; return nil })
	}()
	<-delivered
	other, err := Open(ctx, env.Client, b.name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Migrate(ctx, testLayout(t), Options{Strategy: KeySuffix}, MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, ErrMismatch) {
		t.Fatalf("Watch after a migration = %v, want ErrMismatch", err)
	}
}

// A read answering ErrNotFound (an id not on the board) is an empty list
// with Total -1, until the id is written; one answering ErrNotFound and
// ErrArgument together is a refusal, which ends the watch with it before
// anything is delivered.
func TestWatchOfAnAbsentID(t *testing.T) {
	env := redistest.New(t)
	b := newBoard(t, env.Client, env.Prefix, "watchabsent", testLayout(t), Options{})
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{5, 0, 1}})
	w := startWatch(t, func(ctx context.Context) (List, error) { return b.Around(ctx, "newbie", 3) }, time.Millisecond)
	w.until(t, List{Entries: []Entry{}, Total: -1})
	mustSubmit(t, b, Submission{ID: "newbie", Values: []float64{9, 0, 1}})
	want, err := b.Around(context.Background(), "newbie", 3)
	if err != nil {
		t.Fatal(err)
	}
	w.until(t, want)

	refused := fmt.Errorf("board: a refusal naming an id: %w: %w", ErrNotFound, ErrArgument)
	err = Watch(t.Context(), time.Millisecond, func(context.Context) (List, error) { return List{}, refused },
		func(List) error { t.Error("delivered"); return nil })
	if !errors.Is(err, refused) {
		t.Errorf("Watch of a read refused with ErrNotFound and ErrArgument: %v, want that error", err)
	}
}
