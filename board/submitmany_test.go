package board

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// SubmitMany sends every submission in one round trip, whatever scripts
// they need: on a key-suffix board, runs of plain writes (submitlean.lua,
// batched) alternate with writes that carry data (submit.lua, one a
// call), and the whole goes in one pipeline, in order. Each result, and
// the board after, are those of the same submissions made one at a time
// with Submit.
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
