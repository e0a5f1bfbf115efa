package board

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// seasonBoard is a Periodic of 300 ms windows kept a minute, and the window
// before the current one, filled with n entries with member data; it waits
// until that window has ended.
func seasonBoard(t *testing.T, env *redistest.Env, name string, n int) (*Periodic, Window) {
	t.Helper()
	p, err := NewPeriodic(env.Client, env.Prefix+name, testLayout(t), Every(300*time.Millisecond), time.Minute, Options{DenseRanks: true})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := p.period.Window(time.Now())
	b := p.At(w.Start)
	var subs []Submission
	for i := 0; i < n; i++ {
		subs = append(subs, Submission{ID: "p" + strconv.Itoa(i), Values: []float64{float64(i % 97), float64(i % 2), float64(i % 13)}, Data: []byte("d" + strconv.Itoa(i))})
	}
	for _, r := range b.SubmitMany(t.Context(), subs) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	time.Sleep(time.Until(w.End) + 10*time.Millisecond)
	return p, w
}

// Sixteen callers archive one ended window at once: one makes it, all get
// the window's standings, member data included; a later call returns it at
// once, and so does Archived.
func TestArchiveExactlyOnce(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	p, w := seasonBoard(t, env, "season", 2500)
	want, err := scanAll(ctx, p.At(w.Start), maxCount, WithData(), WithRanks(Dense))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]List, 16)
	errs := make([]error, 16)
	for i := range got {
		wg.Go(func() {
			a, err := p.Archive(ctx, w, ArchiveOptions{})
			if err == nil {
				got[i], err = scanAll(ctx, a, maxCount, WithData(), WithRanks(Dense))
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		if diff := cmp.Diff(want, got[i]); diff != "" {
			t.Fatalf("caller %d: archive (-want +got):\n%s", i, diff)
		}
	}
	a, err := p.Archived(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	st := readHash(t, a, "tb:{"+a.Name()+"}:archive")
	if st["claims"] != "1" || st["state"] != "done" || st["count"] != "2500" {
		t.Errorf("archive state %v: want one claim, done, 2500 entries", st)
	}
	if ttl := pttl(t, a, a.gen.Load().keys.z); ttl != -1 {
		t.Errorf("archive kept forever has PTTL %d", ttl)
	}
	// Kept forever, it stores its descriptor: Open reads it by name.
	opened, err := Open(ctx, env.Client, a.Name(), Options{})
	if err != nil {
		t.Fatalf("Open of an archive kept forever: %v", err)
	}
	if o, err := scanAll(ctx, opened, maxCount, WithData(), WithRanks(Dense)); err != nil || cmp.Diff(want, o) != "" {
		t.Errorf("the archive through Open: %v (-want +got):\n%s", err, cmp.Diff(want, o))
	}
	if err := a.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Archived(ctx, w); !errors.Is(err, ErrNotFound) {
		t.Errorf("Archived after Drop: err = %v, want ErrNotFound", err)
	}
}

// The top N with a retention; a claimer that stops is taken over once its
// lease runs out, and the copy resumes.
func TestArchiveTopAndTakeOver(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	defer func(l time.Duration) { archiveLease = l }(archiveLease)
	archiveLease = 300 * time.Millisecond
	p, w := seasonBoard(t, env, "top", 1500)
	a, err := p.archiveBoard(w, ArchiveOptions{Top: 1200, Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	st, err := a.claim(ctx, "stopped")
	if err != nil || st.state != "claimed" {
		t.Fatalf("claim = %+v, %v", st, err)
	}
	if err := a.write(ctx, nil); err != nil {
		t.Fatal(err)
	}
	b, err := p.Archive(ctx, w, ArchiveOptions{Top: 1200, Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	// The stopped caller, back, writes nothing: its claim fenced its writes.
	if err := a.write(ctx, []Entry{{ID: "stale", Values: []float64{1, 0, 1}}}); !errors.Is(err, errFenced) {
		t.Errorf("a write of the caller that lost its claim: err = %v, want it fenced", err)
	}
	all, err1 := scanAll(ctx, p.At(w.Start), maxCount)
	got, err2 := scanAll(ctx, b, maxCount)
	want := List{Entries: all.Entries[:1200]}
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	want.Total = -1
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("top 1200 archive (-want +got):\n%s", diff)
	}
	if c := readHash(t, b, "tb:{"+b.Name()+"}:archive")["claims"]; c != "2" {
		t.Errorf("claims = %s, want 2 (the stopped caller, then the one that took over)", c)
	}
	for _, k := range []string{b.gen.Load().keys.z, b.gen.Load().keys.meta, "tb:{" + b.Name() + "}:archive"} {
		if ttl := pttl(t, b, k); ttl <= 0 || ttl > time.Hour.Milliseconds() {
			t.Errorf("%s: PTTL %d, want the retention", k, ttl)
		}
	}
}

// Archive refuses what it says; Windows lists the windows that exist;
// Previous is the window before the current one.
func TestSeasonWindows(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	p, w := seasonBoard(t, env, "windows", 3)
	ws, err := p.Windows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Window{w}, ws); diff != "" {
		t.Errorf("Windows (-want +got):\n%s", diff)
	}
	cur := p.At(time.Now())
	mustSubmit(t, cur, Submission{ID: "x", Values: []float64{1, 1, 1}})
	if ws, _ = p.Windows(ctx); len(ws) == 0 || ws[0].Label != cur.Name()[len(p.name)+1:] {
		t.Errorf("Windows after a write to the current window = %v", ws)
	}
	now, _ := p.period.Window(time.Now().Add(time.Second))
	other, _ := Every(time.Second).Window(w.Start)
	for _, c := range []struct {
		w    Window
		o    ArchiveOptions
		want error
	}{
		{now, ArchiveOptions{}, ErrArgument},
		{other, ArchiveOptions{}, ErrArgument},
		{w, ArchiveOptions{Top: -1}, ErrArgument},
		{w, ArchiveOptions{Retention: -1}, ErrArgument},
		{Window{Label: "x", Start: w.Start, End: w.End}, ArchiveOptions{}, ErrArgument},
	} {
		if _, err := p.Archive(ctx, c.w, c.o); !errors.Is(err, c.want) {
			t.Errorf("Archive(%s, %+v): err = %v, want %v", c.w.Label, c.o, err, c.want)
		}
	}
	empty, _ := p.period.Window(w.Start.Add(-time.Second))
	if _, err := p.Archive(ctx, empty, ArchiveOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Archive of a window never written: err = %v, want ErrNotFound", err)
	}
	if _, err := p.Archived(ctx, now); !errors.Is(err, ErrNotFound) {
		t.Errorf("Archived of a window not ended: err = %v, want ErrNotFound (no archive yet)", err)
	}
	if _, err := p.Archived(ctx, other); !errors.Is(err, ErrArgument) {
		t.Errorf("Archived of a window of another period: err = %v, want ErrArgument", err)
	}
}

func readHash(t *testing.T, b *Board, key string) map[string]string {
	t.Helper()
	m, err := b.rc().Do(t.Context(), b.rc().B().Hgetall().Key(key).Build()).AsStrMap()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func pttl(t *testing.T, b *Board, key string) int64 {
	t.Helper()
	n, err := b.rc().Do(context.Background(), b.rc().B().Pttl().Key(key).Build()).AsInt64()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A Periodic built with Options.Group writes its windows under the group's
// hash tag: a group of an all-time board and the current window writes
// both in one atomic script (the window's descriptor and expiry
// included), Windows lists the window, and Archive archives it, in the
// group too.
func TestPeriodicInAGroup(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	o := Options{Group: env.Prefix + "_game"}
	p, err := NewPeriodic(env.Client, "weekly", testLayout(t), Every(400*time.Millisecond), time.Minute, o)
	if err != nil {
		t.Fatal(err)
	}
	all := newBoard(t, env.Client, "", "alltime", testLayout(t), o)
	w, _ := p.period.Window(time.Now())
	win := p.At(w.Start)
	g, err := NewGroup(all, win)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		v := []float64{float64(i), 1, 2}
		s := []Submission{{ID: strconv.Itoa(i), Values: v, Data: []byte("d")}, {ID: strconv.Itoa(i), Values: v, Policy: Best}}
		if _, err := g.Submit(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	// The window's first write stored its descriptor and expiry.
	if m := readMetaRaw(t, win); m["desc"] != win.desc.encoded() || m["expire"] != strconv.FormatInt(w.End.Add(time.Minute).UnixMilli(), 10) {
		t.Errorf("the window's meta HASH after a group write: %v", m)
	}
	if ttl := pttl(t, win, win.gen.Load().keys.z); ttl <= 0 {
		t.Errorf("the window's entries after a group write: PTTL %d, want its retention", ttl)
	}
	ws, err := p.Windows(ctx)
	if err != nil || len(ws) == 0 || ws[0] != w {
		t.Fatalf("Windows = %v, %v; want %v first", ws, err, w)
	}
	time.Sleep(time.Until(w.End) + 10*time.Millisecond)
	a, err := p.Archive(ctx, w, ArchiveOptions{})
	if err != nil {
		t.Fatalf("Archive of a grouped window: %v", err)
	}
	if n, err := a.Len(ctx); err != nil || n != 20 {
		t.Errorf("the archive holds %d entries, %v; want 20", n, err)
	}
	if !strings.HasPrefix(a.gen.Load().keys.z, "tb:{"+o.Group+"}:") {
		t.Errorf("the archive's keys %s are not in the group's hash tag", a.gen.Load().keys.z)
	}
}
