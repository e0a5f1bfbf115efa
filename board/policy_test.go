package board

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// The policies of the whole entry (Add, Max, Min, Keep on every field)
// give what the model gives through every route that writes a batch or
// several boards: SubmitMany on both strategies, and a group of a packed
// and a key-suffix board, each with its own policy.
func TestWholeEntryPoliciesThroughBatchesAndGroups(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	group := env.Prefix + "pol"
	packed := newBoard(t, env.Client, "", "packed", l, Options{Group: group})
	suffix := newBoard(t, env.Client, "", "suffix", l, Options{Group: group, Strategy: KeySuffix})
	g, err := NewGroup(packed, suffix)
	if err != nil {
		t.Fatal(err)
	}
	many := newBoard(t, env.Client, env.Prefix, "many", l, Options{Strategy: KeySuffix})
	mp, ms, mm := newModel(l), newModel(l), newModel(l)
	ms.suffix, mm.suffix = true, true
	rng := rand.New(rand.NewPCG(7, 9))
	policies := []Policy{Replace, Best, Add, Max, Min, Keep}
	sub := func(id string, p Policy) Submission {
		s := Submission{ID: id, Policy: p, Values: []float64{float64(rng.IntN(100)), float64(rng.IntN(2)), float64(rng.IntN(100))}}
		if p == Add {
			s.Values = []float64{float64(rng.IntN(5)), 0, float64(rng.IntN(2))}
		}
		return s
	}
	for step := range 300 {
		id := fmt.Sprint("p", rng.IntN(12))
		a, b := sub(id, policies[rng.IntN(len(policies))]), sub(id, policies[rng.IntN(len(policies))])
		vp, vs := mp.copyVals(), ms.copyVals()
		_, okA := mp.apply(a)
		_, okB := ms.apply(b)
		if _, err := g.Submit(ctx, []Submission{a, b}); (err == nil) != (okA && okB) {
			t.Fatalf("step %d: group write %+v, %+v: %v, model ok %t %t", step, a, b, err, okA, okB)
		} else if err != nil {
			mp.vals, ms.vals = vp, vs // refused as a whole: neither part is written
		}
		batch := []Submission{sub(id, policies[rng.IntN(len(policies))]), sub(fmt.Sprint("q", rng.IntN(5)), policies[rng.IntN(len(policies))])}
		for i, r := range many.SubmitMany(ctx, batch) {
			if _, ok := mm.apply(batch[i]); (r.Err == nil) != ok {
				t.Fatalf("step %d: SubmitMany %+v: %v, model ok %t", step, batch[i], r.Err, ok)
			}
		}
	}
	for _, c := range []struct {
		b *Board
		m *model
	}{{packed, mp}, {suffix, ms}, {many, mm}} {
		got, err := c.b.Page(ctx, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.m.page(0, 100).Entries, got.Entries); diff != "" {
			t.Errorf("%s (-model +board):\n%s", c.b.Name(), diff)
		}
	}
}

// vals copies m's values, to put back after a refused write.
func (m *model) copyVals() map[string][]float64 {
	c := make(map[string][]float64, len(m.vals))
	for id, v := range m.vals {
		c[id] = v
	}
	return c
}

// A whole-entry Add whose sum leaves a field's range is refused, on both
// strategies, as one field's Add is, and writes nothing; so is a Max or
// Min value outside the range, checked as a value, not as an increment.
func TestWholeEntryAddOutOfRangeIsRefused(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		mustSubmit(t, b, Submission{ID: "a", Values: []float64{1000, 1, 200}})
		for _, s := range []Submission{
			{ID: "a", Values: []float64{0, 0, 100}, Policy: Add}, // time: 300, over 255
			{ID: "a", Values: []float64{0, 1, 0}, Policy: Add},   // paid: 2
			{ID: "a", Values: []float64{0, 0, 256}, Policy: Max}, // a value over 255
			{ID: "a", Values: []float64{-1, 0, 0}, Policy: Min},  // a value under 0
		} {
			if _, err := b.Submit(ctx, s); !errors.Is(err, ErrArgument) {
				t.Errorf("%v %v: %v, want ErrArgument", s.Policy, s.Values, err)
			}
		}
		if e, err := b.Get(ctx, "a"); err != nil || !cmp.Equal(e.Values, []float64{1000, 1, 200}) {
			t.Errorf("after refusals: %v, %v; want the entry unchanged", e.Values, err)
		}
	})
}
