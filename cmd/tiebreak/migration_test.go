package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// board migration shows a resharding cut short after its copy began (its
// shards, their copy positions, its lease, the time of its last step) and
// --resume --yes runs it to its end, changing no key but those its dry run
// names: the board ends on the new count of shards with every entry as it
// was.
func TestReshardMigration(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "tiebreak")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := t.Context()
	client := env.Client
	name := env.Prefix + "_resharded"
	meta := "tb:{" + name + "}:meta"
	// A board beside it, which nothing may change.
	seedArena(t, ctx, client, env.Prefix+"_bystander", board.Options{})

	sb, err := board.New(ctx, client, name, arenaLayout(t), board.Options{Shards: 2})
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	seeded := map[string][]float64{}
	for i := range n {
		s := board.Submission{ID: fmt.Sprintf("p%02d", i), Values: []float64{float64(10 * (i % 7)), float64(i % 2), float64(noon.Unix() + int64(i))}}
		if _, err := sb.Submit(ctx, s); err != nil {
			t.Fatal(err)
		}
		seeded[s.ID] = s.Values
	}
	old := storedOf(t, client, meta).ShardNames

	// Reshard to 3 shards, one entry a step and a second between steps,
	// and cut it short once an old shard records a copy position.
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := sb.Reshard(rctx, 3, board.MigrateOptions{Batch: 1, Pause: time.Second})
		done <- err
	}()
	for copying := false; !copying; {
		select {
		case err := <-done:
			cancel()
			t.Fatalf("Reshard returned %v before its copy was seen under way", err)
		case <-time.After(5 * time.Millisecond):
		}
		for _, s := range old {
			pos, err := client.Do(ctx, client.B().Hget().Key("tb:{"+s+"}:meta").Field("cursor").Build()).ToString()
			copying = copying || err == nil && pos != ""
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Reshard cut short: %v, want context.Canceled", err)
	}
	m, err := client.Do(ctx, client.B().Hgetall().Key(meta).Build()).AsStrMap()
	if err != nil || m["state"] != "resharding" {
		t.Fatalf("after the cut: meta HASH %v, %v; want a resharding under way", m, err)
	}

	var got migrationOut
	c.json(&got, "board", "migration", name)
	var inOld int64
	positions := 0
	for i, s := range got.Shards {
		if s.Name != old[i] || s.State != "exporting" {
			t.Errorf("board migration: old shard %d is %+v, want %s exporting", i, s, old[i])
		}
		inOld += s.Entries
		if s.Position != "" {
			positions++
		}
	}
	if got.Kind != "resharding" || got.From != 2 || got.To != 3 || len(got.Shards) != 2 || inOld != n || positions == 0 ||
		got.Lease != "" || got.LeaseState != "free" || got.Resume != "tiebreak board migration "+name+" --resume --yes" {
		t.Errorf("board migration of a resharding cut short: %+v; want from 2 to 3 shards holding %d entries, a copy position, the lease released", got, n)
	}
	// board describe says where its progress is shown.
	if out := c.ok("board", "describe", name); !strings.Contains(out, "resharding (tiebreak board migration "+name+" shows its progress)") {
		t.Errorf("describe of a resharding cut short does not say where its progress is:\n%s", out)
	}
	// list marks the new shards the resharding fills with their board.
	newShards := 0
	for l := range strings.Lines(c.ok("list", "--prefix", name)) {
		if strings.Contains(l, "a new shard of "+name) {
			newShards++
		}
	}
	if newShards != 3 {
		t.Errorf("list marks %d boards as the new shards of %s, want 3", newShards, name)
	}
	// The time of the last step is the meta HASH's field moved, as the
	// cut left it; unknown without it.
	wantMoved := ""
	if v, ok := m["moved"]; ok {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("field moved = %q", v)
		}
		wantMoved = stamp(time.UnixMilli(ms))
	}
	if got.LastMoved != wantMoved {
		t.Errorf("board migration: last moved %q, want %q (field moved: %q)", got.LastMoved, wantMoved, m["moved"])
	}
	checkMoved := func(want string) {
		t.Helper()
		out := c.ok("board", "migration", name)
		var line string
		for l := range strings.Lines(out) {
			if strings.HasPrefix(l, "last moved ") {
				line = strings.Join(strings.Fields(l), " ")
			}
		}
		if !strings.HasPrefix(line, "last moved "+want) {
			t.Errorf("board migration: %q, want the line to start %q:\n%s", line, "last moved "+want, out)
		}
		for _, w := range []string{"resharding", "from 2 shards", "lease", "free", "resume: tiebreak board migration " + name + " --resume --yes"} {
			if !strings.Contains(out, w) {
				t.Errorf("board migration lacks %q:\n%s", w, out)
			}
		}
	}
	if err := client.Do(ctx, client.B().Hdel().Key(meta).Field("moved").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	checkMoved("unknown: " + meta + " records no time of the last step (no field moved)")
	if err := client.Do(ctx, client.B().Hset().Key(meta).FieldValue().FieldValue("moved", strconv.FormatInt(noon.UnixMilli(), 10)).Build()).Error(); err != nil {
		t.Fatal(err)
	}
	checkMoved(stamp(noon) + " (")
	c.json(&got, "board", "migration", name)
	if got.LastMoved != stamp(noon) {
		t.Errorf("board migration --json: last moved %q, want %q", got.LastMoved, stamp(noon))
	}

	resumeChecked(t, c, env, name, "resharding")

	b, err := board.Open(ctx, client, name, board.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := b.Options().Shards; s != 3 {
		t.Errorf("after resume: %d shards, want 3", s)
	}
	if now := storedOf(t, client, meta).ShardNames; len(now) != 3 || slices.ContainsFunc(now, func(s string) bool { return slices.Contains(old, s) }) {
		t.Errorf("after resume: shards %q, want 3 new ones (the old: %q)", now, old)
	}
	l, err := b.Top(ctx, 100, board.WithTotal())
	if err != nil {
		t.Fatal(err)
	}
	entries := map[string][]float64{}
	for _, e := range l.Entries {
		entries[e.ID] = e.Values
	}
	if diff := cmp.Diff(seeded, entries); diff != "" || l.Total != n {
		t.Errorf("after resume: %d entries, want %d, as seeded (-seeded +board):\n%s", l.Total, n, diff)
	}
	c.json(&got, "board", "migration", name)
	if got.Kind != "none" {
		t.Errorf("after resume: %+v, want nothing under way", got)
	}
	var objs []object
	c.json(&objs, "list", "--prefix", name, "--kind", "board")
	for _, o := range objs {
		if o.Name == name && o.Size != n {
			t.Errorf("list after resume: %s holds %d entries, want %d", name, o.Size, n)
		}
	}
}

// resumeChecked runs board migration NAME --resume three ways: without
// --yes (exit 2), with --dry-run --json and with --yes --json. Neither of
// the first two may change a key; the dry run must name the keys of the
// board and of its shards, and the prefixes of those it may create; and
// every key the real run changed, made or removed (by DUMP, over every
// key of the test) must be one the dry run named or under one of its
// prefixes. It returns the real run's answer.
func resumeChecked(t *testing.T, c *cli, env *redistest.Env, name, kind string) migrationOut {
	t.Helper()
	all := "*" + env.Prefix + "*"
	before := dumpKeys(t, env, all)
	c.fails(exitUsage, []string{"board migration writes", "add --yes to do it, or --dry-run"}, "board", "migration", name, "--resume")
	var dry migrationOut
	c.json(&dry, "board", "migration", name, "--resume", "--dry-run")
	if diff := cmp.Diff(before, dumpKeys(t, env, all)); diff != "" {
		t.Errorf("--resume without --yes or with --dry-run changed keys (-before +after):\n%s", diff)
	}
	if !dry.DryRun || dry.Resumed || dry.Kind != kind || len(dry.Creates) == 0 {
		t.Errorf("--resume --dry-run: %+v, want a dry run of the %s naming the prefixes of the keys it may create", dry, kind)
	}
	if !slices.Contains(dry.Keys, "tb:{"+name+"}:meta") {
		t.Errorf("--resume --dry-run names the keys %q, not the board's meta HASH", dry.Keys)
	}
	for k := range before {
		if strings.HasPrefix(k, "tb:{"+name+"}:") || strings.HasPrefix(k, "tb:{"+name+"~") {
			if !slices.Contains(dry.Keys, k) {
				t.Errorf("--resume --dry-run does not name %s, a key of the board", k)
			}
		}
	}
	table := c.ok("board", "migration", name, "--resume", "--dry-run")
	for _, w := range []string{"dry run: board migration --resume would resume the " + kind + " of board " + name + "; nothing changed",
		"keys it changes or removes: " + strings.Join(dry.Keys, " "), "keys it may create (the target's, and tombstones of the source's): under " + strings.Join(dry.Creates, " ")} {
		if !strings.Contains(table, w) {
			t.Errorf("--resume --dry-run lacks %q:\n%s", w, table)
		}
	}

	before = dumpKeys(t, env, all)
	var got migrationOut
	c.json(&got, "board", "migration", name, "--resume", "--yes")
	after := dumpKeys(t, env, all)
	if !got.Resumed || got.DryRun || got.Kind != kind || !slices.Equal(got.Keys, dry.Keys) || !slices.Equal(got.Creates, dry.Creates) {
		t.Errorf("--resume --yes: %+v, want the %s resumed, the keys of the dry run %+v", got, kind, dry)
	}
	named := func(k string) bool {
		return slices.Contains(dry.Keys, k) || slices.ContainsFunc(dry.Creates, func(p string) bool { return strings.HasPrefix(k, p) })
	}
	for _, m := range []map[string]string{before, after} {
		for k := range m {
			if before[k] != after[k] && !named(k) {
				t.Errorf("--resume --yes changed %s, which the dry run does not name", k)
			}
		}
	}
	return got
}
