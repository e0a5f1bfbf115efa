package board

import (
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
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
					b, err := configure(rdb.New(env.Client), env.Prefix+"golden", goldenLayout(t), Options{Strategy: s, DenseRanks: dense, Cap: limit})
					if err != nil {
						t.Fatal(err)
					}
					checkGolden(t, config, b.gen.Load())
				})
			}
		}
	}
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		// A shard of a sharded board, with a cap: its writes keep the
		// score histogram (side.lua's S.hist); and exporting, as a
		// resharding's old shard.
		config := fmt.Sprintf("%v-shard-cap=100", s)
		t.Run(config, func(t *testing.T) {
			b, err := configure(rdb.New(env.Client), env.Prefix+"golden~0.0", goldenLayout(t), Options{Strategy: s, Cap: 100, shard: true})
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, config, b.gen.Load())
		})
	}
	t.Run("periodic", func(t *testing.T) {
		p, err := NewPeriodic(env.Client, env.Prefix+"golden", goldenLayout(t), Daily(nil), time.Hour, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "PackedScore-periodic", p.At(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)).gen.Load())
	})
	t.Run("periodic tournament", func(t *testing.T) { // a window is a round: its bounds are in RULES and DESC
		p, err := NewPeriodic(env.Client, env.Prefix+"golden", goldenLayout(t), Weekly(time.UTC), time.Hour, Options{Rules: Rules{MaxAttempts: 2}})
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "PackedScore-periodic-tournament", p.At(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)).gen.Load())
	})
	t.Run("tournament", func(t *testing.T) { // with bounds and hiding too
		rules := Rules{Start: time.UnixMilli(1_790_000_000_000), End: time.UnixMilli(1_790_600_000_000), JoinRequired: true, MaxMembers: 100, MaxAttempts: 3}
		b, err := configure(rdb.New(env.Client), env.Prefix+"golden", goldenLayout(t), Options{Rules: rules, Bounds: []Bound{{Field: "points", Min: 0, Max: 1000}}, Hiding: true})
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "PackedScore-tournament", b.gen.Load())
	})
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		// Migrating to the other strategy, with a field added, dense ranks
		// and a cap (and, from a packed board, rules that bound the
		// members, whose entrants HASH joins the keys): every branch of
		// mirror.lua.
		config := fmt.Sprintf("%v-migrating", s)
		t.Run(config, func(t *testing.T) {
			b, err := configure(rdb.New(env.Client), env.Prefix+"golden", goldenLayout(t), Options{Strategy: s})
			if err != nil {
				t.Fatal(err)
			}
			to := Options{Strategy: KeySuffix + PackedScore - s, DenseRanks: true, Cap: 100}
			if s == PackedScore {
				to.Rules = Rules{MaxMembers: 10}
			}
			target, err := configure(rdb.New(env.Client), env.Prefix+"golden", widerLayout(t), to)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, config, b.generation(1, &migration{target: target, tgen: 2, defaults: map[string]float64{"level": 3}}))
		})
	}
	t.Run("group", func(t *testing.T) {
		var boards []*Board
		var gens []*generation
		for i, o := range []Options{{Group: "game", DenseRanks: true}, {Group: "game", SharedData: true, Strategy: KeySuffix, Cap: 100}} {
			b, err := configure(rdb.New(env.Client), "b"+strconv.Itoa(i), goldenLayout(t), o)
			if err != nil {
				t.Fatal(err)
			}
			boards, gens = append(boards, b), append(gens, b.gen.Load())
		}
		golden.Check(t, filepath.Join("testdata", "scripts", "group", "group.lua"), groupSource(boards, gens))
		golden.Check(t, filepath.Join("testdata", "scripts", "group", "groupremove.lua"), groupRemoveSource(boards, gens))
	})
	for _, name := range staticNames {
		golden.Check(t, filepath.Join("testdata", "scripts", "static", name+".lua"), staticSource(name))
	}
}

// checkGolden checks every script of generation g against its golden file
// under testdata/scripts/config.
func checkGolden(t *testing.T, config string, g *generation) {
	t.Helper()
	for name, src := range scriptSources(g.consts, modeOf(g.mig != nil, g.state)) {
		golden.Check(t, filepath.Join("testdata", "scripts", config, name+".lua"), src)
	}
}

// widerLayout is goldenLayout with points widened and a trailing level
// field: a migration's target.
func widerLayout(t *testing.T) *pack.Layout {
	t.Helper()
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 24},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 20, Dir: pack.LowerIsBetter},
		pack.Field{Name: "level", Width: 8},
	)
	if err != nil {
		t.Fatal(err)
	}
	return l
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
