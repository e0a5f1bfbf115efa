package board

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A key-suffix board whose id lookup is gone while its entries stay
// (evicted, or removed by hand) refuses every read and write of an id,
// alone or in a group, and a migration, with nothing written: never an
// answer that a listed id is absent, nor a second entry for one id. Its
// lists still read, and once emptied it is a board again.
func TestLookupLostIsRefused(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	a, err := New(ctx, env.Client, "a", l, Options{Group: env.Prefix + "g", Strategy: KeySuffix})
	if err != nil {
		t.Fatal(err)
	}
	bb, err := New(ctx, env.Client, "b", l, Options{Group: env.Prefix + "g"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGroup(a, bb)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"ann", "bob", "cid"} {
		if _, err := g.Submit(ctx, []Submission{{ID: id, Values: []float64{float64(10 + i), 0, 1}}, {ID: id, Values: []float64{float64(i), 0, 1}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := env.Client.Do(ctx, env.Client.B().Del().Key(a.prefix+"i").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	before := dumpKeys(t, env)
	lost := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrReply) || !strings.Contains(err.Error(), "id lookup is gone") {
			t.Errorf("%s on a board whose id lookup is gone: %v, want its error", what, err)
		}
	}
	sub := func(id string, p Policy) Submission {
		return Submission{ID: id, Values: []float64{50, 1, 1}, Policy: p}
	}
	_, err = a.Submit(ctx, sub("ann", Replace))
	lost("Submit of an id on the board", err)
	_, err = a.Submit(ctx, sub("dan", Best))
	lost("Submit of a new id", err)
	_, err = a.Submit(ctx, Submission{ID: "bob", Values: []float64{1, 0, 0}, Fields: []Policy{Add, Replace, Replace}})
	lost("Submit field by field", err)
	for i, r := range a.SubmitMany(ctx, []Submission{sub("ann", Replace), sub("dan", Best)}) {
		lost("SubmitMany["+string(rune('0'+i))+"]", r.Err)
	}
	_, err = g.Submit(ctx, []Submission{sub("ann", Replace), sub("ann", Replace)})
	lost("Group.Submit", err)
	_, err = g.Remove(ctx, "bob")
	lost("Group.Remove", err)
	_, err = a.Get(ctx, "ann")
	lost("Get", err)
	_, err = a.Get(ctx, "zed") // not on the board: the lookup cannot say so either
	lost("Get of an id never written", err)
	_, err = a.Get(ctx, "ann", WithData())
	lost("Get WithData", err)
	_, err = a.Rank(ctx, "bob", Ordinal)
	lost("Rank", err)
	_, err = a.Rank(ctx, "bob", Competition)
	lost("Rank Competition", err)
	if !strings.HasPrefix(err.Error(), "board: rank: ") {
		t.Errorf("Rank Competition's error names another operation: %v", err)
	}
	if _, err := a.Get(ctx, "ann", WithData()); err == nil || !strings.HasPrefix(err.Error(), "board: get: ") {
		t.Errorf("Get WithData's error names another operation: %v", err)
	}
	_, err = a.Around(ctx, "bob", 3)
	lost("Around", err)
	_, err = a.Remove(ctx, "cid")
	lost("Remove", err)
	err = a.SetData(ctx, "cid", []byte("x"))
	lost("SetData", err)
	_, err = a.Migrate(ctx, l, Options{Group: env.Prefix + "g", Strategy: KeySuffix, DenseRanks: true}, MigrateOptions{})
	lost("Migrate", err)
	if after := dumpKeys(t, env); !maps.Equal(after, before) {
		t.Errorf("refused calls changed keys:\nbefore %v\nafter  %v", before, after)
	}
	if top, err := a.Top(ctx, 10); err != nil || len(top.Entries) != 3 {
		t.Errorf("Top: %+v, %v; want the 3 entries", top, err)
	}
	if err := a.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Get(ctx, "ann"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get on the emptied board: %v, want ErrNotFound", err)
	}
	if r, err := a.Submit(ctx, sub("ann", Replace)); err != nil || r.Entry.Rank != 1 {
		t.Errorf("Submit on the emptied board: %+v, %v; want rank 1", r, err)
	}
}

// A board whose only entries are hidden, without its id lookup, refuses
// too: a write of a hidden id never stores it a second time.
func TestLookupLostOfHiddenEntriesIsRefused(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b, err := New(ctx, env.Client, env.Prefix+"lostHidden", testLayout(t), Options{Strategy: KeySuffix, Hiding: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Submit(ctx, Submission{ID: "ann", Values: []float64{5, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Hide(ctx, "ann"); err != nil {
		t.Fatal(err)
	}
	if err := env.Client.Do(ctx, env.Client.B().Del().Key(b.prefix+"i").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	before := dumpKeys(t, env)
	if _, err := b.Submit(ctx, Submission{ID: "ann", Values: []float64{9, 0, 1}}); !errors.Is(err, ErrReply) || !strings.Contains(err.Error(), "id lookup is gone") {
		t.Errorf("Submit of a hidden id without its lookup: %v, want its error", err)
	}
	if after := dumpKeys(t, env); !maps.Equal(after, before) {
		t.Errorf("the refused write changed keys")
	}
}

// A board emptied and written again while readers ask for ids never
// written is never taken for one whose lookup is gone: a read that finds
// the lookup empty asks its script, which sees the lookup and the sorted
// set at one moment.
func TestEmptyLookupWhileWrittenIsNotLost(t *testing.T) {
	env := redistest.New(t)
	ctx, cancel := context.WithCancel(t.Context())
	b, err := New(ctx, env.Client, env.Prefix+"flicker", testLayout(t), Options{Strategy: KeySuffix})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	// A failed read (t.Fatalf) stops the writer and waits for it: a
	// t.Error after the test has returned panics the whole test binary.
	defer func() { cancel(); <-done }()
	go func() {
		defer close(done)
		for range 300 {
			if _, err := b.Submit(ctx, Submission{ID: "x", Values: []float64{1, 0, 1}}); err != nil {
				if ctx.Err() == nil {
					t.Error(err)
				}
				return
			}
			if _, err := b.Remove(ctx, "x"); err != nil {
				if ctx.Err() == nil {
					t.Error(err)
				}
				return
			}
		}
	}()
	for reads := 0; ; reads++ {
		select {
		case <-done:
			return
		default:
		}
		_, err := b.Get(ctx, "nobody")
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get of an id never written, read %d: %v, want ErrNotFound", reads, err)
		}
		if _, err := b.Rank(ctx, "nobody", Ordinal); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Rank of an id never written, read %d: %v, want ErrNotFound", reads, err)
		}
	}
}
