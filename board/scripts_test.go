package board

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tiebreak/tiebreak/internal/golden"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// TestScriptsGolden writes the text Redis runs, for every strategy and
// option that changes it, to testdata/scripts/<config>/<script>.lua, and
// fails when a script changes without its golden file: a reviewer reads
// there exactly what Redis executes. Refresh with
//
//	go test ./board -run TestScriptsGolden -update
func TestScriptsGolden(t *testing.T) {
	env := redistest.New(t)
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		for _, dense := range []bool{false, true} {
			for _, limit := range []int64{0, 100} {
				config := fmt.Sprintf("%v-dense=%t-cap=%d", s, dense, limit)
				t.Run(config, func(t *testing.T) {
					b, err := New(env.Client, env.Prefix+"golden", goldenLayout(t), Options{Strategy: s, DenseRanks: dense, Cap: limit})
					if err != nil {
						t.Fatal(err)
					}
					for name, src := range scriptSources(b.scriptConsts()) {
						golden.Check(t, filepath.Join("testdata", "scripts", config, name+".lua"), src)
					}
				})
			}
		}
	}
}

// goldenLayout is the README's layout: points, then paid first, then
// earliest.
func goldenLayout(t *testing.T) *pack.Layout {
	t.Helper()
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 20},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 32, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
