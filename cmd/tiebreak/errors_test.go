package main

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/board/league"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

func testErrors(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := context.Background()
	p := env.Prefix
	arena := seedArena(t, ctx, env.Client, p+"_arena", board.Options{}).Name()
	room := p + "_room"
	seedTimeline(t, ctx, env.Client, room, tsid.TSID, timeline.LexID, 3, func(i int) uint64 { return tsidAt(t, i) })
	for _, cmd := range [][]string{
		{"SET", "tb:{" + p + "_string}:meta", "x"},
		{"HSET", "tl:{" + p + "_hash}:z", "f", "v"},
	} {
		if err := env.Client.Do(ctx, env.Client.B().Arbitrary(cmd...).Build()).Error(); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("missing object", func(t *testing.T) {
		// A board of a group that has no such board, a periodic board (its
		// windows are the boards), a limiter of another prefix.
		c.fails(exitFailure, []string{`no board named "` + p + `_grp/none" (no key tb:{` + p + `_grp}:{none}:meta for board "none" of group "` + p + `_grp"`}, "board", "describe", p+"_grp/none")
		days, err := board.NewPeriodic(env.Client, p+"_days", arenaLayout(t), board.Weekly(time.UTC), 30*24*time.Hour, board.Options{Group: p + "_grp"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := days.At(time.Now()).Submit(ctx, board.Submission{ID: "ann", Values: []float64{1, 0, 1}}); err != nil {
			t.Fatal(err)
		}
		c.fails(exitFailure, []string{`"` + p + `_grp/` + p + `_days" is a periodic board`, `"` + p + `_grp/` + days.At(time.Now()).Name() + `"`}, "board", "top", p+"_grp/"+p+"_days")
		c.fails(exitFailure, []string{`no limiter named "` + p + `_nolim"`, "--limiter-prefix"}, "limiter", "get", p+"_nolim", "--window", "1s")
		c.fails(exitFailure, []string{`no board named "` + p + `_none" (no key tb:{` + p + `_none}:meta) (not found)`}, "board", "top", p+"_none")
		// A board named as one of a group, without its group.
		seedArena(t, ctx, env.Client, p+"_solo", board.Options{Group: p + "_grp"})
		c.fails(exitFailure, []string{`no board named "` + p + `_solo"`, `a board of a group is named GROUP/NAME: ` + p + `_grp/` + p + `_solo`}, "board", "top", p+"_solo")
		// A group's name, and a periodic board of Every, whose window no
		// calendar label finds.
		c.fails(exitFailure, []string{`"` + p + `_grp" is a group: its boards are named GROUP/NAME, as ` + p + `_grp/`}, "board", "top", p+"_grp")
		raids, err := board.NewPeriodic(env.Client, p+"_raid", arenaLayout(t), board.Every(time.Hour), 24*time.Hour, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raids.At(time.Now()).Submit(ctx, board.Submission{ID: "ann", Values: []float64{1, 0, 1}}); err != nil {
			t.Fatal(err)
		}
		c.fails(exitFailure, []string{`"` + p + `_raid" is a periodic board`, `"` + raids.At(time.Now()).Name() + `"`}, "board", "top", p+"_raid")
		// One whose window is archived: the archive's key sorts before the
		// window's, and the hint names the window.
		hour := board.Every(time.Hour)
		done, err := hour.Window(time.Now().Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		raided, err := board.NewPeriodic(env.Client, p+"_raided", arenaLayout(t), hour, 24*time.Hour, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raided.At(done.Start).Submit(ctx, board.Submission{ID: "ann", Values: []float64{1, 0, 1}}); err != nil {
			t.Fatal(err)
		}
		if _, err := raided.Archive(ctx, done, board.ArchiveOptions{}); err != nil {
			t.Fatal(err)
		}
		c.fails(exitFailure, []string{`"` + p + `_raided" is a periodic board`, `"` + raided.At(done.Start).Name() + `"`}, "board", "top", p+"_raided")
		c.fails(exitFailure, []string{`no board named "` + p + `_none"`}, "board", "describe", p+"_none")
		c.fails(exitFailure, []string{`no timeline named "` + p + `_none"`, "an empty timeline has no key"}, "timeline", "latest", p+"_none", "--layout", "TSID")
		c.fails(exitFailure, []string{`no map named "` + p + `_none"`}, "map", "range", p+"_none")
		c.fails(exitFailure, []string{`no limiter named "` + p + `_none"`}, "limiter", "get", p+"_none", "--window", "1s")
		c.fails(exitFailure, []string{`no board named "` + room + `"`, `"` + room + `" is a timeline (tl:{` + room + `}:z)`}, "board", "top", room)
		c.fails(exitFailure, []string{`id "zed" is not on board "` + arena + `" (not found)`}, "board", "get", arena, "zed")
		c.fails(exitFailure, []string{`id "zed" is not on board`}, "board", "around", arena, "zed")
		c.fails(exitFailure, []string{"not found"}, "timeline", "get", room, tsid.TSID.Format(tsidAt(t, 99)), "--layout", "TSID")
	})
	t.Run("wrong type", func(t *testing.T) {
		c.fails(exitFailure, []string{"tb:{" + p + "_string}:meta is a Redis string, not the hash a board keeps", "(wrong type)"}, "board", "top", p+"_string")
		c.fails(exitFailure, []string{"tb:{" + p + "_string}:meta is a Redis string", "(wrong type)"}, "board", "describe", p+"_string")
		c.fails(exitFailure, []string{"tl:{" + p + "_hash}:z is a Redis hash, not the zset a timeline keeps"}, "timeline", "latest", p+"_hash", "--layout", "TSID")
		c.fails(exitFailure, []string{`timeline "` + room + `" does not hold ULID IDs stored as LexID`, "check --layout"}, "timeline", "latest", room, "--layout", "ULID")
	})
	t.Run("unreachable", func(t *testing.T) {
		r := c.exec(exec.Command(c.bin, "list", "--url", "redis://someone:s3cret@127.0.0.1:1/0"))
		if r.code != exitFailure || !strings.Contains(r.stderr, "cannot reach Redis at redis://someone:xxxxx@127.0.0.1:1/0 (--url)") {
			t.Errorf("list on a closed port: exit %d, stderr %q; want 1 and the redacted URL", r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "s3cret") {
			t.Errorf("the password is printed: %s", r.stderr)
		}
		c.fails(exitFailure, []string{"--cluster: Redis at", "is not a cluster node"}, "list", "--cluster")
	})
	t.Run("REDIS_URL", func(t *testing.T) {
		env2 := *c
		env2.env = append(withoutRedisURL(), "REDIS_URL="+c.url)
		r := env2.exec(exec.Command(c.bin, "board", "rank", arena, "bob", "--json"))
		if r.code != 0 || !strings.Contains(r.stdout, `"ordinal": 2`) {
			t.Errorf("board rank with REDIS_URL and no --url: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
}

func testUsage(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	for _, u := range []struct {
		args []string
		want string
	}{
		{nil, "no command given"},
		{[]string{"boards"}, `unknown command "boards"`},
		{[]string{"board", "tops", "x"}, `unknown command "board tops"`},
		{[]string{"board", "top"}, "want 1 argument(s) (NAME), got 0"},
		{[]string{"board", "top", "a", "b"}, "want 1 argument(s) (NAME), got 2"},
		{[]string{"board", "top", "a", "-n", "0"}, "-n 0 out of range [1, 1000]"},
		{[]string{"board", "top", "a", "--nope"}, "flag provided but not defined: -nope"},
		{[]string{"board", "top", "a{b"}, "holds a brace"},
		{[]string{"board", "get", "a", ""}, "argument 2 (ID) is empty"},
		{[]string{"board", "remove", "a", "x", "", "--dry-run"}, "argument 3 (ID) is empty"},
		{[]string{"board", "remove", "--group", "g", "", "--dry-run"}, "argument 1 is empty"},
		{[]string{"board", "remove", "", "x", "--dry-run"}, "argument 1 is empty"},
		{[]string{"board", "top", ""}, "argument 1 (NAME) is empty"},
		{[]string{"board", "scan", "a", "--cursor", "%%"}, "no board named"}, // the board is checked first
		{[]string{"list", "--kind", "boards"}, `--kind "boards", want one of board, timeline, map, limiter`},
		{[]string{"timeline", "latest", "r", "--layout", "KSUID"}, `--layout "KSUID", want one of TSID`},
		{[]string{"timeline", "before", "r", "nope", "--layout", "TSID"}, `ID "nope" is not a TSID ID`},
		{[]string{"timeline", "get", "r", "", "--layout", "TSID"}, "timeline get: the ID is empty: give one (the zero ID is 0000000000000;"},
		{[]string{"timeline", "after", "r", "", "--layout", "TSID"}, "timeline after: the ID is empty"},
		{[]string{"map", "get", "m", "abc"}, `key "abc" is not a decimal: pack: decimal "abc"`},
		{[]string{"map", "remove", "m", "abc", "--dry-run"}, `key "abc" is not a decimal`},
		{[]string{"list", "--timeout", "0s"}, "--timeout = 0s"},
		{[]string{"limiter", "get", "k", "--window", "5"}, `invalid value "5" for flag -window`}, // a number, but not a flag's value
		{[]string{"board", "top", "a", "-n", "99999999999999999999"}, `invalid value "99999999999999999999" for flag -n`},
		{[]string{"map", "remove", "m", "2.4", "--timeout", "30", "--dry-run"}, `invalid value "30" for flag -timeout`},
		{[]string{"board", "rank", "a", "x", "--data"}, "flag provided but not defined: -data"}, // a rank shows no data
		{[]string{"board", "entrant", "a", "x", "--data"}, "flag provided but not defined: -data"},
	} {
		code := exitUsage
		if strings.Contains(u.want, "no board named") {
			code = exitFailure
		}
		r := c.run(u.args...)
		if r.code != code || !strings.Contains(r.stderr, u.want) || r.stdout != "" {
			t.Errorf("tiebreak %q: exit %d, stderr %q, stdout %q; want exit %d and %q", u.args, r.code, r.stderr, r.stdout, code, u.want)
		}
	}
	// More ids than one atomic removal takes: in several runs.
	many := []string{"board", "remove", "a"}
	for i := range 1001 {
		many = append(many, fmt.Sprint("u", i))
	}
	if r := c.run(append(many, "--dry-run")...); r.code != exitUsage || !strings.Contains(r.stderr, "1001 ids, over 1000: remove them in several runs") {
		t.Errorf("board remove of 1001 ids: exit %d, stderr %q", r.code, r.stderr)
	}
	// An unknown command says which exist, in one line, not the whole help.
	for _, args := range [][]string{{"board", "erase", "x"}, {"boards"}} {
		r := c.run(args...)
		if r.code != exitUsage || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "board top") {
			t.Errorf("tiebreak %q: exit %d, stderr %q; want one line naming the commands", args, r.code, r.stderr)
		}
	}
	r := c.exec(exec.Command(c.bin, "list", "--url", "http://x"))
	if r.code != exitUsage || !strings.Contains(r.stderr, "--url: redis URL") {
		t.Errorf("a malformed URL: exit %d, stderr %q; want 2", r.code, r.stderr)
	}
	for _, args := range [][]string{{"help"}, {"help", "board", "top"}, {"board", "top", "--help"}, {"--json", "help"}, {"--help"}, {"-h"}} {
		r := c.exec(exec.Command(c.bin, args...))
		if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "usage: tiebreak") {
			t.Errorf("tiebreak %q: exit %d, stderr %q, stdout %q; want the help", args, r.code, r.stderr, r.stdout)
		}
	}
	if out := c.ok("help", "board", "top"); !strings.Contains(out, "-offset") || !strings.Contains(out, "-url URL") {
		t.Errorf("help board top does not list its flags and the global ones:\n%s", out)
	}
	// help of a group of commands lists its commands, one line each.
	if out := c.ok("help", "timeline"); strings.Count(out, "\n  timeline ") != 7 || strings.Contains(out, "board") {
		t.Errorf("help timeline lists not the 7 timeline commands alone:\n%s", out)
	}
	for _, args := range [][]string{{"help", "nope"}, {"help", "board", "nope"}} {
		if r := c.run(args...); r.code != exitUsage || !strings.Contains(r.stderr, `unknown command "`+strings.Join(args[1:], " ")+`"`) {
			t.Errorf("tiebreak %q: exit %d, stderr %q; want 2 and unknown command", args, r.code, r.stderr)
		}
	}
	// Global flags before the command, command flags before the arguments.
	if a, b := c.ok("--json", "list", "--prefix", env.Prefix), c.ok("list", "--prefix", env.Prefix, "--json"); a != b || a != "[]\n" {
		t.Errorf("--json before and after the command: %q and %q, want []", a, b)
	}
}

// testReadOnly runs every read, board migration without --resume among
// them, on data of every kind (boards plain, dense, migrating, of a group,
// hiding, with rules, sharded, periodic; a league; timelines, a map,
// limited keys) and checks that no key changed: same names, same DUMP.
func testReadOnly(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := context.Background()
	p := env.Prefix
	seedAll(t, ctx, env)
	ids := seedTimeline(t, ctx, env.Client, p+"_split", tsid.TSID, timeline.SplitScore, 40, func(i int) uint64 { return tsidAt(t, i) })
	seedLimiter(t, ctx, env.Client, p+":9", ratelimit.PerHour(5), 2) // kept the whole test: an idle key expires after its window
	// Boards of every other kind the reads know: a tournament of a group
	// that hides, a sharded board, a periodic window, a league rolled.
	one, err := pack.NewLayout(pack.Field{Name: "points", Width: 20})
	if err != nil {
		t.Fatal(err)
	}
	cup, err := board.New(ctx, env.Client, "cup", one, board.Options{Group: p + "_g", Hiding: true,
		Rules: board.Rules{End: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC), JoinRequired: true, MaxAttempts: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if err := cup.Join(ctx, "ann", "bob"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"ann", "bob"} {
		if _, err := cup.Submit(ctx, board.Submission{ID: id, Values: []float64{10}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cup.Hide(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	seedArena(t, ctx, env.Client, p+"_sharded", board.Options{Shards: 2})
	daily, err := board.NewPeriodic(env.Client, p+"_daily", arenaLayout(t), board.Daily(nil), 24*time.Hour, board.Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := daily.At(now).Submit(ctx, board.Submission{ID: "ann", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	window, err := board.Daily(nil).Window(now)
	if err != nil {
		t.Fatal(err)
	}
	origin := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	lg, err := league.New(ctx, env.Client, p+"_lg", one, board.Weekly(time.UTC).From(origin), league.Options{
		Tiers: []string{"bronze", "silver"}, CohortSize: 2, Promote: league.Zone{Count: 1}, Demote: league.Zone{Fraction: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"ann", "bob", "cyd"} {
		if _, err := lg.At(origin).Submit(ctx, board.Submission{ID: id, Values: []float64{float64(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := lg.At(origin).Roll(ctx); err != nil {
		t.Fatal(err)
	}
	before := dumpKeys(t, env, "*"+p+"*")
	id := tsid.TSID.Format(ids[20])
	for _, args := range [][]string{
		{"list", "--prefix", p},
		{"board", "describe", p + "_arena"}, {"board", "describe", p + "_narrowing"},
		{"board", "top", p + "_arena", "--data"}, {"board", "top", p + "_narrowing"},
		{"board", "get", p + "_arena", "bob"}, {"board", "rank", p + "_narrowing", "bob"},
		{"board", "around", p + "_arena", "cyd"}, {"board", "scan", p + "_arena", "-n", "1"},
		{"timeline", "latest", p + "_split", "--layout", "TSID"}, {"timeline", "around", p + "_split", id, "--layout", "TSID"},
		{"timeline", "before", p + "_split", id, "--layout", "TSID"}, {"timeline", "after", p + "_general", id, "--layout", "TSID"},
		{"map", "range", p + "_prices"}, {"map", "get", p + "_prices", "-0.5"},
		{"limiter", "get", p + ":42", "--window", "1m"}, {"limiter", "get", p + ":9", "--window", "1h", "--limit", "5"},
		{"board", "migration", p + "_narrowing"}, {"board", "migration", p + "_arena"},
		{"board", "watch", p + "_arena", "--changes", "1"}, {"board", "watch", p + "_g/cup", "--changes", "1"},
		{"board", "describe", p + "_g/cup"}, {"board", "top", p + "_g/cup"}, {"board", "hidden", p + "_g/cup"},
		{"board", "entrant", p + "_g/cup", "ann"}, {"board", "entrant", p + "_g/cup", "zed"},
		{"board", "describe", p + "_sharded"}, {"board", "rank", p + "_sharded", "bob"}, {"board", "top", p + "_sharded"},
		{"board", "around", p + "_sharded", "cyd"}, {"board", "scan", p + "_sharded"}, {"board", "migration", p + "_sharded"},
		{"board", "describe", p + "_daily:" + window.Label}, {"board", "top", p + "_daily:" + window.Label},
		{"league", "describe", p + "_lg"}, {"league", "cohorts", p + "_lg", "2026-W45"}, {"league", "member", p + "_lg", "bob"},
	} {
		c.ok(args...)
		c.ok(append(args, "--json")...)
	}
	if diff := cmp.Diff(before, dumpKeys(t, env, "*"+p+"*")); diff != "" {
		t.Errorf("keys changed by reads (-before +after):\n%s", diff)
	}
}

// dumpKeys returns what every key matching pattern holds (redistest.Dump).
func dumpKeys(t *testing.T, env *redistest.Env, pattern string) map[string]string {
	t.Helper()
	ctx := context.Background()
	keys, err := redisops.ScanKeys(ctx, env.Client, pattern)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, k := range keys {
		if out[k], err = redistest.Dump(ctx, env.Client, k); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Every board command refuses an empty name or id as a usage error: a
// board command added later without nonEmpty fails here.
func TestBoardCommandsAreNonEmpty(t *testing.T) {
	n := 0
	for _, c := range commands {
		if strings.HasPrefix(c.name, "board ") {
			n++
			if !c.nonEmpty {
				t.Errorf("%s: an empty argument is not refused (nonEmpty unset)", c.name)
			}
		}
	}
	if n < 10 {
		t.Fatalf("%d board commands: the list was not read", n)
	}
}
