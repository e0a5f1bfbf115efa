package timeline

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/golden"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

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
					golden.Check(t, filepath.Join("testdata", "scripts", config, p.op+".lua"), assemble(consts, p))
				}
			})
		}
	}
}
