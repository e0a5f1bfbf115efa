package league

import (
	"path/filepath"
	"testing"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/golden"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// TestScriptsGolden writes the text Redis runs for a league's scripts to
// testdata/scripts: the write (the placement, then the cohort board's
// submit, for a packed and a key-suffix cohort) and the roll's steps.
// Refresh with
//
//	go test ./board/league -run TestScriptsGolden -update
func TestScriptsGolden(t *testing.T) {
	env := redistest.New(t)
	for name, o := range map[string]board.Options{"place-PackedScore": {}, "place-KeySuffix-dense": {Strategy: board.KeySuffix, DenseRanks: true}} {
		l := newLeague(t, env.Client, env.Prefix+name, Options{Board: o})
		golden.Check(t, filepath.Join("testdata", "scripts", name+".lua"), l.placed.Source())
	}
	for _, name := range []string{"close", "apply", "finish"} {
		golden.Check(t, filepath.Join("testdata", "scripts", name+".lua"), luascript.MustAssemble(luaFiles, "lua", "league: "+name, nil, name))
	}
}
