package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// writeCase runs a writing command three ways: without --yes (exit 2,
// nothing changed), with --dry-run (dry, the answer, nothing changed)
// and with --yes (the answer; then only the keys dry names may differ).
type writeCase struct {
	t    *testing.T
	c    *cli
	env  *redistest.Env
	args []string
}

// decode reads a changeOut strictly.
func decodeChange(t *testing.T, out string) changeOut {
	t.Helper()
	var got changeOut
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return got
}

// refused checks that the command without --yes exits 2 and changes
// nothing.
func (w writeCase) refused() {
	w.t.Helper()
	p := w.env.Prefix
	before := dumpKeys(w.t, w.env, "*"+p+"*")
	w.c.fails(exitUsage, []string{"writes", "add --yes to do it, or --dry-run"}, w.args...)
	if diff := cmp.Diff(before, dumpKeys(w.t, w.env, "*"+p+"*")); diff != "" {
		w.t.Errorf("without --yes, keys changed (-before +after):\n%s", diff)
	}
}

// dry runs it with --dry-run, checks that nothing changed and that it
// prints want (as JSON, DryRun set), and returns its table output.
func (w writeCase) dry(want changeOut) string {
	w.t.Helper()
	w.refused()
	p := w.env.Prefix
	before := dumpKeys(w.t, w.env, "*"+p+"*")
	got := decodeChange(w.t, w.c.ok(append(w.args, "--dry-run", "--json")...))
	want.DryRun = true
	if diff := cmp.Diff(want, got); diff != "" {
		w.t.Errorf("%q --dry-run (-want +got):\n%s", w.args, diff)
	}
	table := w.c.ok(append(w.args, "--dry-run")...)
	if !strings.Contains(table, "dry run: ") || !strings.Contains(table, "nothing changed") {
		w.t.Errorf("%q --dry-run: no dry-run note:\n%s", w.args, table)
	}
	if diff := cmp.Diff(before, dumpKeys(w.t, w.env, "*"+p+"*")); diff != "" {
		w.t.Errorf("--dry-run changed keys (-before +after):\n%s", diff)
	}
	return table
}

// real runs it with --yes and checks that it prints want and that every
// key but want.Keys is as it was; it returns the keys before and after.
func (w writeCase) real(want changeOut) (before, after map[string]string) {
	w.t.Helper()
	p := w.env.Prefix
	before = dumpKeys(w.t, w.env, "*"+p+"*")
	got := decodeChange(w.t, w.c.ok(append(w.args, "--yes", "--json")...))
	if diff := cmp.Diff(want, got); diff != "" {
		w.t.Errorf("%q --yes (-want +got):\n%s", w.args, diff)
	}
	after = dumpKeys(w.t, w.env, "*"+p+"*")
	others := func(m map[string]string) map[string]string {
		o := map[string]string{}
		for k, v := range m {
			if !slices.Contains(want.Keys, k) {
				o[k] = v
			}
		}
		return o
	}
	if diff := cmp.Diff(others(before), others(after)); diff != "" {
		w.t.Errorf("%q --yes changed keys it does not name (-before +after):\n%s", w.args, diff)
	}
	return before, after
}

// bestOf is what a command that removes or copies b's entries lists of
// them: the best n, with every rank kind b keeps and their data, as the
// library reads them, and their ids.
func bestOf(t *testing.T, b *board.Board, n int) ([]entryOut, []string) {
	t.Helper()
	kinds := []board.RankKind{board.Competition}
	dense := b.Options().DenseRanks
	if dense {
		kinds = append(kinds, board.Dense)
	}
	l, err := b.Top(t.Context(), n, board.WithRanks(kinds...), board.WithData())
	if err != nil {
		t.Fatal(err)
	}
	return wantEntries(b, l.Entries, dense), entryIDs(l.Entries)
}

func testWrite(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := context.Background()
	p := env.Prefix
	seedAll(t, ctx, env)
	other := seedArena(t, ctx, env.Client, p+"_other", board.Options{})

	t.Run("board remove", func(t *testing.T) {
		name := p + "_rm"
		b := seedArena(t, ctx, env.Client, name, board.Options{DenseRanks: true})
		w := writeCase{t, c, env, []string{"board", "remove", name, "ann", "zed", "cyd"}}
		keys := []string{"tb:{" + name + "}:c", "tb:{" + name + "}:d", "tb:{" + name + "}:v", "tb:{" + name + "}:z"}
		l, _ := b.Among(ctx, []string{"ann", "cyd"}, board.WithData(), board.WithRanks(board.Competition, board.Dense))
		want := changeOut{Command: "board remove", Object: name, Keys: keys, Count: 2, Affected: []string{"ann", "cyd"}, Entries: wantEntries(b, l.Entries, true)}
		table := w.dry(want)
		wantTable := `RANK  COMPETITION  DENSE  ID   points  paid  time        DATA
1     1            1      ann  300     0     1795435200  {"team":"red"}
4     4            3      cyd  200     0     1795435200  

dry run: board remove would remove 2 entries of the 3 given from board ` + name + `; nothing changed
keys: ` + strings.Join(keys, " ") + "\n"
		if diff := cmp.Diff(wantTable, table); diff != "" {
			t.Errorf("dry-run table (-want +got):\n%s", diff)
		}
		want.DryRun = false
		w.real(want)
		if n, _ := b.Len(ctx); n != 3 {
			t.Errorf("after remove: %d entries, want 3", n)
		}
		if l, _ := b.Among(ctx, []string{"ann", "cyd", "bob"}); len(l.Entries) != 1 || l.Entries[0].ID != "bob" {
			t.Errorf("after remove: %+v, want bob only", l.Entries)
		}
		if n, _ := other.Len(ctx); n != 5 {
			t.Errorf("the other board has %d entries, want 5", n)
		}
		// bob has no member data: the data HASH is not among the keys.
		w = writeCase{t, c, env, []string{"board", "remove", name, "bob"}}
		l, _ = b.Among(ctx, []string{"bob"}, board.WithData(), board.WithRanks(board.Competition, board.Dense))
		want = changeOut{Command: "board remove", Object: name, Keys: []string{keys[0], keys[2], keys[3]}, Count: 1, Affected: []string{"bob"}, Entries: wantEntries(b, l.Entries, true)}
		w.dry(want)
		want.DryRun = false
		w.real(want)
	})

	t.Run("board drop sharded", func(t *testing.T) {
		name := p + "_sharded"
		sb, err := board.New(ctx, env.Client, name, arenaLayout(t), board.Options{Shards: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"a", "b", "c", "d"} {
			if _, err := sb.Submit(ctx, board.Submission{ID: id, Values: []float64{1, 0, 1}}); err != nil {
				t.Fatal(err)
			}
		}
		all := dumpKeys(t, env, "*"+name+"*")
		var keys []string
		for k := range all {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		w := writeCase{t, c, env, []string{"board", "drop", name}}
		want := changeOut{Command: "board drop", Object: name, Keys: keys, Count: 4}
		want.Entries, want.Affected = bestOf(t, sb, 10)
		w.dry(want)
		want.DryRun = false
		_, after := w.real(want)
		for _, k := range keys {
			if _, ok := after[k]; ok {
				t.Errorf("key %s left after drop", k)
			}
		}
	})

	t.Run("board drop plain, grouped, window, archive", func(t *testing.T) {
		// The keys of the board whose keys start with prefix, sorted.
		keysOf := func(prefix string) []string {
			var keys []string
			for k := range dumpKeys(t, env, globEscape(prefix)+"*") {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			return keys
		}
		drop := func(spelled, prefix string, entries int64) {
			t.Helper()
			keys := keysOf(prefix)
			if len(keys) < 2 {
				t.Fatalf("board %s has the keys %q, want its meta HASH and entries", spelled, keys)
			}
			w := writeCase{t, c, env, []string{"board", "drop", spelled}}
			want := changeOut{Command: "board drop", Object: spelled, Keys: keys, Count: entries}
			b, err := board.Open(ctx, env.Client, spelled, board.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want.Entries, want.Affected = bestOf(t, b, 10)
			w.dry(want)
			want.DryRun = false
			if _, after := w.real(want); len(keysOf(prefix)) != 0 {
				t.Errorf("board drop %s left keys: %v", spelled, after)
			}
		}
		plain := p + "_plain"
		seedArena(t, ctx, env.Client, plain, board.Options{DenseRanks: true})
		drop(plain, "tb:{"+plain+"}:", 5)

		// A board of a group, spelled as list prints it; its neighbour in
		// the group stays.
		group := p + "_dropgrp"
		seedArena(t, ctx, env.Client, "gone", board.Options{Group: group})
		kept := seedArena(t, ctx, env.Client, "kept", board.Options{Group: group})
		drop(group+"/gone", "tb:{"+group+"}:{gone}:", 5)
		if n, _ := kept.Len(ctx); n != 5 {
			t.Errorf("the other board of the group holds %d entries, want 5", n)
		}

		// A periodic board's window of yesterday, and its archive.
		name := p + "_days"
		pd, err := board.NewPeriodic(env.Client, name, arenaLayout(t), board.Daily(nil), 30*24*time.Hour, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		yesterday := time.Now().Add(-24 * time.Hour)
		for i, id := range []string{"x", "y", "z"} {
			if _, err := pd.At(yesterday).Submit(ctx, board.Submission{ID: id, Values: []float64{float64(i), 0, 1}}); err != nil {
				t.Fatal(err)
			}
		}
		wd, err := board.Daily(nil).Window(yesterday)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pd.Archive(ctx, wd, board.ArchiveOptions{Top: 2}); err != nil {
			t.Fatal(err)
		}
		window := name + ":" + wd.Label
		drop(window+":final", "tb:{"+window+":final}:", 2)
		drop(window, "tb:{"+window+"}:", 3)
	})

	t.Run("board drop --windows", func(t *testing.T) {
		dropWindows := func(t *testing.T, group, name string) {
			opts := board.Options{Group: group}
			pd, err := board.NewPeriodic(env.Client, name, arenaLayout(t), board.Daily(nil), 30*24*time.Hour, opts)
			if err != nil {
				t.Fatal(err)
			}
			spelled, tag := name, "tb:{"
			if group != "" {
				spelled, tag = group+"/"+name, "tb:{"+group+"}:{"
			}
			days := []time.Time{time.Now().Add(-48 * time.Hour), time.Now().Add(-24 * time.Hour)}
			for d, at := range days {
				for i, id := range []string{"x", "y", "z"}[:2+d] {
					if _, err := pd.At(at).Submit(ctx, board.Submission{ID: id, Values: []float64{float64(i), 0, 1}}); err != nil {
						t.Fatal(err)
					}
				}
			}
			w0, _ := board.Daily(nil).Window(days[0])
			if _, err := pd.Archive(ctx, w0, board.ArchiveOptions{}); err != nil {
				t.Fatal(err)
			}
			// A board whose name only starts as the windows' do stays.
			other := seedArena(t, ctx, env.Client, name+":notes", opts)
			// So does another periodic board whose name starts so.
			raid, err := board.NewPeriodic(env.Client, name+":raid", arenaLayout(t), board.Daily(nil), 30*24*time.Hour, opts)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raid.At(days[0]).Submit(ctx, board.Submission{ID: "r", Values: []float64{1, 0, 1}}); err != nil {
				t.Fatal(err)
			}

			want := changeOut{Command: "board drop", Object: spelled, Count: 2 + 3 + 2, Boards: map[string][]string{}}
			for _, b := range []string{name + ":" + w0.Label, name + ":" + w0.Label + ":final", name + ":" + pd.At(days[1]).Name()[len(name)+1:]} {
				var keys []string
				for k := range dumpKeys(t, env, globEscape(tag+b+"}:")+"*") {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				if len(keys) < 2 {
					t.Fatalf("window %s has the keys %q", b, keys)
				}
				// Each window is named as every command takes it: group/name.
				shown := strings.TrimSuffix(spelled, name) + b
				want.Boards[shown] = keys
				want.Keys = append(want.Keys, keys...)
				want.Affected = append(want.Affected, shown)
			}
			slices.Sort(want.Keys)
			slices.Sort(want.Affected)
			w := writeCase{t, c, env, []string{"board", "drop", spelled, "--windows"}}
			// -n lists one board's entries: with --windows it is refused.
			c.fails(exitUsage, []string{"-n lists a board's entries"}, "board", "drop", spelled, "--windows", "-n", "1", "--dry-run")
			if table := w.dry(want); !strings.Contains(table, "would remove the 3 windows and archives of periodic board "+spelled+": 7 entries") {
				t.Errorf("board drop --windows --dry-run:\n%s", table)
			}
			want.DryRun = false
			if _, after := w.real(want); len(after) == 0 {
				t.Error("no key left: the other board is gone too")
			}
			if n, err := other.Len(ctx); err != nil || n != 5 {
				t.Errorf("the other board holds %d entries (%v), want 5", n, err)
			}
			if n, err := raid.At(days[0]).Len(ctx); err != nil || n != 1 {
				t.Errorf("the other periodic board's window holds %d entries (%v), want 1", n, err)
			}
			for _, at := range days {
				if n, _ := pd.At(at).Len(ctx); n != 0 {
					t.Errorf("window %s holds %d entries after the drop", pd.At(at).Name(), n)
				}
			}
			c.fails(exitFailure, []string{"has no window or archive"}, "board", "drop", spelled, "--windows", "--yes")
		}
		t.Run("plain", func(t *testing.T) { dropWindows(t, "", p+"_fam") })
		t.Run("grouped", func(t *testing.T) { dropWindows(t, p+"_famgrp", "fam") })
	})

	t.Run("board archive", func(t *testing.T) {
		name := p + "_daily"
		pd, err := board.NewPeriodic(env.Client, name, arenaLayout(t), board.Daily(nil), 30*24*time.Hour, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range []string{"x", "y", "z"} {
			if _, err := pd.At(noon).Submit(ctx, board.Submission{ID: id, Values: []float64{float64(i), 0, 1}}); err != nil {
				t.Fatal(err)
			}
		}
		final := name + ":2026-11-23:final"
		pre := "tb:{" + final + "}:"
		w := writeCase{t, c, env, []string{"board", "archive", name, "--tz", "UTC", "--window", "2026-11-23", "--top", "2"}}
		want := changeOut{Command: "board archive", Object: final, Keys: []string{pre + "archive", pre + "meta", pre + "z"}, Count: 2}
		want.Entries, want.Affected = bestOf(t, pd.At(noon), 2)
		// A retention that ended before now is refused, dry run or not,
		// and leaves no key behind (the dry run and the change below see
		// the keys as before).
		for _, mode := range []string{"--dry-run", "--yes"} {
			c.fails(exitFailure, []string{"the archive would expire at once"}, "board", "archive", name, "--tz", "UTC", "--window", "2026-11-23", "--retention", "24h", mode)
			// The window of another zone is another span: refused, dry
			// run or not, as Archive refuses it.
			c.fails(exitFailure, []string{"window 2026-11-23 is stored as [2026-11-23T00:00:00Z, 2026-11-24T00:00:00Z)", "[2026-11-22T23:00:00Z, 2026-11-23T23:00:00Z)", "mismatch"},
				"board", "archive", name, "--tz", "Etc/GMT-1", "--window", "2026-11-23", mode)
		}
		var d description
		c.json(&d, "board", "describe", name+":2026-11-23")
		if d.Span != "[2026-11-23T00:00:00Z, 2026-11-24T00:00:00Z)" {
			t.Errorf("describe of the window: span %q, want its day in UTC", d.Span)
		}
		w.dry(want)
		want.DryRun = false
		_, after := w.real(want)
		for _, k := range want.Keys {
			if _, ok := after[k]; !ok {
				t.Errorf("archive key %s not made", k)
			}
		}
		wd, _ := board.Daily(nil).Window(noon)
		a, err := pd.Archived(ctx, wd)
		if err != nil {
			t.Fatal(err)
		}
		if l, _ := a.Top(ctx, 10); len(l.Entries) != 2 || l.Entries[0].ID != "z" || l.Entries[1].ID != "y" {
			t.Errorf("archive holds %+v, want z, y", l.Entries)
		}
		// Archived already: nothing to do, with the options it was made
		// with; others are refused.
		for _, mode := range []string{"--dry-run", "--yes"} {
			got := decodeChange(t, c.ok("board", "archive", name, "--tz", "UTC", "--window", "2026-11-23", "--top", "2", mode, "--json"))
			if got.Count != 2 || len(got.Keys) != 0 {
				t.Errorf("archive again %s: %+v, want 2 entries and no keys changed", mode, got)
			}
			if out := c.ok("board", "archive", name, "--tz", "UTC", "--window", "2026-11-23", "--top", "2", mode); strings.Contains(out, "keys:") {
				t.Errorf("archive again %s lists keys though it changes none:\n%s", mode, out)
			}
			c.fails(exitFailure, []string{"made with Top 2, kept forever, of [2026-11-23T00:00:00Z, 2026-11-24T00:00:00Z), asked with every entry, kept forever, of [2026-11-23T00:00:00Z", "mismatch"}, "board", "archive", name, "--tz", "UTC", "--window", "2026-11-23", mode)
		}
		c.fails(exitUsage, []string{"--window is required"}, "board", "archive", name, "--yes")
		// A calendar window in another zone than its board's may not have
		// ended: the zone, which the board does not store, is asked for.
		c.fails(exitUsage, []string{"--tz is required"}, "board", "archive", name, "--window", "2026-11-23", "--yes")
		c.fails(exitUsage, []string{"no window label"}, "board", "archive", name, "--tz", "UTC", "--window", "2026-13-01", "--yes")
	})

	t.Run("board migration", func(t *testing.T) {
		name := p + "_mig"
		seedMigrating(t, ctx, env.Client, name)
		var got migrationOut
		c.json(&got, "board", "migration", name)
		if got.Kind != "migration" || got.Migration == nil || got.Migration.Misfits != 1 || got.Migration.Position != "done" || got.Entries != 5 ||
			got.Resume != "tiebreak board migration "+name+" --resume --yes" {
			t.Errorf("board migration: %+v", got)
		}
		if out := c.ok("board", "migration", name); !strings.Contains(out, "misfits") || !strings.Contains(out, "lease") {
			t.Errorf("board migration table:\n%s", out)
		}
		// The copy's last step stamped the meta HASH's field moved with
		// Redis's clock; the command shows it.
		moved, err := env.Client.Do(ctx, env.Client.B().Hget().Key("tb:{"+name+"}:meta").Field("moved").Build()).AsInt64()
		if err != nil {
			t.Fatalf("the meta HASH's field moved after a copy step: %v", err)
		}
		if want := stamp(time.UnixMilli(moved)); got.LastMoved != want {
			t.Errorf("board migration: last moved %q, want %q", got.LastMoved, want)
		}
		before := dumpKeys(t, env, "*"+p+"*")
		c.fails(exitUsage, []string{"add --yes"}, "board", "migration", name, "--resume")
		if out := c.ok("board", "migration", name, "--resume", "--dry-run"); !strings.Contains(out, "dry run: board migration --resume would resume the migration") {
			t.Errorf("dry run:\n%s", out)
		}
		if diff := cmp.Diff(before, dumpKeys(t, env, "*"+p+"*")); diff != "" {
			t.Errorf("without --yes or with --dry-run, keys changed (-before +after):\n%s", diff)
		}
		// Fix the misfit, then resume: the board switches to 8-bit points.
		b, err := board.Open(ctx, env.Client, name, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Remove(ctx, "ann"); err != nil {
			t.Fatal(err)
		}
		resumeChecked(t, c, env, name, "migration")
		b, err = board.Open(ctx, env.Client, name, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if w := b.Layout().Field(0).Width; w != 8 {
			t.Errorf("after resume: points of %d bits, want 8", w)
		}
		if n, _ := b.Len(ctx); n != 4 {
			t.Errorf("after resume: %d entries, want 4", n)
		}
		c.json(&got, "board", "migration", name)
		if got.Kind != "none" {
			t.Errorf("after resume: %+v, want none under way", got)
		}
	})

	t.Run("timeline remove", func(t *testing.T) {
		room := p + "_room"
		ids := seedTimeline(t, ctx, env.Client, room, tsid.TSID, timeline.SplitScore, 5, func(i int) uint64 { return tsidAt(t, i) })
		id1, id3 := tsid.TSID.Format(ids[1]), tsid.TSID.Format(ids[3])
		gone := tsid.TSID.Format(tsidAt(t, 99))
		w := writeCase{t, c, env, []string{"timeline", "remove", room, id1, gone, id3, "--layout", "TSID"}}
		want := changeOut{Command: "timeline remove", Object: room, Keys: []string{"tl:{" + room + "}:z"}, Count: 2, Affected: []string{id1, id3}}
		w.dry(want)
		want.DryRun = false
		w.real(want)
		tl, _ := timeline.New(env.Client, room, tsid.TSID, timeline.Options{Strategy: timeline.SplitScore})
		if n, _ := tl.Len(ctx); n != 3 {
			t.Errorf("after remove: %d messages, want 3", n)
		}
	})

	t.Run("map remove", func(t *testing.T) {
		name := p + "_rmmap"
		m := seedMap(t, ctx, env.Client, name)
		w := writeCase{t, c, env, []string{"map", "remove", name, "25500.123460", "-0.5", "7"}}
		want := changeOut{Command: "map remove", Object: name, Keys: []string{"dm:{" + name + "}:e", "dm:{" + name + "}:k"}, Count: 2, Affected: []string{"25500.12346", "-0.5"}}
		w.dry(want)
		want.DryRun = false
		w.real(want)
		if n, _ := m.Len(ctx); n != 4 {
			t.Errorf("after remove: %d keys, want 4", n)
		}
		if vs, _ := m.Get(ctx, "25500.12345"); len(vs) != 1 {
			t.Errorf("a key not removed lost its values: %q", vs)
		}
		// Keys holding more values than one Remove takes: the change is
		// refused, changing nothing, and so is its dry run.
		big, err := decimalmap.New(env.Client, name+"big", decimalmap.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var bigKeys []string
		for k := range 6 {
			key := fmt.Sprint(100 + k)
			bigKeys = append(bigKeys, key)
			for i := range decimalmap.MaxValues / decimalmap.MaxAddValues {
				vs := make([]string, decimalmap.MaxAddValues)
				for j := range vs {
					vs[j] = fmt.Sprint("v", i, "-", j)
				}
				if _, err := big.Add(ctx, key, vs...); err != nil {
					t.Fatal(err)
				}
			}
		}
		before := dumpKeys(t, env, "*"+p+"*")
		for _, mode := range []string{"--dry-run", "--yes"} {
			c.fails(exitFailure, []string{"over decimalmap.MaxCallValues = 5000"}, append([]string{"map", "remove", name + "big", mode}, bigKeys...)...)
		}
		if diff := cmp.Diff(before, dumpKeys(t, env, "*"+p+"*")); diff != "" {
			t.Errorf("a refused map remove changed keys (-before +after):\n%s", diff)
		}
	})

	t.Run("limiter reset", func(t *testing.T) {
		key := p + ":reset"
		seedLimiter(t, ctx, env.Client, key, ratelimit.PerMinute(10), 3)
		w := writeCase{t, c, env, []string{"limiter", "reset", key}}
		want := changeOut{Command: "limiter reset", Object: key, Keys: []string{"rl:{" + key + "}"}, Count: 3, Affected: []string{key}}
		w.dry(want)
		want.DryRun = false
		_, after := w.real(want)
		if _, ok := after["rl:{"+key+"}"]; ok {
			t.Error("the limiter's log is still there")
		}
		// Again: nothing is logged, no such object (exit 1), with the hint
		// for a limiter of another prefix; nothing changed.
		for _, mode := range []string{"--dry-run", "--yes"} {
			c.fails(exitFailure, []string{`no limiter named "` + key + `"`, "--limiter-prefix"}, "limiter", "reset", key, mode)
		}
	})

	t.Run("board clear", func(t *testing.T) {
		name := p + "_clear"
		b := seedArena(t, ctx, env.Client, name, board.Options{})
		// -n 3: the best 3 of its 5 entries are listed, all 5 removed.
		w := writeCase{t, c, env, []string{"board", "clear", name, "-n", "3"}}
		want := changeOut{Command: "board clear", Object: name, Keys: []string{"tb:{" + name + "}:d", "tb:{" + name + "}:z"}, Count: 5}
		want.Entries, want.Affected = bestOf(t, b, 3)
		if table := w.dry(want); !strings.Contains(table, "the best 3 of the 5 entries listed (-n)") {
			t.Errorf("board clear -n 3 --dry-run does not say it lists 3 of 5:\n%s", table)
		}
		c.fails(exitUsage, []string{"-n 1001 out of range"}, "board", "clear", name, "-n", "1001", "--dry-run")
		want.DryRun = false
		_, after := w.real(want)
		if _, ok := after["tb:{"+name+"}:meta"]; !ok {
			t.Error("clear removed the descriptor")
		}
		if n, _ := b.Len(ctx); n != 0 {
			t.Errorf("after clear: %d entries, want 0", n)
		}
	})

	t.Run("hidden entries", func(t *testing.T) {
		// A board with Hiding: reads do not show bob, but remove, clear and
		// drop count and remove him too.
		name := p + "_hid"
		b := seedArena(t, ctx, env.Client, name, board.Options{Hiding: true})
		if _, err := b.Hide(ctx, "bob"); err != nil {
			t.Fatal(err)
		}
		for _, mode := range []string{"--dry-run", "--yes"} {
			got := decodeChange(t, c.ok("board", "remove", name, "bob", "zed", mode, "--json"))
			if got.Count != 1 || !slices.Equal(got.Affected, []string{"bob"}) || len(got.Entries) != 1 {
				t.Errorf("board remove of a hidden id %s: count %d, affected %q, %d entries; want bob's", mode, got.Count, got.Affected, len(got.Entries))
			} else if en := got.Entries[0]; en.Rank < 1 || en.Competition < 1 {
				t.Errorf("board remove of a hidden id %s: bob at rank %d, competition %d; want the ranks he sees", mode, en.Rank, en.Competition)
			}
		}
		if _, err := b.Submit(ctx, board.Submission{ID: "bob", Values: []float64{1, 0, 1}}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Hide(ctx, "bob"); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"board", "clear", name}, {"board", "drop", name}} {
			got := decodeChange(t, c.ok(append(args, "--dry-run", "--json")...))
			if got.Count != 5 {
				t.Errorf("%s --dry-run: count %d, want 5 (4 shown, 1 hidden)", strings.Join(args, " "), got.Count)
			}
			if table := c.ok(append(args, "--dry-run")...); !strings.Contains(table, "and 1 entry it hides") {
				t.Errorf("%s --dry-run does not say it removes a hidden entry too:\n%s", strings.Join(args, " "), table)
			}
		}
		if got := decodeChange(t, c.ok("board", "clear", name, "--yes", "--json")); got.Count != 5 {
			t.Errorf("board clear: count %d, want 5", got.Count)
		}
	})

	t.Run("KeepTop keys", func(t *testing.T) {
		// The best entries' string of a KeepTop board changes with them:
		// remove and clear name it among the keys they change.
		name := p + "_kt"
		seedArena(t, ctx, env.Client, name, board.Options{KeepTop: 2})
		pre := "tb:{" + name + "}:"
		for _, cs := range []struct{ args, keys []string }{
			{[]string{"board", "remove", name, "ann"}, []string{pre + "d", pre + "top", pre + "z"}},
			{[]string{"board", "clear", name}, []string{pre + "top", pre + "z"}}, // ann's data went with her
		} {
			args, wantKeys := cs.args, cs.keys
			w := writeCase{t, c, env, args}
			got := decodeChange(t, c.ok(append(args, "--dry-run", "--json")...))
			if !slices.Equal(got.Keys, wantKeys) {
				t.Errorf("%q --dry-run names the keys %q, want %q", args, got.Keys, wantKeys)
			}
			got.DryRun = false
			w.real(got)
		}
	})

	t.Run("sharded board with a cap", func(t *testing.T) {
		// Each shard keeps its best Cap: clear counts every entry stored,
		// not the Cap that reads show.
		sb, err := board.New(ctx, env.Client, p+"_shcap", arenaLayout(t), board.Options{Shards: 2, Cap: 2})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			if _, err := sb.Submit(ctx, board.Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(i), 0, 1}}); err != nil {
				t.Fatal(err)
			}
		}
		for _, mode := range []string{"--dry-run", "--yes"} {
			if got := decodeChange(t, c.ok("board", "clear", sb.Name(), mode, "--json")); got.Count != 4 {
				t.Errorf("board clear %s of 2 shards of Cap 2: count %d, want 4", mode, got.Count)
			}
		}
	})

	t.Run("board clear of a migrating board", func(t *testing.T) {
		// Clear refuses a board that is migrating: the dry run says so too.
		name := p + "_clrmig"
		seedMigrating(t, ctx, env.Client, name)
		for _, mode := range []string{"--dry-run", "--yes"} {
			c.fails(exitFailure, []string{"is migrating", "changes nothing"}, "board", "clear", name, mode)
		}
	})

	t.Run("board remove group", func(t *testing.T) {
		group := p + "_grp"
		opts := board.Options{Group: group, SharedData: true}
		a := seedArena(t, ctx, env.Client, "a", opts)
		bb, err := board.New(ctx, env.Client, "b", arenaLayout(t), opts)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bb.Submit(ctx, board.Submission{ID: "bob", Values: []float64{1, 0, 1}}); err != nil {
			t.Fatal(err)
		}
		pre := "tb:{" + group + "}:"
		// More ids than one atomic removal takes: in several runs.
		args := []string{"board", "remove", "--group", group}
		for i := range 1001 {
			args = append(args, fmt.Sprint("zed", i))
		}
		c.fails(exitUsage, []string{"1001 ids, over 1000: remove them in several runs"}, append(args, "--dry-run")...)
		// A board of the group named first, as the read commands take
		// --group, is refused: it would be removed as an id from every
		// board.
		for _, first := range []string{"a", group + "/a"} {
			for _, mode := range []string{"--dry-run", "--yes"} {
				c.fails(exitUsage, []string{"names a board of group", "spell it " + group + "/a without --group"}, "board", "remove", first, "bob", "--group", group, mode)
			}
		}
		if _, err := bb.Get(ctx, "bob"); err != nil {
			t.Fatalf("the refused removal removed bob: %v", err)
		}
		// An id stored under a board's name is an id like any other.
		if _, err := bb.Submit(ctx, board.Submission{ID: "b", Values: []float64{2, 0, 1}}); err != nil {
			t.Fatal(err)
		}
		c.ok("board", "remove", "--group", group, "b", "--yes")
		if _, err := bb.Get(ctx, "b"); !errors.Is(err, board.ErrNotFound) {
			t.Errorf("the member named as board b was not removed: %v", err)
		}
		w := writeCase{t, c, env, []string{"board", "remove", "--group", group, "ann", "bob", "zed"}}
		want := changeOut{Command: "board remove", Object: "group " + group, Count: 3, Affected: []string{"ann", "bob"},
			Keys:   []string{pre + "data", pre + "{a}:z", pre + "{b}:z"},
			Boards: map[string][]string{"a": {"ann", "bob"}, "b": {"bob"}}}
		w.dry(want)
		want.DryRun = false
		w.real(want)
		for _, b := range []*board.Board{a, bb} {
			if l, _ := b.Among(ctx, []string{"ann", "bob"}); len(l.Entries) != 0 {
				t.Errorf("board %s still holds %+v", b.Name(), l.Entries)
			}
		}
		if n, _ := env.Client.Do(ctx, env.Client.B().Hexists().Key(pre+"data").Field("ann").Build()).AsInt64(); n != 0 {
			t.Error("ann's shared data is still there")
		}
	})

	t.Run("board remove group of hidden entries", func(t *testing.T) {
		// A cheater hidden on one board of the group and shown on the
		// other: the dry run counts and lists both entries, as the removal
		// does, and says which is hidden; no shared data, none named.
		group := p + "_grphid"
		opts := board.Options{Group: group, Hiding: true}
		a := seedArena(t, ctx, env.Client, "a", opts)
		bb := seedArena(t, ctx, env.Client, "b", opts)
		if _, err := a.Hide(ctx, "bob"); err != nil {
			t.Fatal(err)
		}
		pre := "tb:{" + group + "}:"
		w := writeCase{t, c, env, []string{"board", "remove", "--group", group, "bob"}}
		want := changeOut{Command: "board remove", Object: "group " + group, Count: 2, Affected: []string{"bob"},
			Keys:   []string{pre + "{a}:d", pre + "{a}:h", pre + "{a}:z", pre + "{b}:d", pre + "{b}:z"},
			Boards: map[string][]string{"a": {"bob"}, "b": {"bob"}}}
		table := w.dry(want)
		if !strings.Contains(table, `hidden on a (Options.Hiding)`) || strings.Contains(table, "shared data") {
			t.Errorf("the dry run does not say bob is hidden on a, or names shared data the group has not:\n%s", table)
		}
		want.DryRun = false
		w.real(want)
		for _, b := range []*board.Board{a, bb} {
			if _, err := b.Get(ctx, "bob", board.AsSelf()); !errors.Is(err, board.ErrNotFound) {
				t.Errorf("board %s still holds bob: %v", b.Name(), err)
			}
		}
	})

	t.Run("board remove group of 70 boards", func(t *testing.T) {
		group := p + "_grp70"
		var boards []*board.Board
		for i := range 70 {
			boards = append(boards, seedArena(t, ctx, env.Client, fmt.Sprintf("b%02d", i), board.Options{Group: group}))
		}
		w := writeCase{t, c, env, []string{"board", "remove", "--group", group, "ann"}}
		want := changeOut{Command: "board remove", Object: "group " + group, Count: 70, Affected: []string{"ann"}, Boards: map[string][]string{}}
		for i := range 70 {
			name := fmt.Sprintf("b%02d", i)
			want.Boards[name] = []string{"ann"}
			want.Keys = append(want.Keys, "tb:{"+group+"}:{"+name+"}:d", "tb:{"+group+"}:{"+name+"}:z")
		}
		if table := w.dry(want); !strings.Contains(table, "atomic parts of 64") {
			t.Errorf("the dry run does not say the removal is made in parts:\n%s", table)
		}
		want.DryRun = false
		w.real(want)
		for _, b := range boards {
			if n, _ := b.Len(ctx); n != 4 {
				t.Errorf("board %s holds %d entries after ann's removal, want 4", b.Name(), n)
			}
		}
	})
}

// A group's removal takes as many boards per atomic part as Group.Remove
// allows for the ids given: 64, and 16,000 ids times boards.
func TestGroupPart(t *testing.T) {
	for n, want := range map[int]int{0: 64, 1: 64, 250: 64, 251: 63, 1000: 16, 20000: 1} {
		if got := groupPart(n); got != want {
			t.Errorf("groupPart(%d) = %d, want %d", n, got, want)
		}
		if n > 0 && n <= 1000 && n*groupPart(n) > 16000 {
			t.Errorf("groupPart(%d) = %d: over 16,000 removals", n, groupPart(n))
		}
	}
}
