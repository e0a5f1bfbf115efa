package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

func listCommands() []*command {
	return []*command{{
		name: "list",
		help: "the boards, timelines, maps, limited keys and leagues found by SCAN, with their size",
		setup: func(fs *flag.FlagSet) runFunc {
			var o listOptions
			fs.StringVar(&o.prefix, "prefix", "", "only objects whose name starts with `P` (a grouped board's group, or GROUP/NAME, as it is listed)")
			fs.StringVar(&o.kind, "kind", "", "only objects of this `kind`: board, timeline, map, limiter or league")
			fs.StringVar(&o.limiterPrefix, "limiter-prefix", defaultLimiterPrefix, limiterPrefixHelp)
			return func(ctx context.Context, e *env, _ []string) error { return list(ctx, e, o) }
		},
	}}
}

type listOptions struct {
	prefix, kind, limiterPrefix string
}

// object is one object list finds.
type object struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Group string `json:"group,omitempty"`
	// Key is the Redis key that names the object.
	Key string `json:"key"`
	// Slot is the Redis Cluster hash slot of Key, which every key of the
	// object shares (one hash tag).
	Slot int `json:"slot"`
	// Size is what the object holds: a board's entries, a timeline's
	// messages, a map's keys, a limited key's logged requests; -1 when it
	// could not be read (Detail says why).
	Size int64  `json:"size"`
	Unit string `json:"unit"`
	// Values is a map's number of values.
	Values *int64 `json:"values,omitempty"`
	// Detail says more, for people: a board's strategy and state, a
	// limited key's expiry.
	Detail  string `json:"detail,omitempty"`
	gen     int64
	shards  []string // a sharded board's shards, by name
	targets []string // the new shards of a resharding under way, by name
	retired bool     // a retired shard: its keys are tombstones, it holds nothing
}

// list scans every node for the keys of each kind and prints the objects
// they name.
func list(ctx context.Context, e *env, o listOptions) error {
	if o.kind != "" && !slices.Contains(kinds, o.kind) {
		return usagef("--kind %q, want one of %s", o.kind, strings.Join(kinds, ", "))
	}
	var objs []*object
	for _, k := range kinds {
		if o.kind != "" && o.kind != k {
			continue
		}
		found, err := scanKind(ctx, e, k, o)
		if err != nil {
			return err
		}
		objs = append(objs, found...)
	}
	if err := measure(ctx, e.client, objs); err != nil {
		return err
	}
	sumShards(objs)
	for _, ob := range objs {
		ob.Slot = keySlot(ob.Key)
	}
	t := &table{header: []string{"KIND", "NAME", "SIZE", "KEY", "DETAIL"}}
	for _, ob := range objs {
		name := ob.Name
		if ob.Group != "" {
			name = ob.Group + "/" + ob.Name
		}
		size := count(ob.Size, ob.Unit)
		if ob.Size < 0 {
			size = "? " + ob.Unit
		}
		t.add(ob.Kind, quoted(name), size, quoted(ob.Key), ob.Detail)
	}
	if len(objs) == 0 {
		t.header = nil
		t.note("nothing found on %s", e.where)
	}
	if objs == nil {
		objs = []*object{}
	}
	return e.out.emit(objs, t)
}

// scanPattern is the SCAN MATCH pattern of the keys of kind whose name
// starts with prefix.
// A board's prefix may name a group and the start of its boards' names,
// as a grouped board is spelled: "game/weekly" finds game/weekly:2026-W48.
func scanPattern(kind, prefix, limiterPrefix string) string {
	p := globEscape(prefix) + "*"
	switch kind {
	case kindBoard:
		if g, n, ok := strings.Cut(prefix, "/"); ok {
			return "tb:{" + globEscape(g) + "}:{" + globEscape(n) + "*"
		}
		return "tb:{" + p // meta and entries of every board, grouped or not
	case kindTimeline:
		return "tl:{" + p + "}:z"
	case kindMap:
		return "dm:{" + p + "}:k"
	case kindLeague:
		return "tb:{" + p + "}:league"
	}
	return globEscape(limiterPrefix) + "{" + p + "}"
}

// globEscape escapes the characters SCAN MATCH reads as a pattern.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\^`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// scanKind returns the objects of kind, sorted by group and name.
func scanKind(ctx context.Context, e *env, kind string, o listOptions) ([]*object, error) {
	keys, err := redisops.ScanKeys(ctx, e.client, scanPattern(kind, o.prefix, o.limiterPrefix))
	if err != nil {
		return nil, fmt.Errorf("SCAN on %s: %w", e.where, err)
	}
	slices.Sort(keys)
	byName := map[[2]string]*object{}
	var out []*object
	for _, key := range slices.Compact(keys) { // a replica may list a key again
		p, ok := parseKey(key, o.limiterPrefix)
		if !ok || p.kind != kind {
			continue
		}
		if kind == kindBoard && strings.Contains(o.prefix, "/") && !strings.HasPrefix(p.group+"/"+p.name, o.prefix) {
			continue
		}
		id := [2]string{p.group, p.name}
		if ob := byName[id]; ob != nil {
			if !p.other { // the meta HASH names the board
				ob.Key, ob.Detail = key, ""
			}
			continue
		}
		ob := &object{Kind: kind, Name: p.name, Group: p.group, Key: key}
		if p.other {
			ob.Detail = "not understood: no descriptor (meta HASH), so not a board"
		}
		byName[id] = ob
		out = append(out, ob)
	}
	slices.SortFunc(out, func(a, b *object) int {
		return strings.Compare(a.Group+"\x00"+a.Name, b.Group+"\x00"+b.Name)
	})
	return out, nil
}

// measure fills in the size of every object, in two pipelined round
// trips: the boards' generations, then every size.
func measure(ctx context.Context, c rueidis.Client, objs []*object) error {
	var metas rueidis.Commands
	var boards []*object
	for _, ob := range objs {
		if ob.Kind == kindBoard && ob.Detail == "" {
			metas = append(metas, c.B().Hmget().Key(ob.Key).Field("gen", "state", "desc", "expire", "target").Build())
			boards = append(boards, ob)
		}
	}
	for i, r := range c.DoMulti(ctx, metas...) {
		boardDetail(boards[i], r)
	}
	var cmds rueidis.Commands
	for _, ob := range objs {
		cmds = append(cmds, sizeCommands(c, ob)...)
	}
	replies := c.DoMulti(ctx, cmds...)
	for _, ob := range objs {
		readSize(ob, &replies)
	}
	return nil
}

// unreadable notes on ob what list could not read: it shows the object as
// it found it and goes on.
func unreadable(ob *object, what string, err error) {
	if ob.Detail != "" {
		ob.Detail += "; "
	}
	ob.Detail += fmt.Sprintf("%s unreadable: %v", what, err)
}

// boardDetail reads a board's generation and state from its meta HASH.
func boardDetail(ob *object, r rueidis.RedisResult) {
	f, err := r.AsStrSlice()
	if err != nil && !rueidis.IsRedisNil(err) {
		unreadable(ob, "meta HASH", err)
		return
	}
	f = append(f, "", "", "", "", "")[:5] // absent fields
	ob.gen, _ = strconv.ParseInt(f[0], 10, 64)
	var d struct {
		Strategy   string
		Shards     int
		ShardNames []string
	}
	_ = json.Unmarshal([]byte(f[2]), &d) // a board with no readable descriptor shows no strategy
	ob.Detail = d.Strategy
	if d.Shards > 0 {
		ob.shards = d.ShardNames
		ob.Detail += fmt.Sprintf(", sharded over %d boards (its size is the sum of theirs)", d.Shards)
		var target struct{ ShardNames []string }
		if json.Unmarshal([]byte(f[4]), &target) == nil {
			ob.targets = target.ShardNames
		}
	}
	if f[1] == "retired" {
		// A resharding moved its entries to other shards; its keys are
		// tombstones that send old handles to the new shards, dropped
		// with its sharded board.
		ob.retired = true
		ob.Detail += ", retired: a shard a resharding left, holding nothing (dropped with its sharded board)"
	} else if f[1] != "" && f[1] != "live" { // migrating, resharding, or a shard's exporting, frozen
		ob.Detail += ", " + f[1]
	}
	if ms, err := strconv.ParseInt(f[3], 10, 64); err == nil && ms > 0 {
		what := "window" // only windows and archives (NAME:LABEL:final) expire
		if strings.HasSuffix(ob.Name, ":final") {
			what = "archive"
		}
		ob.Detail += ", " + what + " expiring " + stamp(time.UnixMilli(ms))
	}
}

// sumShards gives each sharded board the size of its entries, which its
// shards hold: the sum of the sizes of its shards, each listed on a row of
// its own (a shard's name starts with its board's, so a prefix that finds
// the board finds them). A shard not found is noted in the board's detail.
func sumShards(objs []*object) {
	byName := map[string]*object{}
	for _, ob := range objs {
		if ob.Kind == kindBoard && ob.Group == "" {
			byName[ob.Name] = ob
		}
	}
	for _, ob := range objs {
		if len(ob.shards) == 0 {
			continue
		}
		ob.Size = 0
		var missing []string
		for _, name := range ob.targets {
			if s := byName[name]; s != nil {
				s.Detail += fmt.Sprintf(", a new shard of %s, being filled by a resharding (write through it)", shellQuote(ob.Name))
			}
		}
		for _, name := range ob.shards {
			if s := byName[name]; s != nil {
				s.Detail += fmt.Sprintf(", a shard of %s (write through it)", shellQuote(ob.Name))
			}
			if s := byName[name]; s != nil && (s.Size < 0 || ob.Size < 0) {
				ob.Size = -1 // a shard's size is unknown: so is the board's
			} else if s != nil {
				ob.Size += s.Size
			} else {
				missing = append(missing, name)
			}
		}
		if missing != nil {
			ob.Detail += fmt.Sprintf("; shards not found, not counted: %s", strings.Join(missing, ", "))
		}
	}
}

// sizeCommands are the commands that measure ob.
func sizeCommands(c rueidis.Client, ob *object) rueidis.Commands {
	switch ob.Kind {
	case kindBoard:
		return rueidis.Commands{c.B().Zcard().Key(boardEntriesKey(ob.Group, ob.Name, ob.gen)).Build()}
	case kindMap:
		return rueidis.Commands{c.B().Zcard().Key(mapKeysKey(ob.Name)).Build(), c.B().Zcard().Key(mapEntriesKey(ob.Name)).Build()}
	case kindLimiter:
		return rueidis.Commands{c.B().Zcard().Key(ob.Key).Build(), c.B().Pttl().Key(ob.Key).Build()}
	case kindLeague:
		return rueidis.Commands{c.B().Hget().Key(ob.Key).Field("desc").Build()}
	}
	return rueidis.Commands{c.B().Zcard().Key(ob.Key).Build()}
}

// readSize takes ob's replies off the front of replies. A size it cannot
// read (a key of another type) is noted in ob's detail; a retired shard
// holds nothing.
func readSize(ob *object, replies *[]rueidis.RedisResult) {
	n := map[string]int{kindMap: 2, kindLimiter: 2}[ob.Kind]
	n = max(n, 1)
	rs := (*replies)[:n]
	*replies = (*replies)[n:]
	ob.Unit = map[string]string{kindBoard: "entries", kindTimeline: "messages", kindMap: "keys", kindLimiter: "requests", kindLeague: "partitions"}[ob.Kind]
	if ob.Kind == kindLeague {
		leagueDetail(ob, rs[0])
		return
	}
	if ob.retired {
		return // its tombstone is no sorted set: it holds nothing
	}
	var err error
	if ob.Size, err = rs[0].AsInt64(); err != nil {
		ob.Size = -1
		unreadable(ob, "size", err)
		return
	}
	switch ob.Kind {
	case kindMap:
		if v, err := rs[1].AsInt64(); err == nil {
			ob.Values, ob.Detail = &v, count(v, "values")
		} else {
			unreadable(ob, "values", err)
		}
	case kindLimiter:
		if ms, err := rs[1].AsInt64(); err != nil {
			unreadable(ob, "expiry", err)
		} else if ms >= 0 {
			ob.Detail = "expires in " + (time.Duration(ms) * time.Millisecond).String()
		}
	}
}

// leagueDetail reads a league's descriptor: its partitions and tiers.
func leagueDetail(ob *object, r rueidis.RedisResult) {
	s, err := r.ToString()
	var d storedLeague
	if err == nil {
		err = json.Unmarshal([]byte(s), &d)
	}
	if err != nil {
		unreadable(ob, "descriptor", err)
		return
	}
	ob.Size = int64(d.Partitions)
	ob.Detail = fmt.Sprintf("tiers %s, cohorts of %d (%s)", strings.Join(d.Tiers, ", "), d.CohortSize, strings.TrimPrefix(commandLine("league describe", []string{ob.Name}), "tiebreak "))
}
