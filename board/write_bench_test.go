package board

import (
	"context"
	"strconv"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// BenchmarkWrite is one caller's write on each route: Submit natively
// (a packed board), through submit.lua (a capped board) and with
// field by field; SubmitMany of 100; Update; Group.Submit over two boards.
func BenchmarkWrite(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = "id" + strconv.Itoa(i)
	}
	vals := func(i int) []float64 { return []float64{float64(i % 1000), float64(i % 2), float64(i % 200)} }
	submit := func(name string, o Options, s func(i int) Submission) {
		bd := newBoard(b, env.Client, env.Prefix, name, testLayout(b), o)
		b.Run(name, func(b *testing.B) {
			for i := range b.N {
				if _, err := bd.Submit(ctx, s(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	best := func(i int) Submission { return Submission{ID: ids[i%len(ids)], Values: vals(i), Policy: Best} }
	submit("Native", Options{}, best)
	submit("Script", Options{Cap: 100000}, best)
	submit("Fields", Options{}, func(i int) Submission {
		return Submission{ID: ids[i%len(ids)], Values: vals(i), Fields: []Policy{Max, Replace, Min}}
	})
	many := newBoard(b, env.Client, env.Prefix, "many", testLayout(b), Options{})
	b.Run("Many100", func(b *testing.B) {
		subs := make([]Submission, 100)
		for i := range b.N {
			for j := range subs {
				subs[j] = best(i*100 + j)
			}
			for _, r := range many.SubmitMany(ctx, subs) {
				if r.Err != nil {
					b.Fatal(r.Err)
				}
			}
		}
	})
	up := newBoard(b, env.Client, env.Prefix, "update", testLayout(b), Options{})
	b.Run("Update", func(b *testing.B) {
		for i := range b.N {
			if _, err := up.Update(ctx, ids[i%len(ids)], func(*Entry) ([]float64, error) { return vals(i), nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
	g1 := newBoard(b, env.Client, env.Prefix, "g1", testLayout(b), Options{Group: env.Prefix + "grp"})
	g2 := newBoard(b, env.Client, env.Prefix, "g2", testLayout(b), Options{Group: env.Prefix + "grp", DenseRanks: true})
	g, err := NewGroup(g1, g2)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Group", func(b *testing.B) {
		for i := range b.N {
			if _, err := g.Submit(ctx, []Submission{best(i), best(i)}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
