package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/board/league"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// A league shows its settings and partitions (league describe), a
// season's cohorts with the board each is read as (league cohorts) and a
// member's seasons (league member), before and after a roll.
func testLeague(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := t.Context()
	l, err := pack.NewLayout(pack.Field{Name: "xp", Width: 20})
	if err != nil {
		t.Fatal(err)
	}
	origin := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	name := env.Prefix + "lg"
	lg, err := league.New(ctx, env.Client, name, l, board.Weekly(time.UTC).From(origin), league.Options{
		Tiers: []string{"bronze", "silver"}, CohortSize: 2, Promote: league.Zone{Count: 1}, Demote: league.Zone{Fraction: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	s := lg.At(origin)
	for i, id := range []string{"ann", "bob", "cyd"} {
		if _, err := s.Submit(ctx, board.Submission{ID: id, Values: []float64{float64(10 * (i + 1))}, RequestID: "match-" + id}); err != nil {
			t.Fatal(err)
		}
	}
	// The labels' column is as wide as the longest: one space stands
	// for any run here.
	desc := regexp.MustCompile(`  +`).ReplaceAllString(c.ok("league", "describe", name), " ")
	for _, want := range []string{
		"seasons weekly in UTC\n",
		"tiers bronze, silver (lowest first)\n",
		"promote the best 1\n",
		"demote the worst 50%\n",
		"cohort strategy PackedScore\n",
		"cohort dense ranks false\n",
		"partition 0 group " + name + "~0: latest season 2026-W45, not rolled (1 seasons)\n",
	} {
		if !strings.Contains(desc, want) {
			t.Errorf("league describe lacks %q:\n%s", want, desc)
		}
	}
	g := name + "~0/2026-W45:bronze:"
	want := "TIER    COHORT  PARTITION  MEMBERS  ROLLED  BOARD\n" +
		"bronze  1       0          2        false   " + g + "1\n" +
		"bronze  2       0          1        false   " + g + "2\n" +
		"\n2 cohorts in season 2026-W45\n"
	if diff := cmp.Diff(want, c.ok("league", "cohorts", name, "2026-W45")); diff != "" {
		t.Errorf("league cohorts (-want +got):\n%s", diff)
	}
	if out := c.ok("board", "top", g+"1"); !strings.Contains(out, "bob") || !strings.Contains(out, "ann") {
		t.Errorf("board top of a cohort:\n%s", out)
	}
	if err := s.Roll(ctx); err != nil {
		t.Fatal(err)
	}
	var m memberOut
	c.json(&m, "league", "member", name, "bob")
	if diff := cmp.Diff(memberOut{ID: "bob", NextTier: "silver", Seasons: []placementIn{{Season: "2026-W45", Tier: "bronze", Cohort: 1, Board: g + "1"}}}, m); diff != "" {
		t.Errorf("league member --json (-want +got):\n%s", diff)
	}
	c.fails(exitFailure, []string{"no league named"}, "league", "describe", name+"x")
	// A cohort board named under the league's name, not its partition's
	// group, is not found, and the error names the board.
	c.fails(exitFailure, []string{`"` + name + `" is a league`, ": " + g + "1"}, "board", "top", name+"/2026-W45:bronze:1")
	// A season never played, and an id never placed, are no such objects.
	c.fails(exitFailure, []string{"no cohort in season \"bogus\"", "the seasons it played: 2026-W45"}, "league", "cohorts", name, "bogus")
	c.fails(exitFailure, []string{"zed is no member of league"}, "league", "member", name, "zed")
	// list shows the league, its cohorts as boards, and nothing it does not
	// understand (the partitions' own keys, remembered request ids).
	if _, err := s.Submit(ctx, board.Submission{ID: "dee", Values: []float64{1}, RequestID: "r1"}); err == nil {
		t.Error("a write to a rolled season went through")
	}
	var objs []object
	c.json(&objs, "list", "--prefix", env.Prefix)
	leagues, cohorts := 0, 0
	for _, o := range objs {
		switch {
		case o.Kind == "league" && o.Name == name && o.Size == 1:
			leagues++
		case o.Kind == "board" && o.Group == name+"~0":
			cohorts++
		}
		if strings.Contains(o.Detail, "not understood") {
			t.Errorf("list: %+v not understood", o)
		}
	}
	if leagues != 1 || cohorts != 2 {
		t.Errorf("list shows %d leagues and %d cohorts, want 1 and 2: %+v", leagues, cohorts, objs)
	}
	// A board of the league's name shares its hash tag: a removal from
	// the board names the board's keys, not the league's.
	b, err := board.New(ctx, env.Client, name, l, board.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Submit(ctx, board.Submission{ID: "eve", Values: []float64{1}}); err != nil {
		t.Fatal(err)
	}
	var ch changeOut
	c.json(&ch, "board", "remove", name, "eve", "--dry-run")
	if want := []string{"tb:{" + name + "}:z"}; !slices.Equal(ch.Keys, want) {
		t.Errorf("board remove of a board named as a league: keys %v, want %v", ch.Keys, want)
	}
}
