package board

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

var update = flag.Bool("update", false, "rewrite the golden scripts in testdata/scripts")

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
						checkGolden(t, filepath.Join("testdata", "scripts", config, name+".lua"), src)
					}
				})
			}
		}
	}
}

// checkGolden compares got with the file at path, or writes it with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s is not what Redis runs (-golden +assembled); run with -update and review:\n%s", path, diff)
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
