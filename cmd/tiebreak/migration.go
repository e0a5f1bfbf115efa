package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/pack"
)

// metaMoved is the field of a board's meta HASH holding when the last
// step of its resharding's copy was made, Unix ms of Redis's clock; absent
// when no step has recorded it.
const metaMoved = "moved"

func migrationCommand() *command {
	return &command{name: "board migration", nonEmpty: true, args: []string{"NAME"}, resumes: true,
		help:   "a migration's or a resharding's progress, its lease and the time of its last step; --resume resumes it",
		writes: "resumes the migration (Migrate to the stored target) or the resharding (Reshard to the stored count)",
		setup: func(fs *flag.FlagSet) runFunc {
			return func(ctx context.Context, e *env, a []string) error { return boardMigration(ctx, e, a[0]) }
		}}
}

// shardProgress is one old shard of a resharding.
type shardProgress struct {
	Name    string `json:"name"`
	State   string `json:"state"`
	Entries int64  `json:"entries"`
	// Position is the cursor of the last entry copied, "done" at the end,
	// empty before the first step.
	Position string `json:"position,omitempty"`
}

// migrationOut is board migration's answer in JSON.
type migrationOut struct {
	Board string `json:"board"`
	// Kind is "migration", "resharding", "retiring" (a resharding switched,
	// its old shards not all removed yet) or "none".
	Kind      string     `json:"kind"`
	State     string     `json:"state"`
	Migration *migration `json:"migration,omitempty"`
	// Entries is a migration's number of entries to copy (its source's).
	Entries int64 `json:"entries,omitempty"`
	// A resharding's.
	From     int             `json:"from,omitempty"`
	To       int             `json:"to,omitempty"`
	Shards   []shardProgress `json:"shards,omitempty"`
	Retiring []string        `json:"retiring,omitempty"`
	// LeaseState is a resharding's lease: "free", "held", "ran out" or
	// "revoked". Lease is the token of the process copying, "revoked", or
	// empty; LeaseUntil when it runs out (Redis's clock).
	LeaseState string `json:"leaseState,omitempty"`
	Lease      string `json:"lease,omitempty"`
	LeaseUntil string `json:"leaseUntil,omitempty"`
	LeaseHeld  bool   `json:"leaseHeld,omitempty"`
	// LastMoved is when the copy's last step was made (the meta HASH's
	// field moved, Redis's clock); empty when the HASH does not record it.
	LastMoved string `json:"lastMoved,omitempty"`
	// Resume is the command that resumes it.
	Resume string `json:"resume,omitempty"`
	// Keys are, with --resume, the keys of the board and of its shards
	// that the resumption may change or remove; Creates the prefixes of
	// the keys it may create (the board's and its shards', old and new):
	// the target's, and tombstones where it removes the source's.
	Keys    []string `json:"keys,omitempty"`
	Creates []string `json:"creates,omitempty"`
	Resumed bool     `json:"resumed,omitempty"`
	DryRun  bool     `json:"dryRun,omitempty"`
}

func boardMigration(ctx context.Context, e *env, arg string) error {
	group, name := groupOf(ctx, e, "", arg)
	if err := checkName(kindBoard, name); err != nil {
		return err
	}
	key, m, err := readBoardMeta(ctx, e, group, name)
	if err != nil {
		return err
	}
	now, err := serverTime(ctx, e)
	if err != nil {
		return err
	}
	out := migrationOut{Board: arg, Kind: "none", State: m[metaState]}
	t := &table{}
	t.add("board", arg)
	t.add("state", out.State)
	switch {
	case m[metaState] == "migrating":
		d, err := describeMeta(name, group, key, m)
		if err != nil {
			return err
		}
		if err := countEntries(ctx, e.client, d); err != nil {
			return err
		}
		out.Kind, out.Migration, out.Entries = "migration", d.Migration, d.Entries
		mg := d.Migration
		t.add("migrating to", fmt.Sprintf("generation %d (entries in %s)", mg.Generation, mg.EntriesKey))
		addDescriptor(t, "target ", mg.Target)
		t.add("copied", fmt.Sprintf("%d of %s (copy position %s)", mg.Copied, count(d.Entries, "entries"), orStart(mg.Position)))
		if mg.Misfits > 0 {
			t.add("misfits", fmt.Sprintf("%s not fitting the target (ids in %s): fix or remove them, then resume", count(mg.Misfits, "entries"), mg.MisfitsKey))
		}
		t.add("lease", "none: a migration takes no lease; any number of processes may resume it")
		lastMoved(t, &out, key, m, now)
	case m[metaState] == "resharding":
		var from, to storedDescriptor
		if err := json.Unmarshal([]byte(m[metaDesc]), &from); err != nil {
			return fmt.Errorf("%s: field %s is not a descriptor: %v", key, metaDesc, err)
		}
		if err := json.Unmarshal([]byte(m[metaTarget]), &to); err != nil {
			return fmt.Errorf("%s: field %s is not a descriptor: %v", key, metaTarget, err)
		}
		out.Kind, out.From, out.To = "resharding", from.Shards, to.Shards
		t.add("resharding", fmt.Sprintf("from %d shards (%s) to %d (%s)", from.Shards, strings.Join(from.ShardNames, ", "), to.Shards, strings.Join(to.ShardNames, ", ")))
		for _, s := range from.ShardNames {
			sp, err := shardState(ctx, e, s)
			if err != nil {
				return err
			}
			out.Shards = append(out.Shards, sp)
			t.add("shard "+s, fmt.Sprintf("%s, %s, copy position %s", sp.State, count(sp.Entries, "entries"), orStart(sp.Position)))
		}
		out.Lease = m["lease"]
		until, _ := strconv.ParseInt(m["leaseuntil"], 10, 64)
		switch {
		case out.Lease == "":
			out.LeaseState = "free"
			t.add("lease", "free (no process copies)")
		case out.Lease == "revoked":
			out.LeaseState = "revoked"
			t.add("lease", "revoked: its process stopped while the shards were frozen; writes go on, the next resume takes it")
		default:
			u := time.UnixMilli(until)
			out.LeaseUntil, out.LeaseHeld = stamp(u), u.After(now)
			state := "held"
			out.LeaseState = "held"
			if !out.LeaseHeld {
				state, out.LeaseState = "free (ran out)", "ran out"
			}
			t.add("lease", fmt.Sprintf("%s by %s until %s (%s)", state, out.Lease, out.LeaseUntil, ago(u, now)))
		}
		lastMoved(t, &out, key, m, now)
	case m["retiring"] != "" && m["retiring"] != "[]":
		out.Kind = "retiring"
		_ = json.Unmarshal([]byte(m["retiring"]), &out.Retiring)
		t.add("retiring", fmt.Sprintf("switched; old shards not all removed yet: %s", strings.Join(out.Retiring, ", ")))
	default:
		t.add("migration", "none under way")
	}
	if out.Kind != "none" {
		out.Resume = commandLine("board migration", []string{arg}, "--resume", "--yes")
	}
	g := e.g
	if !g.resume {
		if out.Resume != "" {
			t.note("resume: %s", out.Resume)
		}
		return e.out.emit(out, t)
	}
	out.DryRun = g.dryRun
	if out.Kind == "none" {
		t.note("nothing to resume; nothing changed")
		return e.out.emit(out, t)
	}
	if out.Keys, err = boardKeys(ctx, e, group, name, false); err != nil {
		return err
	}
	// The copy creates the target's keys (a new generation's, new
	// shards'), and leaves tombstones where it removed the source's.
	out.Creates = []string{boardPrefix(group, name)}
	for _, s := range shardNames(m) {
		out.Creates = append(out.Creates, boardPrefix("", s))
	}
	if g.dryRun {
		t.note("dry run: board migration --resume would resume the %s of board %s; nothing changed", out.Kind, arg)
	} else {
		if err := resume(ctx, e, group, name, m); err != nil {
			return err
		}
		out.Resumed = true
		t.note("board migration --resume: done: the %s of board %s ran to its end", out.Kind, arg)
	}
	t.note("keys it changes or removes: %s", strings.Join(out.Keys, " "))
	if len(out.Creates) > 0 {
		t.note("keys it may create (the target's, and tombstones of the source's): under %s", strings.Join(out.Creates, " "))
	}
	return e.out.emit(out, t)
}

// lastMoved adds when the copy's last step was made, as the meta HASH m
// of key records it in its field moved.
func lastMoved(t *table, out *migrationOut, key string, m map[string]string, now time.Time) {
	v, ok := m[metaMoved]
	if !ok {
		t.add("last moved", fmt.Sprintf("unknown: %s records no time of the last step (no field %s)", key, metaMoved))
		return
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.add("last moved", fmt.Sprintf("unknown: %s's field %s = %q is not a time in Unix ms", key, metaMoved, v))
		return
	}
	at := time.UnixMilli(ms)
	out.LastMoved = stamp(at)
	t.add("last moved", fmt.Sprintf("%s (%s)", out.LastMoved, ago(at, now)))
}

func orStart(s string) string {
	if s == "" {
		return "start"
	}
	return s
}

// shardState reads an old shard's progress in a resharding.
func shardState(ctx context.Context, e *env, shard string) (shardProgress, error) {
	key := boardMetaKey("", shard)
	f, err := e.client.Do(ctx, e.client.B().Hmget().Key(key).Field(metaState, metaGen, "cursor").Build()).ToArray()
	if err != nil || len(f) != 3 {
		return shardProgress{}, fmt.Errorf("HMGET %s: %v", key, err)
	}
	sp := shardProgress{Name: shard}
	sp.State, _ = f[0].ToString()
	gen, _ := f[1].ToString()
	sp.Position, _ = f[2].ToString()
	g, _ := strconv.ParseInt(gen, 10, 64)
	if sp.Entries, err = e.client.Do(ctx, e.client.B().Zcard().Key(boardEntriesKey("", shard, g)).Build()).AsInt64(); err != nil {
		return sp, fmt.Errorf("ZCARD of shard %s: %w", shard, err)
	}
	return sp, nil
}

// serverTime is Redis's clock, which the leases are in.
func serverTime(ctx context.Context, e *env) (time.Time, error) {
	ts, err := e.client.Do(ctx, e.client.B().Time().Build()).AsIntSlice()
	if err != nil || len(ts) != 2 {
		return time.Time{}, fmt.Errorf("TIME: %v", err)
	}
	return time.Unix(ts[0], ts[1]*1000), nil
}

// resume resumes what the meta HASH m says is under way: Migrate to the
// stored target with the stored defaults, or Reshard to the stored count
// (which also finishes a retirement).
func resume(ctx context.Context, e *env, group, name string, m map[string]string) error {
	b, err := openBoard(ctx, e, group, name)
	if err != nil {
		return err
	}
	if m[metaState] != "migrating" {
		n := b.Options().Shards
		if m[metaState] == "resharding" {
			var to storedDescriptor
			if err := json.Unmarshal([]byte(m[metaTarget]), &to); err != nil {
				return err
			}
			n = to.Shards
		}
		_, err := b.Reshard(ctx, n, board.MigrateOptions{})
		return err
	}
	var to storedDescriptor
	if err := json.Unmarshal([]byte(m[metaTarget]), &to); err != nil {
		return err
	}
	l, opts, err := to.build()
	if err != nil {
		return err
	}
	opts.Group = group
	var mo board.MigrateOptions
	if s := m[metaDefaults]; s != "" && s != "{}" {
		if err := json.Unmarshal([]byte(s), &mo.Defaults); err != nil {
			return err
		}
	}
	_, err = b.Migrate(ctx, l, opts, mo)
	return err
}

// build returns the layout and options the descriptor describes.
func (d storedDescriptor) build() (*pack.Layout, board.Options, error) {
	fields := make([]pack.Field, len(d.Fields))
	for i, f := range d.Fields {
		dir := pack.HigherIsBetter
		if f.Dir != "HigherIsBetter" {
			dir = pack.LowerIsBetter
		}
		fields[i] = pack.Field{Name: f.Name, Width: f.Width, Dir: dir, Signed: f.Signed}
	}
	newLayout := pack.NewLayout
	if d.Radix == 10 {
		newLayout = pack.NewDigitLayout
	}
	l, err := newLayout(fields...)
	if err != nil {
		return nil, board.Options{}, fmt.Errorf("the stored target's layout: %w", err)
	}
	o := board.Options{Cap: d.Cap, DenseRanks: d.DenseRanks, SharedData: d.SharedData, Rules: d.Rules.options(), Hiding: d.Hiding, KeepTop: d.KeepTop}
	for _, b := range d.Bounds {
		o.Bounds = append(o.Bounds, board.Bound{Field: b.Field, Min: b.Min, Max: b.Max})
	}
	if d.Strategy == "KeySuffix" {
		o.Strategy = board.KeySuffix
	}
	return l, o, nil
}
