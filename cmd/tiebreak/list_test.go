package main

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/hashtag"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// seedAll writes one object of every kind, names starting with prefix,
// and returns what list should find.
func seedAll(t *testing.T, ctx context.Context, env *redistest.Env) []object {
	t.Helper()
	c, p := env.Client, env.Prefix
	seedArena(t, ctx, c, p+"_arena", board.Options{DenseRanks: true})
	seedArena(t, ctx, c, "kills", board.Options{Group: p + "_season"})
	seedMigrating(t, ctx, c, p+"_narrowing")
	// Keys under tb: that name no board: entries with no descriptor, and
	// a key whose braces do not read.
	if err := c.Do(ctx, c.B().Zadd().Key("tb:{"+p+"_stray}:z").ScoreMember().ScoreMember(-1, "ann").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	if err := c.Do(ctx, c.B().Set().Key("tb:{"+p+"_odd").Value("x").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	seedTimeline(t, ctx, c, p+"_general", tsid.TSID, timeline.LexID, 30, func(i int) uint64 { return tsidAt(t, i) })
	seedMap(t, ctx, c, p+"_prices")
	seedLimiter(t, ctx, c, p+":42", ratelimit.PerMinute(10), 3)
	eight := int64(8)
	// Each object's slot is its hash tag's; a key whose braces do not
	// read hashes whole.
	slot := hashtag.Slot
	return []object{
		{Kind: "board", Name: p + "_arena", Key: "tb:{" + p + "_arena}:meta", Slot: slot(p + "_arena"), Size: 5, Unit: "entries", Detail: "PackedScore"},
		{Kind: "board", Name: p + "_narrowing", Key: "tb:{" + p + "_narrowing}:meta", Slot: slot(p + "_narrowing"), Size: 5, Unit: "entries", Detail: "PackedScore, migrating"},
		{Kind: "board", Name: p + "_stray", Key: "tb:{" + p + "_stray}:z", Slot: slot(p + "_stray"), Size: 1, Unit: "entries", Detail: notBoard},
		{Kind: "board", Name: "{" + p + "_odd", Key: "tb:{" + p + "_odd", Slot: slot("tb:{" + p + "_odd"), Size: 0, Unit: "entries", Detail: notBoard},
		{Kind: "board", Name: "kills", Group: p + "_season", Key: "tb:{" + p + "_season}:{kills}:meta", Slot: slot(p + "_season"), Size: 5, Unit: "entries", Detail: "PackedScore"},
		{Kind: "timeline", Name: p + "_general", Key: "tl:{" + p + "_general}:z", Slot: slot(p + "_general"), Size: 30, Unit: "messages"},
		{Kind: "map", Name: p + "_prices", Key: "dm:{" + p + "_prices}:k", Slot: slot(p + "_prices"), Size: 6, Unit: "keys", Values: &eight, Detail: "8 values"},
		{Kind: "limiter", Name: p + ":42", Key: "rl:{" + p + ":42}", Slot: slot(p + ":42"), Size: 3, Unit: "requests", Detail: "expires in"},
	}
}

// notBoard is list's detail of keys under tb: that name no board.
const notBoard = "not understood: no descriptor (meta HASH), so not a board"

// cutDetail keeps the words of a limiter's detail that do not change
// from run to run.
func cutDetail(objs []object) {
	for i := range objs {
		if objs[i].Kind == kindLimiter {
			objs[i].Detail, _, _ = strings.Cut(objs[i].Detail, " 1m") // "expires in 1m59.9s"
			objs[i].Detail, _, _ = strings.Cut(objs[i].Detail, " 2m")
		}
	}
}

func testList(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	want := seedAll(t, context.Background(), env)
	ignore := cmpopts.IgnoreUnexported(object{})

	t.Run("json", func(t *testing.T) {
		var got []object
		c.json(&got, "list", "--prefix", env.Prefix)
		cutDetail(got)
		if diff := cmp.Diff(want, got, ignore); diff != "" {
			t.Errorf("list --json (-want +got):\n%s", diff)
		}
	})
	t.Run("kind", func(t *testing.T) {
		var got []object
		c.json(&got, "list", "--kind", "map", "--prefix", env.Prefix)
		if diff := cmp.Diff(want[6:7], got, ignore); diff != "" {
			t.Errorf("list --kind map --json (-want +got):\n%s", diff)
		}
		var none []object
		c.json(&none, "list", "--prefix", env.Prefix+"_nothing")
		if none == nil || len(none) != 0 {
			t.Errorf("list of nothing --json = %#v, want []", none)
		}
	})
	t.Run("grouped prefix", func(t *testing.T) {
		// A prefix spelled as a grouped board is listed: GROUP/NAME.
		for _, prefix := range []string{env.Prefix + "_season/", env.Prefix + "_season/ki", env.Prefix + "_season/kills"} {
			var got []object
			c.json(&got, "list", "--prefix", prefix)
			if diff := cmp.Diff(want[4:5], got, ignore); diff != "" {
				t.Errorf("list --prefix %s --json (-want +got):\n%s", prefix, diff)
			}
		}
		for _, prefix := range []string{env.Prefix + "_season/x", env.Prefix + "_seaso/kills", env.Prefix + "_arena/"} {
			var none []object
			c.json(&none, "list", "--prefix", prefix)
			if len(none) != 0 {
				t.Errorf("list --prefix %s --json = %#v, want []", prefix, none)
			}
		}
	})
	t.Run("name with a newline", func(t *testing.T) {
		room := "nl_" + env.Prefix + "\nroom" // listed apart from the objects above
		seedTimeline(t, context.Background(), env.Client, room, tsid.TSID, timeline.LexID, 2, func(i int) uint64 { return tsidAt(t, i) })
		out := c.ok("list", "--prefix", "nl_"+env.Prefix)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 2 || !strings.Contains(lines[1], strconv.Quote(room)) {
			t.Errorf("list of a room named %q prints, want a header and one row naming it quoted:\n%s", room, out)
		}
	})
	t.Run("table", func(t *testing.T) {
		out := c.ok("list", "--prefix", env.Prefix)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != len(want)+1 || strings.Join(strings.Fields(lines[0]), " ") != "KIND NAME SIZE KEY DETAIL" {
			t.Fatalf("list prints %d lines, want a header and %d rows:\n%s", len(lines), len(want), out)
		}
		for i, o := range want {
			name := o.Name
			if o.Group != "" {
				name = o.Group + "/" + o.Name
			}
			f := strings.Fields(lines[i+1])
			if got, want := strings.Join(f[:5], " "), strings.Join([]string{o.Kind, name, count(o.Size, o.Unit), o.Key}, " "); got != want {
				t.Errorf("list row %d: %q, want %s", i, lines[i+1], want)
			}
		}
	})
}
