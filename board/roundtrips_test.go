package board

import (
	"fmt"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// The round trips each call makes are those its documentation states
// (board/doc.go, docs/boards.md, the methods' own), once the scripts are
// loaded, counted as the client's Do and DoMulti calls (calls made at
// once, one to each shard, are one round trip). A change that adds one
// fails here until the documentation says so.
func TestDocumentedRoundTrips(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	type call struct {
		name string
		want int // Do and DoMulti calls
		f    func(b *Board) error
	}
	for _, k := range []struct {
		name   string
		o      Options
		suffix bool // a key-suffix board
	}{
		{"PackedScore", Options{}, false},
		{"KeySuffix", Options{Strategy: KeySuffix}, true},
		{"PackedScore/Shards=3", Options{Shards: 3}, false},
		{"KeySuffix/Shards=3", Options{Strategy: KeySuffix, Shards: 3}, true},
	} {
		t.Run(k.name, func(t *testing.T) {
			sharded := k.o.Shards > 0
			calls := &countingClient{Client: env.Client}
			name := fmt.Sprintf("%s_trips%d%v", env.Prefix, k.o.Shards, k.suffix)
			b, err := New(ctx, calls, name, l, k.o)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 20 {
				mustSubmit(t, b, Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(i), 0, 0}})
			}
			// A board of one tag: a read is one round trip, a key-suffix
			// board's Get and Rank two (the lookup first); Around two,
			// three on a key-suffix board. A sharded board: the id's shard,
			// then the others in one pipeline, two; a key-suffix board's
			// three. A sharded Submit: the write, then the rank on the
			// others. Open and New of a sharded board: the descriptor, the
			// shards (one call each, all at once: one round trip), the
			// shards left to retire.
			read, submit, around, open, many := 1, 1, 2, 1, 1
			switch {
			case sharded && k.suffix:
				read, submit, around, open = 3, 2, 3, 1+k.o.Shards+1
			case sharded:
				read, submit, around, open = 2, 2, 2, 1+k.o.Shards+1
			case k.suffix:
				read, around = 2, 3
			}
			if sharded { // SubmitMany: one pipeline per shard written, all at once, then the board-wide ranks
				on := map[int]bool{}
				for _, id := range []string{"b", "c", "d"} {
					on[shardOf(id, k.o.Shards)] = true
				}
				many = len(on) + 1
				if k.o.SkipWriteRank {
					many--
				}
			}
			for _, c := range []call{
				{"Submit", submit, func(b *Board) error {
					_, err := b.Submit(ctx, Submission{ID: "a", Values: []float64{9, 0, 0}})
					return err
				}},
				{"SubmitMany", many, func(b *Board) error {
					for _, r := range b.SubmitMany(ctx, []Submission{{ID: "b", Values: []float64{3, 0, 0}}, {ID: "c", Values: []float64{4, 0, 0}, Data: []byte("x")}, {ID: "d", Values: []float64{5, 0, 0}}}) {
						if r.Err != nil {
							return r.Err
						}
					}
					return nil
				}},
				{"Get", read, func(b *Board) error { _, err := b.Get(ctx, "p7"); return err }},
				{"Rank", read, func(b *Board) error { _, err := b.Rank(ctx, "p7", Ordinal); return err }},
				{"Around", around, func(b *Board) error { _, err := b.Around(ctx, "p7", 3); return err }},
				{"Top", 1, func(b *Board) error { _, err := b.Top(ctx, 3); return err }},
				{"Len", 1, func(b *Board) error { _, err := b.Len(ctx); return err }},
				{"Remove", 1, func(b *Board) error { _, err := b.Remove(ctx, "p9"); return err }},
				{"Open", open, func(*Board) error { _, err := Open(ctx, calls, name, Options{}); return err }},
				{"Drop", map[bool]int{false: 2, true: -1}[sharded], func(b *Board) error { return b.Drop(ctx) }},
			} {
				if c.want < 0 { // not stated
					continue
				}
				if err := c.f(b); err != nil { // the scripts loaded
					t.Fatalf("%s: %v", c.name, err)
				}
				if c.name == "Drop" {
					mustSubmit(t, b, Submission{ID: "a", Values: []float64{1, 0, 0}})
				}
				before := calls.n.Load()
				if err := c.f(b); err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				if got := int(calls.n.Load() - before); got != c.want {
					t.Errorf("%s: %d round trips, documented %d", c.name, got, c.want)
				}
			}
		})
	}
}
