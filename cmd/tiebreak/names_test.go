package main

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A board of a group answers to the name list prints, group/name, in every
// board subcommand, the writing ones included; and list goes on after a resharding left its retired
// shards' tombstones, showing each as it finds it.
func testNames(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := context.Background()
	group := env.Prefix + "_game"
	seedArena(t, ctx, env.Client, "global", board.Options{Group: group})
	sb, err := board.New(ctx, env.Client, env.Prefix+"_sharded", arenaLayout(t), board.Options{Shards: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Submit(ctx, board.Submission{ID: "ann", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Reshard(ctx, 3, board.MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	out := c.ok("list", "--prefix", env.Prefix)
	if !strings.Contains(out, group+"/global") || !strings.Contains(out, "retired") {
		t.Errorf("list shows neither %s/global nor the retired shards:\n%s", group, out)
	}
	if strings.Contains(out, "unreadable") {
		t.Errorf("list calls a retired shard's size unreadable; it holds nothing:\n%s", out)
	}
	if out := c.ok("board", "describe", group+"/global"); !strings.Contains(out, "tb:{"+group+"}:{global}:meta") || !regexp.MustCompile(`(?m)^board +`+regexp.QuoteMeta(group+"/global")+`$`).MatchString(out) {
		t.Errorf("board describe %s/global does not name it so:\n%s", group, out)
	}
	if out := c.ok("board", "top", group+"/global", "-n", "1"); !strings.Contains(out, "ann") {
		t.Errorf("board top %s/global:\n%s", group, out)
	}
	// Every other board subcommand takes the same spelling: the reads...
	global := group + "/global"
	for _, args := range [][]string{
		{"board", "get", global, "ann"}, {"board", "rank", global, "ann"}, {"board", "around", global, "bob", "-n", "3"},
		{"board", "scan", global, "-n", "2"}, {"board", "watch", global, "--changes", "1"}, {"board", "migration", global},
	} {
		if out := c.ok(args...); !strings.Contains(out, "ann") && !strings.Contains(out, "ordinal") && !strings.Contains(out, "none under way") {
			t.Errorf("%q:\n%s", args, out)
		}
	}
	// (the board has neither hiding nor rules: these find it and say so)
	c.fails(exitFailure, []string{`board "` + global + `" has no Hiding`}, "board", "hidden", global)
	c.fails(exitFailure, []string{"board: " + global + ": Entrant: the board has no Rules"}, "board", "entrant", global, "ann")
	// ...and the writes, whose dry runs name the board's own keys.
	pre := "tb:{" + group + "}:{global}:"
	for _, args := range [][]string{
		{"board", "remove", global, "ann"}, {"board", "clear", global}, {"board", "drop", global},
	} {
		got := decodeChange(t, c.ok(append(args, "--dry-run", "--json")...))
		if got.Object != global || len(got.Keys) == 0 || slices.ContainsFunc(got.Keys, func(k string) bool { return !strings.HasPrefix(k, pre) }) {
			t.Errorf("%q --dry-run: %+v, want %s and keys under %s", args, got, global, pre)
		}
	}
	daily, err := board.NewPeriodic(env.Client, "daily", arenaLayout(t), board.Daily(nil), 30*24*time.Hour, board.Options{Group: group})
	if err != nil {
		t.Fatal(err)
	}
	yesterday := time.Now().Add(-24 * time.Hour)
	if _, err := daily.At(yesterday).Submit(ctx, board.Submission{ID: "ann", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	w, err := board.Daily(nil).Window(yesterday)
	if err != nil {
		t.Fatal(err)
	}
	final := group + "/daily:" + w.Label + ":final"
	got := decodeChange(t, c.ok("board", "archive", group+"/daily", "--tz", "UTC", "--window", w.Label, "--dry-run", "--json"))
	if got.Object != final || got.Count != 1 || len(got.Keys) == 0 || !strings.HasPrefix(got.Keys[0], "tb:{"+group+"}:{daily:"+w.Label+":final}:") {
		t.Errorf("board archive %s/daily --dry-run: %+v, want %s", group, got, final)
	}
}

// An id as long as a program's Options.MaxIDLen lets it write (a handle's
// setting, not stored) is read and removed by the command as any other.
func testLongID(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := t.Context()
	name := env.Prefix + "_long"
	b, err := board.New(ctx, env.Client, name, arenaLayout(t), board.Options{MaxIDLen: 4096})
	if err != nil {
		t.Fatal(err)
	}
	id := strings.Repeat("x", 3000)
	if _, err := b.Submit(ctx, board.Submission{ID: id, Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	var got getOut
	c.json(&got, "board", "get", name, id)
	if got.ID != id || got.Rank != 1 {
		t.Errorf("board get of an id of %d bytes: id of %d bytes, rank %d", len(id), len(got.ID), got.Rank)
	}
	var ch changeOut
	c.json(&ch, "board", "remove", name, id, "--yes")
	if ch.Count != 1 {
		t.Errorf("board remove of an id of %d bytes: %+v", len(id), ch)
	}
}
