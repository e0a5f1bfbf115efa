package board

import (
	"encoding/base64"
	"errors"
	"fmt"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// A scan's cursor is a stored position, so it holds across changes that
// keep the encoding (a cap, dense ranks, a resharding) and is refused (ErrMismatch,
// nothing read) across a Migrate that changes it, and on a board of
// another layout: read in another encoding, it would skip or repeat
// entries.
func TestScanCursorAcrossMigrations(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	wide := mustLayout(t, pack.Field{Name: "points", Width: 12}, pack.Field{Name: "paid", Width: 1}, pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter})
	renamed := mustLayout(t, pack.Field{Name: "score", Width: 10}, pack.Field{Name: "paid", Width: 1}, pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter})
	subs := make([]Submission, 60)
	for i := range subs {
		subs[i] = Submission{ID: fmt.Sprintf("p%02d", i), Values: []float64{float64(i % 9), 0, float64(i)}}
	}
	for _, c := range []struct {
		name   string
		o      Options
		change func(b *Board) (*Board, error)
		refuse bool
	}{
		{"Migrate to a wider field", Options{}, func(b *Board) (*Board, error) { return b.Migrate(ctx, wide, Options{}, MigrateOptions{}) }, true},
		{"Migrate to key suffix", Options{}, func(b *Board) (*Board, error) {
			return b.Migrate(ctx, l, Options{Strategy: KeySuffix}, MigrateOptions{})
		}, true},
		{"Migrate to packed score", Options{Strategy: KeySuffix}, func(b *Board) (*Board, error) { return b.Migrate(ctx, l, Options{}, MigrateOptions{}) }, true},
		{"Migrate to a cap", Options{}, func(b *Board) (*Board, error) { return b.Migrate(ctx, l, Options{Cap: 1000}, MigrateOptions{}) }, false},
		{"Migrate to renamed fields", Options{Strategy: KeySuffix}, func(b *Board) (*Board, error) {
			return b.Migrate(ctx, renamed, Options{Strategy: KeySuffix}, MigrateOptions{Defaults: map[string]float64{"score": 1}})
		}, true},
		{"Migrate to dense ranks", Options{Strategy: KeySuffix}, func(b *Board) (*Board, error) {
			return b.Migrate(ctx, l, Options{Strategy: KeySuffix, DenseRanks: true}, MigrateOptions{})
		}, false},
		{"Reshard", Options{Shards: 2}, func(b *Board) (*Board, error) { return b.Reshard(ctx, 3, MigrateOptions{}) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBoard(t, env.Client, env.Prefix, c.name, l, c.o)
			loadAll(t, b, subs)
			first, err := b.Scan(ctx, "", 25)
			if err != nil || first.Next == "" {
				t.Fatalf("Scan: %v, next %q", err, first.Next)
			}
			nb, err := c.change(b)
			if err != nil {
				t.Fatal(err)
			}
			rest, err := nb.Scan(ctx, first.Next, 1000)
			if c.refuse {
				if !errors.Is(err, ErrMismatch) {
					t.Fatalf("Scan from a cursor of the old encoding: err = %v, want ErrMismatch", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Scan from a cursor made before: %v", err)
			}
			seen := map[string]int{}
			for _, e := range append(first.Entries, rest.Entries...) {
				seen[e.ID]++
			}
			for _, s := range subs {
				if seen[s.ID] != 1 {
					t.Errorf("%s seen %d times across the scan", s.ID, seen[s.ID])
				}
			}
		})
	}
	a := newBoard(t, env.Client, env.Prefix, "a", l, Options{})
	other := newBoard(t, env.Client, env.Prefix, "other", wide, Options{})
	loadAll(t, a, subs)
	first, err := a.Scan(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Scan(ctx, first.Next, 10); !errors.Is(err, ErrMismatch) {
		t.Errorf("a cursor on a board of another layout: err = %v, want ErrMismatch", err)
	}
}

// A cursor is public input: parseCursor never panics, and accepts only
// what cursorOf writes for the board's encoding.
func FuzzScanCursor(f *testing.F) {
	l, err := pack.NewLayout(pack.Field{Name: "points", Width: 10}, pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter})
	if err != nil {
		f.Fatal(err)
	}
	tag := encodingTag(PackedScore, l)
	b := &Board{layout: l, tag: tag}
	for _, s := range []string{"", "!!", tag + "\n1024\np1", tag + "\n-1.5e+300\n", "00000000\n1\np", tag + "\nNaN\np", tag + "\n01\np"} {
		f.Add(base64.RawURLEncoding.EncodeToString([]byte(s)))
	}
	f.Fuzz(func(t *testing.T, c string) {
		score, member, err := b.parseCursor(c)
		switch {
		case err != nil:
			if !errors.Is(err, ErrArgument) && !errors.Is(err, ErrMismatch) {
				t.Fatalf("parseCursor(%q): %v, want ErrArgument or ErrMismatch", c, err)
			}
		case c != "":
			if again := base64.RawURLEncoding.EncodeToString([]byte(tag + "\n" + score + "\n" + member)); again != c {
				t.Fatalf("parseCursor(%q) accepted a cursor cursorOf would write as %q", c, again)
			}
		}
	})
}
