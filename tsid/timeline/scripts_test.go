package timeline

import (
	goflag "flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

var update = goflag.Bool("update", false, "rewrite the golden scripts in testdata/scripts")

// TestScriptsGolden writes the text Redis runs, for each strategy with and
// without retention (TSID IDs), to testdata/scripts/<config>/<op>.lua, and
// fails when a script changes without its golden file: a reviewer reads
// there exactly what Redis executes. Refresh with
//
//	go test ./tsid/timeline -run TestScriptsGolden -update
func TestScriptsGolden(t *testing.T) {
	env := redistest.New(t)
	for _, s := range []Strategy{LexID, SplitScore} {
		for _, o := range []Options{{}, {MaxLen: 1000, MaxAge: time.Hour}} {
			o.Strategy = s
			config := fmt.Sprintf("%v-retain=%t", s, o.MaxLen > 0)
			t.Run(config, func(t *testing.T) {
				tl, err := New(env.Client, env.Prefix+"golden", tsid.TSID, o)
				if err != nil {
					t.Fatal(err)
				}
				consts := scriptConsts(tl.split, tl.idLen(), tl.sufLen, tl.opts)
				for _, p := range scriptParts(tl.split, tl.opts.retains()) {
					checkGolden(t, filepath.Join("testdata", "scripts", config, p.op+".lua"), assemble(consts, p))
				}
			})
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
