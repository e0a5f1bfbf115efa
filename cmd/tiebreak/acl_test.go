package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// docsACL reads from docs/operating.md's table of least privilege the
// commands of the rows whose first cell starts with one of rows.
func docsACL(t *testing.T, rows ...string) []string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/operating.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	cell := regexp.MustCompile(" \\| `(\\+[^`]*)` \\|")
	for _, row := range rows {
		found := false
		for line := range strings.Lines(string(doc)) {
			if !strings.HasPrefix(line, "| "+row) {
				continue
			}
			m := cell.FindStringSubmatch(line)
			if m == nil { // a row of another table
				continue
			}
			out = append(out, strings.Fields(strings.ReplaceAll(m[1], `\|`, "|"))...)
			found = true
			break
		}
		if !found {
			t.Fatalf("docs/operating.md has no row %q", row)
		}
	}
	return out
}

// The command reads and previews every kind of board as a user holding
// exactly what docs/operating.md lists for board and for the command (and
// for every client): the ACL refuses nothing.
func TestCommandUnderTheDocsACL(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "tiebreak")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv, admin := redistest.Private(t)
	ctx := t.Context()
	e, err := engine.Of(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	rows := []string{"every client (", "every client that keeps", "`board`", "the `tiebreak` command"}
	if e.ClientSetInfo() {
		rows = append(rows, "every client on Redis 7.2")
	}
	rules := append([]string{"reset", "on", ">pw", "~tb:{*"}, docsACL(t, rows...)...)
	if err := admin.Do(ctx, admin.B().AclSetuser().Username("ops").Rule(rules...).Build()).Error(); err != nil {
		t.Fatalf("ACL SETUSER ops %v: %v", rules, err)
	}

	seedArena(t, ctx, admin, "arena", board.Options{DenseRanks: true, Hiding: true})
	for _, n := range []string{"global", "eu"} {
		seedArena(t, ctx, admin, n, board.Options{Group: "game", SharedData: true})
	}
	rules2 := board.Rules{End: time.Now().Add(time.Hour), MaxAttempts: 3}
	seedArena(t, ctx, admin, "cup", board.Options{Rules: rules2, Strategy: board.KeySuffix})
	p, err := board.NewPeriodic(admin, "season", arenaLayout(t), board.Weekly(time.UTC), 30*24*time.Hour, board.Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := p.At(time.Now().Add(-7 * 24 * time.Hour))
	if _, err := last.Submit(ctx, board.Submission{ID: "ann", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	w, err := board.Weekly(time.UTC).Window(time.Now().Add(-7 * 24 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Archive(ctx, w, board.ArchiveOptions{Top: 10}); err != nil {
		t.Fatal(err)
	}
	if err := admin.Do(ctx, admin.B().AclLog().Reset().Build()).Error(); err != nil {
		t.Fatal(err)
	}

	c := &cli{t: t, bin: bin, url: "redis://ops:pw@" + srv.Addr, env: withoutRedisURL()}
	c.ok("list")
	for _, b := range []string{"arena", "game/global", "cup", "season:" + w.Label, "season:" + w.Label + ":final"} {
		c.ok("board", "describe", b)
		c.ok("board", "top", b)
		c.ok("board", "get", b, "ann")
		c.ok("board", "rank", b, "ann")
		c.ok("board", "around", b, "ann")
		c.ok("board", "scan", b)
	}
	c.ok("board", "hidden", "arena")
	c.ok("board", "entrant", "cup", "ann")
	c.ok("board", "remove", "--group", "game", "ann", "--dry-run")
	c.ok("board", "remove", "arena", "ann", "--dry-run")
	c.ok("board", "clear", "arena", "--dry-run")
	c.ok("board", "drop", "season", "--windows", "--dry-run")
	c.ok("board", "remove", "--group", "game", "ann", "--yes")
	c.ok("board", "drop", "season", "--windows", "--yes")

	entries, err := admin.Do(ctx, admin.B().AclLog().Count(20).Build()).ToArray()
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		m, _ := en.AsStrMap()
		t.Errorf("the ACL refused %s %q (user %s)", m["reason"], m["object"], m["username"])
	}

	// A user whose patterns leave a board out sees its size as unknown,
	// not as 0.
	rules[3] = "~tb:{arena}:*"
	if err := admin.Do(ctx, admin.B().AclSetuser().Username("narrow").Rule(rules...).Build()).Error(); err != nil {
		t.Fatal(err)
	}
	nc := &cli{t: t, bin: bin, url: "redis://narrow:pw@" + srv.Addr, env: withoutRedisURL()}
	out := nc.ok("list")
	if !regexp.MustCompile(`(?m)^board +cup +\? entries .*size unreadable: NOPERM`).MatchString(out) {
		t.Errorf("list as a user who may not read cup:\n%s", out)
	}
	// Reading it, the user learns that the ACL refused it, and why.
	nc.fails(exitFailure, []string{"NOPERM", `the user's ACL has no key pattern for board "cup"`}, "board", "top", "cup")
}
