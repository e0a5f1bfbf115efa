package board

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// On every kind of board of one hash tag that is written, on one server
// and a cluster: a hidden member is absent from every read of others and
// from the board's size, its writes go on and rank it where it would be,
// Get with AsSelf shows it so, Show brings it back as written meanwhile,
// and Remove removes it hidden.
func TestHidingEveryKind(t *testing.T) {
	for where, env := range serverAndCluster(t) {
		for i, k := range tournamentKinds {
			t.Run(where+"/"+k, func(t *testing.T) {
				for _, s := range []Strategy{PackedScore, KeySuffix} {
					b := kindBoard(t, env.Client, fmt.Sprintf("%s%d%v_", env.Prefix, i, s), k, Options{Strategy: s, DenseRanks: true, Hiding: true})
					checkHiding(t, b)
				}
			})
		}
	}
}

func checkHiding(t *testing.T, b *Board) {
	ctx := t.Context()
	for _, s := range []Submission{pts("a", 10, 0), pts("b", 20, 0), pts("c", 30, 0), pts("d", 20, 0)} {
		if _, err := b.Submit(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := b.Hide(ctx, "c", "c", "zz"); err != nil || n != 1 {
		t.Fatalf("Hide(c, c, zz) = %d, %v; want 1", n, err)
	}
	if n, _ := b.Hide(ctx, "c"); n != 0 {
		t.Errorf("Hide of one hidden already = %d, want 0", n)
	}
	all := []ReadOption{WithRanks(Competition, Dense, ModifiedCompetition)}
	top, err := b.Top(ctx, 10, append(all, WithTotal())...)
	if err != nil {
		t.Fatal(err)
	}
	if got := listIDs(top); got != "b d a" || top.Total != 3 || top.Entries[0].Competition != 1 || top.Entries[1].ModifiedCompetition != 2 || top.Entries[2].Dense != 2 {
		t.Errorf("Top with c hidden: %s, %+v", got, top)
	}
	if _, err := b.Get(ctx, "c"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get of a hidden member by another: %v, want ErrNotFound", err)
	}
	if _, err := b.Rank(ctx, "c", Competition); !errors.Is(err, ErrNotFound) {
		t.Errorf("Rank of a hidden member: %v, want ErrNotFound", err)
	}
	if l, err := b.Among(ctx, []string{"a", "c"}); err != nil || listIDs(l) != "a" {
		t.Errorf("Among(a, c): %+v, %v; want a, c absent", l, err)
	}
	if n, _ := b.Len(ctx); n != 3 {
		t.Errorf("Len with one hidden = %d, want 3", n)
	}
	// Its own view, and its writes: ranked where it would be.
	e, err := b.Get(ctx, "c", append(all, AsSelf())...)
	if err != nil || e.Rank != 1 || e.Competition != 1 || e.Dense != 1 || e.ModifiedCompetition != 1 || e.Values[0] != 30 {
		t.Errorf("Get(c, AsSelf) = %+v, %v; want rank 1", e, err)
	}
	r, err := b.Submit(ctx, Submission{ID: "c", Values: []float64{20, 0, 0}, Overtaken: 5})
	if err != nil || r.Entry.Rank != 2 || len(r.Overtaken) != 0 {
		t.Errorf("a hidden member's write: %+v, %v; want rank 2 (after b, tied), nobody overtaken", r, err)
	}
	if e, err := b.Get(ctx, "c", append(all, AsSelf())...); err != nil || e.Rank != 2 || e.Competition != 1 || e.ModifiedCompetition != 3 || e.Dense != 1 {
		t.Errorf("Get(c, AsSelf) tied with b and d = %+v, %v; want ranks 2, 1, 3, 1", e, err)
	}
	if top, _ := b.Top(ctx, 10); listIDs(top) != "b d a" {
		t.Errorf("Top after the hidden member's write: %s", listIDs(top))
	}
	if _, err := b.Top(ctx, 10, AsSelf()); !errors.Is(err, ErrArgument) {
		t.Errorf("Top with AsSelf: %v, want ErrArgument", err)
	}
	if n, err := b.Show(ctx, "c", "a"); err != nil || n != 1 {
		t.Errorf("Show(c, a) = %d, %v; want 1", n, err)
	}
	if top, _ := b.Top(ctx, 10, all...); listIDs(top) != "b c d a" || top.Entries[1].Competition != 1 || top.Entries[3].Dense != 2 {
		t.Errorf("Top after Show: %s %+v", listIDs(top), top)
	}
	if _, err := b.Hide(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := b.SetData(ctx, "a", []byte("x")); err != nil {
		t.Errorf("SetData of a hidden member: %v", err)
	}
	if n, err := b.Remove(ctx, "a"); err != nil || n != 1 {
		t.Errorf("Remove of a hidden member = %d, %v; want 1", n, err)
	}
	if _, err := b.Get(ctx, "a", AsSelf()); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(a, AsSelf) after Remove: %v, want ErrNotFound", err)
	}
	if n, _ := b.Show(ctx, "a"); n != 0 {
		t.Errorf("Show of a member removed = %d, want 0", n)
	}
}

// listIDs lists a List's ids, space-separated.
func listIDs(l List) string {
	s := ""
	for i, e := range l.Entries {
		if i > 0 {
			s += " "
		}
		s += e.ID
	}
	return s
}

// Hiding is a stored setting; with Cap, on a sharded board, and Migrate
// from or to it, it is refused; an archive of a window leaves the hidden
// entries out; an Update sees a hidden member's own entry; Clear and a
// group's Remove remove hidden entries.
func TestHidingSettings(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	b, err := New(ctx, env.Client, env.Prefix+"h", l, Options{Hiding: true})
	if err != nil {
		t.Fatal(err)
	}
	if o, err := Open(ctx, env.Client, env.Prefix+"h", Options{}); err != nil || !o.Options().Hiding {
		t.Errorf("Open: %v, Hiding %v", err, o != nil && o.Options().Hiding)
	}
	if _, err := New(ctx, env.Client, env.Prefix+"h", l, Options{}); !errors.Is(err, ErrMismatch) {
		t.Errorf("New without Hiding: %v, want ErrMismatch", err)
	}
	for _, o := range []Options{{Hiding: true, Cap: 10}, {Hiding: true, Shards: 2}} {
		if _, err := New(ctx, env.Client, env.Prefix+"bad", l, o); !errors.Is(err, ErrOptions) {
			t.Errorf("New(%+v): %v, want ErrOptions", o, err)
		}
	}
	if _, err := b.Migrate(ctx, l, Options{Hiding: true, DenseRanks: true}, MigrateOptions{}); !errors.Is(err, ErrArgument) {
		t.Errorf("Migrate of a board with Hiding: %v, want ErrArgument", err)
	}
	plain := newBoard(t, env.Client, env.Prefix, "plain", l, Options{})
	if _, err := plain.Migrate(ctx, l, Options{Hiding: true}, MigrateOptions{}); !errors.Is(err, ErrArgument) {
		t.Errorf("Migrate to Hiding: %v, want ErrArgument", err)
	}
	if _, err := b.Submit(ctx, pts("a", 5, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Hide(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	r, err := b.Update(ctx, "a", func(e *Entry) ([]float64, error) {
		if e == nil {
			return nil, errors.New("Update saw no entry for a hidden member")
		}
		return []float64{e.Values[0] + 1, 0, 0}, nil
	})
	if err != nil || r.Entry.Values[0] != 6 {
		t.Errorf("Update of a hidden member: %+v, %v; want 6 points", r, err)
	}
	if err := b.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(ctx, "a", AsSelf()); !errors.Is(err, ErrNotFound) {
		t.Errorf("a hidden member after Clear: %v, want ErrNotFound", err)
	}
	// An archive leaves the hidden entries out.
	p, err := NewPeriodic(env.Client, env.Prefix+"w", l, Every(200*time.Millisecond), time.Hour, Options{Hiding: true})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := p.period.Window(time.Now())
	round := p.At(w.Start)
	for _, s := range []Submission{pts("x", 1, 0), pts("y", 2, 0)} {
		if _, err := round.Submit(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := round.Hide(ctx, "y"); err != nil {
		t.Fatal(err)
	}
	if ttl, err := env.Client.Do(ctx, env.Client.B().Pttl().Key(round.gen.Load().keys.h).Build()).AsInt64(); err != nil || ttl <= 0 {
		t.Errorf("a window's hidden entries do not expire with it: PTTL %d, %v", ttl, err)
	}
	for time.Until(w.End) > 0 {
		time.Sleep(20 * time.Millisecond)
	}
	a, err := p.Archive(ctx, w, ArchiveOptions{Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if top, _ := a.Top(ctx, 10); listIDs(top) != "x" {
		t.Errorf("the archive holds %s, want x alone", listIDs(top))
	}
	// A group's Remove removes a hidden entry.
	g1 := newBoard(t, env.Client, "", "one", l, Options{Group: env.Prefix + "g", Hiding: true})
	g2 := newBoard(t, env.Client, "", "two", l, Options{Group: env.Prefix + "g"})
	g, err := NewGroup(g1, g2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Submit(ctx, []Submission{pts("z", 1, 0), pts("z", 1, 0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := g1.Hide(ctx, "z"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Remove(ctx, "z"); err != nil {
		t.Fatal(err)
	}
	if _, err := g1.Get(ctx, "z", AsSelf()); !errors.Is(err, ErrNotFound) {
		t.Errorf("a hidden entry after the group's Remove: %v, want ErrNotFound", err)
	}
}

// Show on a window makes again, expiring, the keys Hide emptied.
func TestHidingWindowExpiry(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	p, err := NewPeriodic(env.Client, env.Prefix+"w2", testLayout(t), Every(time.Hour), time.Hour, Options{Hiding: true, DenseRanks: true})
	if err != nil {
		t.Fatal(err)
	}
	b := p.At(time.Now())
	if _, err := b.Submit(ctx, pts("a", 10, 0)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []func(context.Context, ...string) (int64, error){b.Hide, b.Show} {
		if _, err := f(ctx, "a"); err != nil {
			t.Fatal(err)
		}
	}
	k := b.gen.Load().keys
	for _, key := range []string{k.z, k.v, k.c, k.h, k.meta} {
		ttl, err := env.Client.Do(ctx, env.Client.B().Pttl().Key(key).Build()).AsInt64()
		if err != nil || ttl == -1 {
			t.Errorf("%s after Hide and Show: PTTL %d, %v; want it expiring (or gone)", key, ttl, err)
		}
	}
}
