package main

import (
	"context"
	"strings"
	"testing"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A board of a group answers to the name list prints, group/name, in every
// board subcommand; and list goes on after a resharding left its retired
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
	if out := c.ok("board", "describe", group+"/global"); !strings.Contains(out, "tb:{"+group+"}:{global}:meta") {
		t.Errorf("board describe %s/global:\n%s", group, out)
	}
	if out := c.ok("board", "top", group+"/global", "-n", "1"); !strings.Contains(out, "ann") {
		t.Errorf("board top %s/global:\n%s", group, out)
	}
}
