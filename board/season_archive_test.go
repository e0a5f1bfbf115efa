package board

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// An archive made without a retention, of a window whose entries carry no
// data, on a board without dense ranks: the copy's fenced writes carry
// the plainest submissions there are.
func TestArchivePlainWindow(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	p, w := endedWindow(t, env, "plain", 200*time.Millisecond, 0)
	a, err := p.Archive(ctx, w, ArchiveOptions{Top: 10})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := a.Len(ctx); err != nil || n != 1 {
		t.Errorf("archive Len = %d, %v; want 1", n, err)
	}
	if err := a.Drop(ctx); err != nil {
		t.Fatal(err)
	}
}

// endedWindow makes a periodic board of windows of length every, writes
// one entry to its current window, and waits until the window has been
// over for at least past.
func endedWindow(t *testing.T, env *redistest.Env, name string, every, past time.Duration) (*Periodic, Window) {
	t.Helper()
	p, err := NewPeriodic(env.Client, env.Prefix+name, testLayout(t), Every(every), time.Minute, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := p.period.Window(time.Now())
	if _, err := p.At(w.Start).Submit(t.Context(), Submission{ID: "p1", Values: []float64{1, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(w.End.Add(past)) + 10*time.Millisecond)
	return p, w
}

// An archive whose retention ran out before now would expire at once:
// Archive refuses it before claiming anything, so a later Archive of the
// window is not kept waiting on a claim.
func TestArchiveRefusesAnEndedRetention(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	p, w := endedWindow(t, env, "late", 100*time.Millisecond, 50*time.Millisecond)
	before := dumpKeys(t, env)
	if _, err := p.Archive(ctx, w, ArchiveOptions{Retention: 50 * time.Millisecond}); !errors.Is(err, ErrArgument) {
		t.Fatalf("Archive with a retention ended before now = %v; want ErrArgument", err)
	}
	if after := dumpKeys(t, env); !maps.Equal(before, after) {
		t.Fatalf("the refused Archive changed keys: before %v, after %v", slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after)))
	}
	start := time.Now()
	a, err := p.Archive(ctx, w, ArchiveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited >= archiveLease {
		t.Errorf("Archive after the refusal waited %v, a lease: the refusal left a claim", waited)
	}
	if n, err := a.Len(ctx); err != nil || n != 1 {
		t.Errorf("archive Len = %d, %v; want 1", n, err)
	}
}

// Every caller of Archive gets the same archive or an error: one asked
// with other options than it is made with (or being made with) is
// ErrMismatch, and changes nothing; the same options get it.
func TestArchiveRefusesOtherOptions(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	p, w := endedWindow(t, env, "opts", 200*time.Millisecond, 0)
	made := ArchiveOptions{Top: 10, Retention: time.Hour}
	// A claim of the first caller, which then stops: the archive is being
	// made with its options.
	a, err := p.archiveBoard(w, made)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := a.claim(ctx, newToken()); err != nil || st.state != "claimed" {
		t.Fatalf("claim = %+v, %v; want claimed", st, err)
	}
	others := []ArchiveOptions{{Top: 5, Retention: time.Hour}, {Top: 10}, {Top: 10, Retention: 2 * time.Hour}, {Retention: time.Hour}}
	refused := func(when string) {
		t.Helper()
		for _, o := range others {
			before := dumpKeys(t, env)
			if _, err := p.Archive(ctx, w, o); !errors.Is(err, ErrMismatch) {
				t.Errorf("%s: Archive with %+v = %v; want ErrMismatch", when, o, err)
			}
			if after := dumpKeys(t, env); !maps.Equal(before, after) {
				t.Errorf("%s: the refused Archive with %+v changed keys", when, o)
			}
		}
	}
	refused("while being made")
	b, err := p.Archive(ctx, w, made) // takes over once the lease runs out
	if err != nil {
		t.Fatal(err)
	}
	if n, err := b.Len(ctx); err != nil || n != 1 {
		t.Errorf("archive Len = %d, %v; want 1", n, err)
	}
	refused("once made")
	if _, err := p.Archive(ctx, w, made); err != nil {
		t.Errorf("Archive again with its options = %v", err)
	}
}

// Periodics of one board in two zones name a day by one label, though
// their windows end an hour apart: the window stores its span with its
// first write, and the other zone's writes (Submit, SubmitMany, Update, a
// group's Submit, Join) and archive are refused with ErrMismatch, every
// key unchanged; a handle from Open writes as the stored window; an
// archive made by one zone is not the other's, even once the window's
// board is gone.
func TestWindowOfAnotherSpanIsRefused(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	name := env.Prefix + "_zones"
	plus1 := time.FixedZone("UTC+1", 3600)
	opts := Options{Group: env.Prefix + "_zg"}
	east, err := NewPeriodic(env.Client, name, testLayout(t), Daily(plus1), 240*time.Hour, opts)
	if err != nil {
		t.Fatal(err)
	}
	utc, err := NewPeriodic(env.Client, name, testLayout(t), Daily(time.UTC), 240*time.Hour, opts)
	if err != nil {
		t.Fatal(err)
	}
	day := time.Now().AddDate(0, 0, -2)
	we, err := east.period.Window(day)
	if err != nil {
		t.Fatal(err)
	}
	y, m, d := we.Start.In(plus1).Date()
	wu, err := utc.period.Window(time.Date(y, m, d, 12, 0, 0, 0, time.UTC)) // the same day
	if err != nil {
		t.Fatal(err)
	}
	if we.Label != wu.Label || we.End.Equal(wu.End) {
		t.Fatalf("windows %+v and %+v: want one label, two ends", we, wu)
	}
	sub := Submission{ID: "p1", Values: []float64{1, 1, 1}}
	if _, err := east.At(we.Start).Submit(ctx, sub); err != nil {
		t.Fatal(err)
	}
	other := utc.At(wu.Start)
	plain, err := New(ctx, env.Client, "plain", testLayout(t), Options{Group: opts.Group})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGroup(plain, other)
	if err != nil {
		t.Fatal(err)
	}
	pattern := "*" + opts.Group + "*"
	before := snapshot(t, env.Client, pattern)
	other2 := Submission{ID: "p1", Values: []float64{7, 0, 3}} // other values: a write would show
	for what, err := range map[string]error{
		"Submit":       second(other.Submit(ctx, other2)),
		"SubmitMany":   other.SubmitMany(ctx, []Submission{other2, {ID: "p9", Values: []float64{2, 1, 1}}})[0].Err,
		"Update":       second(other.Update(ctx, "p1", func(e *Entry) ([]float64, error) { return []float64{9, 1, 1}, nil })),
		"Group.Submit": second(g.Submit(ctx, []Submission{other2, other2})),
		"Clear":        other.Clear(ctx),
		"Migrate":      second(other.Migrate(ctx, testLayout(t), Options{Group: opts.Group, Strategy: KeySuffix}, MigrateOptions{})),
		"Join":         joinOtherZone(t, env.Client, env.Prefix+"_zrules", plus1),
		"Archive":      second(utc.Archive(ctx, wu, ArchiveOptions{})),
	} {
		// A tournament's window has its round in its descriptor, which
		// refuses the other zone's Join first.
		if !errors.Is(err, ErrMismatch) || (what != "Join" && !strings.Contains(err.Error(), "another zone or alignment")) {
			t.Errorf("%s through the other zone's window: %v, want ErrMismatch naming the spans", what, err)
		}
	}
	if after := snapshot(t, env.Client, pattern); !cmp.Equal(before, after) {
		t.Errorf("refused writes changed keys (-before +after):\n%s", cmp.Diff(before, after))
	}
	made := ArchiveOptions{Top: 5, Retention: 240 * time.Hour}
	if _, err := east.Archive(ctx, we, made); err != nil {
		t.Fatal(err)
	}
	if _, err := east.Archive(ctx, we, made); err != nil {
		t.Errorf("Archive again from the zone that made it: %v", err)
	}
	if err := east.At(we.Start).Drop(ctx); err != nil { // as when the window's board expires
		t.Fatal(err)
	}
	if _, err := utc.Archive(ctx, wu, made); !errors.Is(err, ErrMismatch) {
		t.Errorf("Archive from another zone of a label archived by the first = %v, want ErrMismatch", err)
	}
	if _, err := east.At(we.Start).Submit(ctx, sub); err != nil { // the window made again
		t.Fatal(err)
	}

	// A handle from Open, and one a Migrate returns, carry the stored
	// span: with the span taken from the window, their writes store it
	// again, as it was.
	meta := "tb:{" + opts.Group + "}:{" + name + ":" + we.Label + "}:meta"
	spanOf := func() string {
		s, _ := env.Client.Do(ctx, env.Client.B().Hget().Key(meta).Field("span").Build()).ToString()
		return s
	}
	stored := spanOf()
	if stored != we.span() {
		t.Fatalf("stored span %q, want the first writer's %q", stored, we.span())
	}
	opened, err := Open(ctx, env.Client, opts.Group+"/"+name+":"+we.Label, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		h    *Board
	}{{"Open", opened}, {"Migrate", nil}} {
		what, h := c.what, c.h
		if what == "Migrate" {
			if h, err = east.At(we.Start).Migrate(ctx, testLayout(t), Options{Group: opts.Group, DenseRanks: true}, MigrateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if err := env.Client.Do(ctx, env.Client.B().Hdel().Key(meta).Field("span").Build()).Error(); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Submit(ctx, Submission{ID: "p2", Values: []float64{2, 1, 1}}); err != nil {
			t.Errorf("Submit through %s's handle of the window: %v", what, err)
		}
		if got := spanOf(); got != stored {
			t.Errorf("span stored by a write through %s's handle: %q, want %q", what, got, stored)
		}
	}
}

// joinOtherZone writes to today's window of a tournament in zone east,
// then joins a member through the window of the same label in UTC: the
// window's descriptor (its round) is checked before its rules, so the join
// is refused whatever the hour.
func joinOtherZone(t *testing.T, client rueidis.Client, name string, east *time.Location) error {
	ctx := t.Context()
	o := Options{Rules: Rules{MaxAttempts: 100}}
	pe, err1 := NewPeriodic(client, name, testLayout(t), Daily(east), 240*time.Hour, o)
	pu, err2 := NewPeriodic(client, name, testLayout(t), Daily(time.UTC), 240*time.Hour, o)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := pe.At(now).Submit(ctx, Submission{ID: "p1", Values: []float64{1, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	y, m, d := now.In(east).Date()
	return pu.At(time.Date(y, m, d, 12, 0, 0, 0, time.UTC)).Join(ctx, "p2")
}

// Two periods whose windows share a label and differ by less than a
// second (an alignment of From at half a second) are two spans: the
// second's writes and archive are refused (ErrMismatch), its error tells
// the spans apart, and its Archive of a label the first archived is
// refused even once the window's board is gone.
func TestWindowOfASubSecondSpanIsAnother(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	name := env.Prefix + "_subsec"
	first, err := NewPeriodic(env.Client, name, testLayout(t), Daily(time.UTC), 240*time.Hour, Options{})
	if err != nil {
		t.Fatal(err)
	}
	halfSecond := Daily(time.UTC).From(time.Date(2020, 1, 1, 0, 0, 0, 500e6, time.UTC))
	second, err := NewPeriodic(env.Client, name, testLayout(t), halfSecond, 240*time.Hour, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wa, err1 := first.period.Window(time.Now().AddDate(0, 0, -2))
	wb, err2 := second.period.Window(wa.Start.Add(time.Hour))
	if err := errors.Join(err1, err2); err != nil || wa.Label != wb.Label || wa.span() == wb.span() {
		t.Fatalf("windows %+v, %+v (%v): want one label, two spans", wa, wb, err)
	}
	sub := Submission{ID: "p1", Values: []float64{1, 1, 1}}
	if _, err := first.At(wa.Start).Submit(ctx, sub); err != nil {
		t.Fatal(err)
	}
	_, err = second.At(wb.Start.Add(time.Hour)).Submit(ctx, sub)
	if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), ".5Z") {
		t.Fatalf("Submit by the period half a second later: %v, want ErrMismatch naming its span's half second", err)
	}
	if _, err := first.Archive(ctx, wa, ArchiveOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := first.At(wa.Start).Drop(ctx); err != nil { // as when the window's board expires
		t.Fatal(err)
	}
	if _, err := second.Archive(ctx, wb, ArchiveOptions{}); !errors.Is(err, ErrMismatch) {
		t.Errorf("Archive by the period half a second later, of a label the first archived: %v, want ErrMismatch", err)
	}
}
