package board

import (
	"cmp"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// BenchmarkGenerationScripts builds the texts of every script of a live
// and of a migrating generation, as a handle does the first time it meets
// a generation (New, Open, a migration's begin and switch); the SHA1s are
// not counted. Each build of a process's scripts is once per distinct
// constants (scriptCache), so this is a cost per board and per migration,
// not per call.
func BenchmarkGenerationScripts(b *testing.B) {
	env := redistest.New(b)
	bd := newBoard(b, env.Client, env.Prefix, "genscripts", testLayout(b), Options{})
	consts := bd.gen.Load().consts
	for _, mode := range []string{modeLive, modeMigrating} {
		b.Run("mode="+cmp.Or(mode, "live"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if len(scriptSources(consts, mode)) == 0 {
					b.Fatal("no scripts")
				}
			}
		})
	}
}
