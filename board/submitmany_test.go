package board

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// SubmitMany sends its submissions in one round trip, whatever scripts
// they need: on a key-suffix board, runs of plain writes (submitlean.lua,
// batched) alternate with writes that carry data (submit.lua, one a
// call), in one pipeline, in order, while no id is written by both
// scripts. Each result, and the board after, are those of the same
// submissions made one at a time with Submit.
func TestSubmitManyOneRoundTrip(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	for _, strategy := range []Strategy{PackedScore, KeySuffix} {
		t.Run(strategy.String(), func(t *testing.T) {
			calls := &countingClient{Client: env.Client}
			many := newBoard(t, calls, env.Prefix, "many"+strategy.String(), l, Options{Strategy: strategy})
			one := newBoard(t, env.Client, env.Prefix, "one"+strategy.String(), l, Options{Strategy: strategy})
			var subs []Submission
			for i := range 24 {
				s := Submission{ID: fmt.Sprint("p", i%5), Values: []float64{float64(i * 7 % 11), float64(i % 2), float64(i)}, Policy: Best}
				if i%4 == 1 {
					s.Policy = Replace
				}
				if i%3 == 2 {
					s.Data = []byte(fmt.Sprint("d", i))
				}
				subs = append(subs, s)
			}
			// The scripts loaded, so that NOSCRIPT does not add a round trip.
			mustSubmit(t, many, Submission{ID: "w", Values: []float64{1, 0, 0}})
			mustSubmit(t, many, Submission{ID: "w", Values: []float64{1, 0, 0}, Data: []byte("w")})
			mustSubmit(t, one, Submission{ID: "w", Values: []float64{1, 0, 0}, Data: []byte("w")})
			before := calls.n.Load()
			got := many.SubmitMany(ctx, subs)
			if trips := calls.n.Load() - before; trips != 1 {
				t.Errorf("SubmitMany of %d submissions, plain and with data in turn: %d round trips, want 1", len(subs), trips)
			}
			for i, s := range subs {
				want, err := one.Submit(ctx, s)
				if got[i].Err != nil || err != nil {
					t.Fatalf("submission %d: SubmitMany: %v; Submit: %v", i, got[i].Err, err)
				}
				if !reflect.DeepEqual(got[i].Result, want) {
					t.Errorf("submission %d (%+v): SubmitMany gave %+v, Submit %+v", i, s, got[i].Result, want)
				}
			}
			a, _ := many.Top(ctx, 10, WithData())
			b, _ := one.Top(ctx, 10, WithData())
			if !reflect.DeepEqual(a.Entries, b.Entries) {
				t.Errorf("after SubmitMany the board holds %+v; after the same Submits, %+v", a.Entries, b.Entries)
			}
		})
	}
}

// The writes of one id go in order even when a server holds one of the
// scripts SubmitMany sends and not the other: a run that writes again an
// id that another script wrote in the same batch waits for that round
// trip, since a server answers NOSCRIPT to the calls of the script it
// lacks and runs the others first. Here the server holds submitlean.lua
// only, and Replace writes of one id alternate between the scripts: the
// last one stands.
func TestSubmitManyOrderAcrossScripts(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newBoard(t, env.Client, env.Prefix, "order", testLayout(t), Options{Strategy: KeySuffix})
	subs := []Submission{
		{ID: "a", Values: []float64{1, 0, 1}, Data: []byte("first")},
		{ID: "a", Values: []float64{2, 0, 1}},
		{ID: "a", Values: []float64{3, 0, 1}, Data: []byte("third")},
		{ID: "a", Values: []float64{4, 0, 1}},
	}
	for round := range 3 {
		if err := env.Client.Do(ctx, env.Client.B().ScriptFlush().Build()).Error(); err != nil {
			t.Fatal(err)
		}
		mustSubmit(t, b, Submission{ID: "w", Values: []float64{1, 0, 0}}) // loads submitlean.lua alone
		for i, r := range b.SubmitMany(ctx, subs) {
			if r.Err != nil {
				t.Fatalf("round %d, submission %d: %v", round, i, r.Err)
			}
		}
		e, err := b.Get(ctx, "a", WithData())
		if err != nil || e.Values[0] != 4 || string(e.Data) != "third" {
			t.Errorf("round %d: a holds %v with data %q (%v), want the last write's 4 and the last data, third", round, e.Values, e.Data, err)
		}
	}
	// Writes of different ids keep their order too: the second write's
	// rank counts the first.
	if err := env.Client.Do(ctx, env.Client.B().ScriptFlush().Build()).Error(); err != nil {
		t.Fatal(err)
	}
	mustSubmit(t, b, Submission{ID: "w", Values: []float64{1, 0, 0}}) // loads submitlean.lua alone
	rs := b.SubmitMany(ctx, []Submission{
		{ID: "x", Values: []float64{9, 0, 1}, Fields: []Policy{Max, Replace, Replace}},
		{ID: "y", Values: []float64{8, 0, 1}},
	})
	if rs[0].Err != nil || rs[1].Err != nil || rs[0].Entry.Rank != 1 || rs[1].Entry.Rank != 2 {
		t.Errorf("after SCRIPT FLUSH, x (field by field) then y (plain): ranks %d, %d (%v, %v); want 1, 2", rs[0].Entry.Rank, rs[1].Entry.Rank, rs[0].Err, rs[1].Err)
	}
}
