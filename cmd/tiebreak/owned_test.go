package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/board/league"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// A shard of a sharded board and a league's cohort board are not the
// command's to empty, drop or archive on their own: it refuses, naming
// the owner, and changes nothing. Removing ids from a shard is refused too
// (the sharded board removes them); from a cohort board it goes on, and
// the dry run says the members keep their placements.
func testOwned(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := t.Context()
	sname := env.Prefix + "_owner"
	seedArena(t, ctx, env.Client, sname, board.Options{Shards: 2})
	l, err := pack.NewLayout(pack.Field{Name: "xp", Width: 20})
	if err != nil {
		t.Fatal(err)
	}
	origin := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	lname := env.Prefix + "_lg"
	lg, err := league.New(ctx, env.Client, lname, l, board.Weekly(time.UTC).From(origin), league.Options{Tiers: []string{"bronze", "silver"}, CohortSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lg.At(origin).Submit(ctx, board.Submission{ID: "ann", Values: []float64{10}}); err != nil {
		t.Fatal(err)
	}
	cohort := lname + "~0/2026-W45:bronze:1"
	before := dumpKeys(t, env, env.Prefix+"*")
	for _, args := range [][]string{
		{"board", "drop", shardOf(t, c, sname), "--yes"},
		{"board", "clear", shardOf(t, c, sname), "--yes"},
		{"board", "remove", shardOf(t, c, sname), "ann", "--yes"},
		{"board", "drop", cohort, "--yes"},
		{"board", "clear", cohort, "--yes"},
	} {
		c.fails(exitFailure, []string{"is a "}, args...)
	}
	if out := c.ok("board", "remove", cohort, "ann", "--dry-run"); !strings.Contains(out, "is a cohort board of league") || !strings.Contains(out, "keep their placements") {
		t.Errorf("board remove --dry-run of a cohort board does not name its league:\n%s", out)
	}
	if out := c.ok("board", "remove", "--group", lname+"~0", "ann", "--dry-run"); !strings.Contains(out, "cohort boards of a league") || !strings.Contains(out, "keep their placements") {
		t.Errorf("board remove --group of a league's partition does not name its league:\n%s", out)
	}
	c.fails(exitFailure, []string{"empty or drop the sharded board itself"}, "board", "drop", shardOf(t, c, sname), "--dry-run")
	c.fails(exitFailure, []string{"go with the league"}, "board", "drop", cohort, "--dry-run")
	if diff := cmp.Diff(before, dumpKeys(t, env, env.Prefix+"*")); diff != "" {
		t.Errorf("refused commands changed keys (-before +after):\n%s", diff)
	}
}

// shardOf is the name of sharded board name's first shard, as board list
// shows it.
func shardOf(t *testing.T, c *cli, name string) string {
	t.Helper()
	for _, line := range strings.Split(c.ok("list", "--prefix", name), "\n") {
		if f := strings.Fields(line); len(f) > 1 && strings.HasPrefix(f[1], name+"~") {
			return f[1]
		}
	}
	t.Fatalf("list --prefix %s shows no shard:\n%s", name, c.ok("list", "--prefix", name))
	return ""
}

// A shard a resharding retired holds nothing: board describe says so,
// and a read or a drop of it says what it is rather than that a migration
// is under way.
func testRetiredShard(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := t.Context()
	name := env.Prefix + "_resharded"
	b := seedArena(t, ctx, env.Client, name, board.Options{Shards: 2})
	old := shardOf(t, c, name)
	if _, err := b.Reshard(ctx, 3, board.MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	var d description
	c.json(&d, "board", "describe", old)
	if d.State != "retired" || d.Entries != 0 {
		t.Errorf("board describe of a retired shard: state %q, %d entries; want retired, 0", d.State, d.Entries)
	}
	c.fails(exitFailure, []string{"a shard that a resharding retired"}, "board", "top", old)
	c.fails(exitFailure, []string{"a shard that a resharding retired"}, "board", "drop", old, "--yes")
}

// An entry written into a dense board's keys by hand, which its dense
// index lacks, fails a read of its dense rank (as board remove's preview
// makes), but board remove still previews it (without dense ranks, saying
// why) and removes it, which repairs the board.
func testDamagedDense(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := t.Context()
	name := env.Prefix + "_damaged"
	seedArena(t, ctx, env.Client, name, board.Options{DenseRanks: true})
	if err := env.Client.Do(ctx, env.Client.B().Zadd().Key("tb:{"+name+"}:z").ScoreMember().ScoreMember(-12345, "byhand").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	if out := c.ok("board", "remove", name, "byhand", "--dry-run"); !strings.Contains(out, "byhand") || !strings.Contains(out, "DENSE shows 0") {
		t.Errorf("board remove --dry-run of an entry the dense index lacks:\n%s", out)
	}
	c.ok("board", "remove", name, "byhand", "--yes")
	if out := c.ok("board", "top", name); strings.Contains(out, "byhand") {
		t.Errorf("board top after the removal:\n%s", out)
	}
}

// The next-page command board scan prints runs as printed, even for a
// board whose name starts with "-" (which would read as a flag); an id
// read as an unknown flag is answered with how to write it.
func testDashName(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	name := "-" + env.Prefix + "_dash"
	seedArena(t, t.Context(), env.Client, name, board.Options{})
	c.fails(exitUsage, []string{"flag provided but not defined: -n", "goes after a --"}, "board", "get", name[1:], "-n")
	// The server in REDIS_URL, so that no flag follows the "--".
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		r := c.exec(cmd)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("tiebreak %s: exit %d\nstderr: %s", strings.Join(args, " "), r.code, r.stderr)
		}
		return r.stdout
	}
	c.env = append(withoutRedisURL(), "REDIS_URL="+c.url)
	out := run("board", "scan", "-n", "2", "--", name)
	_, hint, ok := strings.Cut(out, "next page: tiebreak ")
	if !ok {
		t.Fatalf("board scan of a board of 5 entries, 2 a page, gives no next page:\n%s", out)
	}
	args := strings.Fields(strings.TrimSpace(hint))
	if next := run(args...); !strings.Contains(next, "next page") && !strings.Contains(next, "last page") {
		t.Errorf("the next page's command %q printed:\n%s", args, next)
	}
	// An error's hint names a command that runs as printed too.
	hiding := "-" + env.Prefix + "_dhide"
	hb := seedArena(t, t.Context(), env.Client, hiding, board.Options{Hiding: true})
	if _, err := hb.Hide(t.Context(), "ann"); err != nil {
		t.Fatal(err)
	}
	r := c.exec(exec.Command(bin, "board", "get", "--", hiding, "ann"))
	_, hint, ok = strings.Cut(r.stderr, "; tiebreak ")
	hint, _, _ = strings.Cut(hint, " lists what")
	if r.code != exitFailure || !ok || !strings.HasPrefix(hint, "board hidden -- ") {
		t.Fatalf("board get of a hidden id on %s: exit %d, stderr %s", hiding, r.code, r.stderr)
	}
	if out := run(strings.Fields(hint)...); !strings.Contains(out, "ann") {
		t.Errorf("%q printed:\n%s", hint, out)
	}
}
