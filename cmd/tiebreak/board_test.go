package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/hashtag"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// wantEntries is what the command should print for es, read through the
// package, in JSON.
func wantEntries(b reader, es []board.Entry, dense bool) []entryOut {
	out := []entryOut{}
	for _, e := range es {
		o := entryOut{ID: e.ID, Rank: e.Rank, Competition: e.Competition, Fields: map[string]float64{}}
		if dense {
			o.Dense = &e.Dense
		}
		for i, v := range e.Values {
			o.Fields[b.Layout().Field(i).Name] = v
		}
		if e.Data != nil {
			s := string(e.Data)
			o.Data = &blob{Text: &s}
		}
		out = append(out, o)
	}
	return out
}

func testBoard(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := context.Background()
	name := env.Prefix + "_arena"
	b := seedArena(t, ctx, env.Client, name, board.Options{DenseRanks: true})
	all := []board.ReadOption{board.WithRanks(board.Competition, board.Dense), board.WithData()}

	t.Run("top table", func(t *testing.T) {
		want := `RANK  COMPETITION  DENSE  ID   points  paid  time
1     1            1      ann  300     0     1795435200
2     2            2      bob  200     1     1795435201
3     2            2      dee  200     1     1795435201
4     4            3      cyd  200     0     1795435200
5     5            4      eve  100     1     1795435200

5 of 5 entries
`
		if diff := cmp.Diff(want, c.ok("board", "top", name)); diff != "" {
			t.Errorf("board top (-want +got):\n%s", diff)
		}
		want = `RANK  COMPETITION  DENSE  ID   points  paid  time        DATA
1     1            1      ann  300     0     1795435200  {"team":"red"}
2     2            2      bob  200     1     1795435201  

2 of 5 entries
`
		if diff := cmp.Diff(want, c.ok("board", "top", name, "-n", "2", "--data")); diff != "" {
			t.Errorf("board top -n 2 --data (-want +got):\n%s", diff)
		}
	})
	t.Run("top json", func(t *testing.T) {
		l, err := b.Page(ctx, 1, 3, all...)
		if err != nil {
			t.Fatal(err)
		}
		var got entriesOut
		c.json(&got, "board", "top", name, "-n", "3", "--offset", "1", "--data")
		want := entriesOut{Board: name, Total: 5, Entries: wantEntries(b, l.Entries, true)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("board top --json (-want +got):\n%s", diff)
		}
	})
	t.Run("get and around", func(t *testing.T) {
		e, err := b.Get(ctx, "cyd", all...)
		if err != nil {
			t.Fatal(err)
		}
		var got getOut
		c.json(&got, "board", "get", name, "cyd", "--data")
		if diff := cmp.Diff(getOut{Board: name, entryOut: wantEntries(b, []board.Entry{e}, true)[0]}, got, cmp.AllowUnexported(getOut{})); diff != "" {
			t.Errorf("board get --json (-want +got):\n%s", diff)
		}
		l, err := b.Around(ctx, "cyd", 3, all...)
		if err != nil {
			t.Fatal(err)
		}
		var around entriesOut
		c.json(&around, "board", "around", "-n", "3", name, "cyd", "--data")
		if diff := cmp.Diff(entriesOut{Board: name, Total: 5, Entries: wantEntries(b, l.Entries, true)}, around); diff != "" {
			t.Errorf("board around --json (-want +got):\n%s", diff)
		}
	})
	t.Run("rank", func(t *testing.T) {
		two := int64(2)
		var got rankOut
		c.json(&got, "board", "rank", name, "dee")
		want := rankOut{Board: name, ID: "dee", Ordinal: 3, Competition: 2, Dense: &two, Modified: 3, Percentile: &percentileOut{Top: 0.6, MinRank: 3, MaxRank: 3, Total: 5}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("board rank --json (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff("ordinal               3\ncompetition           2\ndense                 2\nmodified competition  3\ntop                   60% (rank 3 of 5)\n", c.ok("board", "rank", name, "dee")); diff != "" {
			t.Errorf("board rank (-want +got):\n%s", diff)
		}
	})
	t.Run("scan pages", func(t *testing.T) {
		var ids []string
		var more []bool
		cursor := ""
		for page := 0; page < 5; page++ {
			var p entriesOut
			c.json(&p, "board", "scan", name, "-n", "2", "--cursor", cursor)
			for _, e := range p.Entries {
				ids = append(ids, e.ID)
			}
			more = append(more, *p.HasMore)
			if !*p.HasMore {
				break
			}
			cursor = p.Next
		}
		if diff := cmp.Diff([]string{"ann", "bob", "dee", "cyd", "eve"}, ids); diff != "" {
			t.Errorf("ids over the scan's pages (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]bool{true, true, false}, more); diff != "" {
			t.Errorf("hasMore of each page (-want +got):\n%s", diff)
		}
		out := c.ok("board", "scan", name, "-n", "4")
		if !strings.Contains(out, "next page: tiebreak board scan "+name+" --cursor ") {
			t.Errorf("board scan -n 4 does not say how to read the next page:\n%s", out)
		}
	})
	t.Run("key suffix without dense ranks", func(t *testing.T) {
		ks := seedArena(t, ctx, env.Client, env.Prefix+"_suffix", board.Options{Strategy: board.KeySuffix})
		l, err := ks.Top(ctx, 5, board.WithRanks(board.Competition))
		if err != nil {
			t.Fatal(err)
		}
		var got entriesOut
		c.json(&got, "board", "top", ks.Name())
		if diff := cmp.Diff(entriesOut{Board: ks.Name(), Total: 5, Entries: wantEntries(ks, l.Entries, false)}, got); diff != "" {
			t.Errorf("board top --json of a key-suffix board (-want +got):\n%s", diff)
		}
		if out := c.ok("board", "top", ks.Name(), "-n", "1"); !strings.HasPrefix(out, "RANK  COMPETITION  ID   points") {
			t.Errorf("board top of a board without dense ranks shows:\n%s", out)
		}
	})
}

func testDescribe(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := context.Background()
	arena := seedArena(t, ctx, env.Client, env.Prefix+"_arena", board.Options{DenseRanks: true})

	t.Run("live", func(t *testing.T) {
		d := storedOf(t, env.Client, "tb:{"+arena.Name()+"}:meta")
		var got description
		c.json(&got, "board", "describe", arena.Name())
		slot := hashtag.Slot(arena.Name())
		want := description{Name: arena.Name(), Key: "tb:{" + arena.Name() + "}:meta", Descriptor: &d,
			State: "live", EntriesKey: "tb:{" + arena.Name() + "}:z", Entries: 5,
			Slots: []slotOut{{Object: arena.Name(), HashTag: arena.Name(), Slot: slot}}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("board describe --json (-want +got):\n%s", diff)
		}
		raw, _ := json.Marshal(d)
		wantTable := "board            " + arena.Name() + "\n" +
			"key              tb:{" + arena.Name() + "}:meta\n" +
			"fields           points:20, paid:1, time:32/lower (widths in bits; /lower: lower is better)\n" +
			"strategy         PackedScore\n" +
			"cap              none\n" +
			"dense ranks      true\n" +
			"generation       0 (entries in tb:{" + arena.Name() + "}:z)\n" +
			"state            live\n" +
			"entries          5\n" +
			"slot             " + itoa(int64(slot)) + " (hash tag {" + arena.Name() + "})\n" +
			"slot statistics  not offered by this server\n" +
			"descriptor       " + string(raw) + "\n"
		if diff := cmp.Diff(wantTable, c.ok("board", "describe", arena.Name())); diff != "" {
			t.Errorf("board describe (-want +got):\n%s", diff)
		}
	})
	t.Run("migrating", func(t *testing.T) {
		name := env.Prefix + "_narrowing"
		seedMigrating(t, ctx, env.Client, name)
		var got description
		c.json(&got, "board", "describe", name)
		p := "tb:{" + name + "}:"
		target := storedDescriptor{Version: 1, Radix: 2, Strategy: "PackedScore", Fields: []storedField{
			{Name: "points", Width: 8, Dir: "HigherIsBetter"}, {Name: "paid", Width: 1, Dir: "HigherIsBetter"},
			{Name: "time", Width: 32, Dir: "LowerIsBetter"}}}
		d := storedOf(t, env.Client, "tb:{"+arena.Name()+"}:meta")
		d.DenseRanks = false
		want := description{Name: name, Key: p + "meta", Descriptor: &d, Generation: 1, State: "migrating",
			EntriesKey: p + "g1:z", Entries: 5, Migration: &migration{Target: &target, Generation: 2,
				EntriesKey: p + "g2:z", Copied: 4, Misfits: 1, MisfitsKey: p + "g1:x"},
			Slots: []slotOut{{Object: name, HashTag: name, Slot: hashtag.Slot(name)}}}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(migration{}, "Position")); diff != "" {
			t.Errorf("board describe --json of a migrating board (-want +got):\n%s", diff)
		}
		out := c.ok("board", "describe", name)
		for _, line := range []string{
			"state               migrating\n",
			"target fields       points:8, paid:1, time:32/lower (widths in bits; /lower: lower is better)\n",
			"misfits             1 entry not fitting the target (ids in " + p + "g1:x)",
		} {
			if !strings.Contains(out, line) {
				t.Errorf("board describe of a migrating board lacks %q:\n%s", line, out)
			}
		}
	})
	t.Run("group", func(t *testing.T) {
		group := env.Prefix + "_season"
		b := seedArena(t, ctx, env.Client, "kills", board.Options{Group: group})
		d := storedOf(t, env.Client, "tb:{"+group+"}:{kills}:meta")
		var got description
		c.json(&got, "board", "describe", "kills", "--group", group)
		p := "tb:{" + group + "}:{kills}:"
		want := description{Name: "kills", Group: group, Key: p + "meta", Descriptor: &d, State: "live", EntriesKey: p + "z", Entries: 5,
			Slots: []slotOut{{Object: group + "/kills", HashTag: group, Slot: hashtag.Slot(group)}}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("board describe --group --json (-want +got):\n%s", diff)
		}
		l, err := b.Top(ctx, 10, board.WithRanks(board.Competition))
		if err != nil {
			t.Fatal(err)
		}
		var top entriesOut
		c.json(&top, "board", "top", "kills", "--group", group)
		if diff := cmp.Diff(entriesOut{Board: group + "/kills", Total: 5, Entries: wantEntries(b, l.Entries, false)}, top); diff != "" {
			t.Errorf("board top --group --json (-want +got):\n%s", diff)
		}
		var spelled entriesOut // GROUP/NAME with the same --group: the same board
		c.json(&spelled, "board", "top", group+"/kills", "--group", group)
		if diff := cmp.Diff(top, spelled); diff != "" {
			t.Errorf("board top GROUP/NAME --group GROUP --json (-NAME --group +GROUP/NAME --group):\n%s", diff)
		}
	})
	t.Run("periodic window", func(t *testing.T) {
		l := arenaLayout(t)
		p, err := board.NewPeriodic(env.Client, env.Prefix+"_daily", l, board.Daily(nil), 0, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w := p.At(time.Now())
		if _, err := w.Submit(ctx, board.Submission{ID: "ann", Values: []float64{1, 0, 2}}); err != nil {
			t.Fatal(err)
		}
		var got description
		c.json(&got, "board", "describe", w.Name())
		ttl, err := env.Client.Do(ctx, env.Client.B().Pexpiretime().Key("tb:{"+w.Name()+"}:z").Build()).AsInt64()
		if err != nil {
			t.Fatal(err)
		}
		if want := stamp(time.UnixMilli(ttl)); got.ExpireAt != want || got.Entries != 1 {
			t.Errorf("window %s: expireAt %q and %d entries, want %q and 1", w.Name(), got.ExpireAt, got.Entries, want)
		}
	})
	t.Run("id lookup gone", func(t *testing.T) {
		b := seedArena(t, ctx, env.Client, env.Prefix+"_lookup", board.Options{Strategy: board.KeySuffix})
		lookup := "tb:{" + b.Name() + "}:i"
		c.ok("board", "describe", b.Name()) // whole: not damaged
		if err := env.Client.Do(ctx, env.Client.B().Del().Key(lookup).Build()).Error(); err != nil {
			t.Fatal(err)
		}
		r := c.run("board", "describe", b.Name())
		if r.code != exitFailure || !strings.Contains(r.stdout, "damaged") || !strings.Contains(r.stderr, "id lookup "+lookup+" is gone") {
			t.Errorf("describe of a key-suffix board without its id lookup: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("id lookup gone, every entry hidden", func(t *testing.T) {
		b := seedArena(t, ctx, env.Client, env.Prefix+"_lookuphid", board.Options{Strategy: board.KeySuffix, Hiding: true})
		if _, err := b.Hide(ctx, "ann", "bob", "cyd", "dee", "eve"); err != nil {
			t.Fatal(err)
		}
		lookup := "tb:{" + b.Name() + "}:i"
		c.ok("board", "describe", b.Name()) // whole: not damaged
		if err := env.Client.Do(ctx, env.Client.B().Del().Key(lookup).Build()).Error(); err != nil {
			t.Fatal(err)
		}
		r := c.run("board", "describe", b.Name())
		if r.code != exitFailure || !strings.Contains(r.stderr, "id lookup "+lookup+" is gone") || !strings.Contains(r.stderr, "5 entries hidden") {
			t.Errorf("describe of a key-suffix board without its id lookup, its entries hidden: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("eviction policy", func(t *testing.T) {
		srv, client := redistest.Private(t, "--maxmemory-policy", "allkeys-lru")
		seedArena(t, ctx, client, "arena", board.Options{})
		pc := &cli{t: t, bin: bin, url: "redis://" + srv.Addr, env: withoutRedisURL()}
		var got description
		pc.json(&got, "board", "describe", "arena")
		if got.Eviction != "allkeys-lru" {
			t.Errorf("describe on a server with maxmemory-policy allkeys-lru: eviction %q", got.Eviction)
		}
		if out := pc.ok("board", "describe", "arena"); !strings.Contains(out, "maxmemory-policy allkeys-lru") {
			t.Errorf("describe on a server that evicts says nothing of it:\n%s", out)
		}
		if out := c.ok("board", "describe", arena.Name()); strings.Contains(out, "eviction") {
			t.Errorf("describe on a server with noeviction warns of eviction:\n%s", out)
		}
	})
	t.Run("damaged descriptor", func(t *testing.T) {
		name := env.Prefix + "_damaged"
		b := seedArena(t, ctx, env.Client, name, board.Options{})
		meta := "tb:{" + b.Name() + "}:meta"
		desc, err := env.Client.Do(ctx, env.Client.B().Hget().Key(meta).Field("desc").Build()).ToString()
		if err != nil {
			t.Fatal(err)
		}
		bad := strings.Replace(desc, `"version":1`, `"version":99`, 1)
		if err := env.Client.Do(ctx, env.Client.B().Hset().Key(meta).FieldValue().FieldValue("desc", bad).Build()).Error(); err != nil {
			t.Fatal(err)
		}
		r := c.run("board", "describe", name)
		if r.code != exitFailure || !strings.Contains(r.stdout, "damaged") || !strings.Contains(r.stderr, "version 99") {
			t.Errorf("describe of a board whose descriptor has version 99: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("archive", func(t *testing.T) {
		p, err := board.NewPeriodic(env.Client, env.Prefix+"_weekly", arenaLayout(t), board.Weekly(nil), 30*24*time.Hour, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		last := time.Now().Add(-7 * 24 * time.Hour)
		for i, id := range []string{"ann", "bob"} {
			if _, err := p.At(last).Submit(ctx, board.Submission{ID: id, Values: []float64{float64(i), 0, 2}}); err != nil {
				t.Fatal(err)
			}
		}
		w, err := board.Weekly(nil).Window(last)
		if err != nil {
			t.Fatal(err)
		}
		a, err := p.Archive(ctx, w, board.ArchiveOptions{Top: 1, Retention: 30 * 24 * time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		var got description
		c.json(&got, "board", "describe", a.Name())
		made := "Top 1, kept 720h0m0s past the window's end, of [" + w.Start.UTC().Format(time.RFC3339) + ", " + w.End.UTC().Format(time.RFC3339) + ")"
		want := &archiveOut{State: "done", Options: made}
		if diff := cmp.Diff(want, got.Archive); diff != "" || got.ExpireAt == "" || got.Entries != 1 {
			t.Errorf("archive %s: expireAt %q, %d entries, archive (-want +got):\n%s", a.Name(), got.ExpireAt, got.Entries, diff)
		}
		out := regexp.MustCompile(`  +`).ReplaceAllString(c.ok("board", "describe", a.Name()), " ")
		for _, line := range []string{"archive the final standings of a window, made: " + made + "\n", " (an archive)\n"} {
			if !strings.Contains(out, line) {
				t.Errorf("describe of an archive lacks %q:\n%s", line, out)
			}
		}
		list := c.ok("list", "--prefix", env.Prefix+"_weekly:")
		if !strings.Contains(list, "archive expiring") || !strings.Contains(list, "window expiring") {
			t.Errorf("list of a window and its archive does not tell them apart:\n%s", list)
		}
	})
	t.Run("sharded", func(t *testing.T) {
		sname := env.Prefix + "_sharded"
		sb, err := board.New(ctx, env.Client, sname, arenaLayout(t), board.Options{Shards: 3})
		if err != nil {
			t.Fatal(err)
		}
		b := seedArena(t, ctx, env.Client, env.Prefix+"_unsharded", board.Options{})
		l, err := b.Page(ctx, 0, 10, board.WithData())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range l.Entries {
			if _, err := sb.Submit(ctx, board.Submission{ID: e.ID, Values: e.Values, Data: e.Data}); err != nil {
				t.Fatal(err)
			}
		}
		want, err := sb.Page(ctx, 1, 3, board.WithRanks(board.Competition), board.WithData())
		if err != nil {
			t.Fatal(err)
		}
		var top entriesOut
		c.json(&top, "board", "top", sname, "-n", "3", "--offset", "1", "--data")
		if diff := cmp.Diff(entriesOut{Board: sname, Total: 5, Entries: wantEntries(sb, want.Entries, false)}, top); diff != "" {
			t.Errorf("board top of a sharded board (-want +got):\n%s", diff)
		}
		var rank rankOut
		c.json(&rank, "board", "rank", sname, "dee")
		// Another shard holds an entry in the bucket of dee's score: the
		// rank is known within [2, 3].
		pct := &percentileOut{Top: 0.5, Error: 0.1, MinRank: 2, MaxRank: 3, Total: 5}
		if diff := cmp.Diff(rankOut{Board: sname, ID: "dee", Ordinal: 3, Competition: 2, Modified: 3, Percentile: pct}, rank); diff != "" {
			t.Errorf("board rank of a sharded board (-want +got):\n%s", diff)
		}
		if out := c.ok("board", "rank", sname, "dee"); !strings.Contains(out, "top                   50% ± 10% (rank 2 to 3 of 5)") {
			t.Errorf("board rank of a sharded board:\n%s", out)
		}
		var d description
		c.json(&d, "board", "describe", sname)
		if d.Entries != 5 || d.Descriptor.Shards != 3 || len(d.Descriptor.ShardNames) != 3 {
			t.Errorf("board describe of a sharded board: %d entries, %d shards %q; want 5 entries over 3 shards", d.Entries, d.Descriptor.Shards, d.Descriptor.ShardNames)
		}
		if out := c.ok("list"); !strings.Contains(out, "sharded over 3 boards") {
			t.Errorf("list does not say the board is sharded:\n%s", out)
		}
		// One slot for the board's own keys, one for each shard.
		wantSlots := []slotOut{{Object: sname, HashTag: sname, Slot: hashtag.Slot(sname)}}
		for _, s := range d.Descriptor.ShardNames {
			wantSlots = append(wantSlots, slotOut{Object: s, HashTag: s, Slot: hashtag.Slot(s)})
		}
		if diff := cmp.Diff(wantSlots, d.Slots); diff != "" || d.SlotStats {
			t.Errorf("board describe of a sharded board: slots (-want +got):\n%s\nslot statistics offered: %v, want not", diff, d.SlotStats)
		}
		out := c.ok("board", "describe", sname)
		if !strings.Contains(out, "shards") {
			t.Errorf("board describe of a sharded board does not name its shards:\n%s", out)
		}
		for _, s := range wantSlots[1:] {
			line := regexp.MustCompile(`\nslot of ` + regexp.QuoteMeta(s.Object) + ` +` + itoa(int64(s.Slot)) + ` \(hash tag \{` + regexp.QuoteMeta(s.Object) + `\}\)\n`)
			if !line.MatchString(out) {
				t.Errorf("board describe of a sharded board lacks the slot of %s, %d:\n%s", s.Object, s.Slot, out)
			}
		}
	})
}

// storedOf reads the descriptor stored in the meta HASH key.
func storedOf(t *testing.T, client rueidis.Client, key string) storedDescriptor {
	t.Helper()
	s, err := client.Do(t.Context(), client.B().Hget().Key(key).Field("desc").Build()).ToString()
	if err != nil {
		t.Fatal(err)
	}
	var d storedDescriptor
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		t.Fatal(err)
	}
	return d
}
