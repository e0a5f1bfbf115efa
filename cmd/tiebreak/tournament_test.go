package main

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// A tournament shows its rules in board describe, and board entrant
// shows a member's attempts made and left, for a board of a group as for
// any; a board without rules refuses board entrant.
func testTournament(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := t.Context()
	l, err := pack.NewLayout(pack.Field{Name: "points", Width: 20})
	if err != nil {
		t.Fatal(err)
	}
	end := time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)
	cup, err := board.New(ctx, env.Client, "cup", l, board.Options{Group: env.Prefix + "g", Rules: board.Rules{End: end, JoinRequired: true, MaxMembers: 64, MaxAttempts: 3},
		Bounds: []board.Bound{{Field: "points", Min: 0, Max: 1000}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := cup.Join(ctx, "ann", "bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := cup.Submit(ctx, board.Submission{ID: "ann", Values: []float64{10}}); err != nil {
		t.Fatal(err)
	}
	spelling := env.Prefix + "g/cup"
	out := c.ok("board", "describe", spelling)
	if !strings.Contains(out, "rules            end 2099-01-01T00:00:00Z, join required, at most 64 members, at most 3 attempts each\n") {
		t.Errorf("board describe of a tournament shows no rules:\n%s", out)
	}
	if !strings.Contains(out, "entrants         2 of at most 64 (removed members stay entrants)\n") {
		t.Errorf("board describe of a tournament does not count its entrants:\n%s", out)
	}
	if !strings.Contains(out, "bounds           points in [0, 1000]\n") {
		t.Errorf("board describe of a board with bounds shows none:\n%s", out)
	}
	want := "ID   ENTERED  ATTEMPTS  LEFT\nann  true     1         2\n"
	if diff := cmp.Diff(want, c.ok("board", "entrant", spelling, "ann")); diff != "" {
		t.Errorf("board entrant (-want +got):\n%s", diff)
	}
	var got entrantOut
	c.json(&got, "board", "entrant", spelling, "cyd")
	if diff := cmp.Diff(entrantOut{Board: spelling, ID: "cyd", AttemptsLeft: new(int64(3))}, got); diff != "" {
		t.Errorf("board entrant --json of one not entered (-want +got):\n%s", diff)
	}
	plain := seedArena(t, ctx, env.Client, env.Prefix+"_arena", board.Options{})
	c.fails(exitFailure, []string{"no Rules"}, "board", "entrant", plain.Name(), "ann")
	// A window of a periodic tournament is a round: describe shows it.
	p, err := board.NewPeriodic(env.Client, env.Prefix+"_weekly", l, board.Weekly(time.UTC), time.Hour, board.Options{Rules: board.Rules{MaxAttempts: 2}})
	if err != nil {
		t.Fatal(err)
	}
	week := p.At(time.Now())
	if _, err := week.Submit(ctx, board.Submission{ID: "ann", Values: []float64{10}}); err != nil {
		t.Fatal(err)
	}
	w, _ := board.Weekly(time.UTC).Window(time.Now())
	round := "this window's round " + w.Start.Format(time.RFC3339Nano) + " to " + w.End.Format(time.RFC3339Nano)
	if out := c.ok("board", "describe", week.Name()); !strings.Contains(out, "at most 2 attempts each, "+round+"\n") {
		t.Errorf("board describe of a window of a periodic tournament does not show its round (%s):\n%s", round, out)
	}
}

// board hidden lists the members a board hides, with the entries and
// ranks their members see, which board top leaves out; board describe says the board hides; a board without hiding
// refuses board hidden.
func testHidden(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := t.Context()
	l, err := pack.NewLayout(pack.Field{Name: "points", Width: 20}, pack.Field{Name: "time", Width: 20, Dir: pack.LowerIsBetter})
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.New(ctx, env.Client, env.Prefix+"_h", l, board.Options{Strategy: board.KeySuffix, Hiding: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"ann", "bob", "cyd"} {
		if _, err := b.Submit(ctx, board.Submission{ID: id, Values: []float64{float64(10 * i), 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Hide(ctx, "cyd", "ann"); err != nil {
		t.Fatal(err)
	}
	want := "RANK  COMPETITION  ID   points  time\n" +
		"1     1            cyd  20      1\n" +
		"2     2            ann  0       1\n" +
		"\n2 hidden, listed with the ranks their members see (board.AsSelf)\n"
	if diff := cmp.Diff(want, c.ok("board", "hidden", b.Name())); diff != "" {
		t.Errorf("board hidden (-want +got):\n%s", diff)
	}
	if out := c.ok("board", "top", b.Name()); strings.Contains(out, "cyd") || !strings.Contains(out, "1 of 1 entries") {
		t.Errorf("board top shows a hidden member:\n%s", out)
	}
	// A read of a hidden member says it is hidden, not absent.
	for _, cmd := range []string{"get", "rank", "around"} {
		c.fails(exitFailure, []string{`id "cyd" is hidden on board`, "board hidden"}, "board", cmd, b.Name(), "cyd")
		c.fails(exitFailure, []string{`id "zed" is not on board`}, "board", cmd, b.Name(), "zed")
	}
	if out := c.ok("board", "describe", b.Name()); !strings.Contains(out, "hiding           true") {
		t.Errorf("board describe does not say the board hides:\n%s", out)
	}
	plain := seedArena(t, ctx, env.Client, env.Prefix+"_arena", board.Options{})
	c.fails(exitFailure, []string{"has no Hiding"}, "board", "hidden", plain.Name())
}
