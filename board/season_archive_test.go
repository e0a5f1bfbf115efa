package board

import (
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

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

// Periodics of one board in two zones name a day by one label, and so
// share its archive, though their windows end an hour apart: asked with
// the same options, the archive is the same.
func TestArchiveOptionsAcrossZones(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	name := env.Prefix + "_zones"
	plus1 := time.FixedZone("UTC+1", 3600)
	east, err := NewPeriodic(env.Client, name, testLayout(t), Daily(plus1), 240*time.Hour, Options{})
	if err != nil {
		t.Fatal(err)
	}
	utc, err := NewPeriodic(env.Client, name, testLayout(t), Daily(time.UTC), 240*time.Hour, Options{})
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
	if _, err := east.At(we.Start).Submit(ctx, Submission{ID: "p1", Values: []float64{1, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	made := ArchiveOptions{Top: 5, Retention: 240 * time.Hour}
	if _, err := east.Archive(ctx, we, made); err != nil {
		t.Fatal(err)
	}
	if _, err := utc.Archive(ctx, wu, made); err != nil {
		t.Errorf("Archive of the same label from another zone, same options = %v", err)
	}
	if _, err := utc.Archive(ctx, wu, ArchiveOptions{Top: 5, Retention: 241 * time.Hour}); !errors.Is(err, ErrMismatch) {
		t.Errorf("Archive from another zone with another Retention = %v, want ErrMismatch", err)
	}
}
