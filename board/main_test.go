package board

import (
	"os"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

func TestMain(m *testing.M) {
	if arg := os.Getenv(migrateChildEnv); arg != "" {
		os.Exit(migrateChild(arg))
	}
	redistest.Main(m)
}

// testLayout is points (10 bits, higher first), paid (1 bit, higher first),
// time (8 bits, lower first): small, so random workloads make many ties.
func testLayout(t testing.TB) *pack.Layout {
	t.Helper()
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 10},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// newBoard builds a board with a name unique to the test on client; the
// redistest cleanup deletes its keys.
func newBoard(t testing.TB, client rueidis.Client, prefix, suffix string, l *pack.Layout, o Options) *Board {
	t.Helper()
	b, err := New(t.Context(), client, prefix+"_"+suffix, l, o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return b
}

// bothStrategies runs f once per strategy, each on its own board.
func bothStrategies(t *testing.T, o Options, f func(t *testing.T, b *Board)) {
	t.Helper()
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run(s.String(), func(t *testing.T) {
			env := redistest.New(t)
			o := o
			o.Strategy = s
			f(t, newBoard(t, env.Client, env.Prefix, "b", testLayout(t), o))
		})
	}
}

// forgetDescriptor deletes b's meta HASH, leaving its entries with no
// descriptor.
func forgetDescriptor(t testing.TB, b *Board) {
	t.Helper()
	if err := b.rc().Do(t.Context(), b.rc().B().Del().Key(b.gen.Load().keys.meta).Build()).Error(); err != nil {
		t.Fatal(err)
	}
}

// rc is the client b was given, for a test's own commands.
func (b *Board) rc() rueidis.Client { return b.conn.Client() }
