package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/windowspan"
)

// The fields of a board's meta HASH (board/lua/meta.lua reads the same).
const (
	metaDesc     = "desc"     // the descriptor, JSON
	metaGen      = "gen"      // the generation holding the entries
	metaState    = "state"    // "live" or "migrating"
	metaTarget   = "target"   // while migrating: the target's descriptor
	metaTgen     = "tgen"     // while migrating: the target's generation
	metaDefaults = "defaults" // while migrating: values of the new fields, JSON
	metaPScore   = "pscore"   // while migrating: the score of the last entry copied ("done" at the end)
	metaPMember  = "pmember"  // while migrating: the member of the last entry copied
	metaExpire   = "expire"   // a periodic window: when its keys expire, Unix ms
	metaSpan     = "span"     // a periodic window: its start and end, Unix ms, "start-end"
)

// storedDescriptor is a board's descriptor as the board stores it, JSON
// in the field "desc" of its meta HASH: the command reads the stored
// format itself, so that it shows what is stored even where the library
// would refuse it.
type storedDescriptor struct {
	Version    int           `json:"version"`
	Radix      int           `json:"radix"`
	Fields     []storedField `json:"fields"`
	Strategy   string        `json:"strategy"`
	Cap        int64         `json:"cap"`
	DenseRanks bool          `json:"denseRanks"`
	SharedData bool          `json:"sharedData,omitempty"`
	Shards     int           `json:"shards,omitempty"`
	ShardNames []string      `json:"shardNames,omitempty"`
	ShardGen   int           `json:"shardGen,omitempty"`
	Lookup     string        `json:"lookup,omitempty"`
	Hiding     bool          `json:"hiding,omitempty"`
	KeepTop    int           `json:"keepTop,omitempty"`
	Bounds     []storedBound `json:"bounds,omitempty"`
	Rules      *storedRules  `json:"rules,omitempty"`
}

// storedBound is one field's bounds (board.Options.Bounds).
type storedBound struct {
	Field string  `json:"field"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
}

// storedRules are a tournament's rules as the descriptor stores them:
// times in Unix milliseconds, 0 for none.
type storedRules struct {
	Start        int64 `json:"start,omitempty"`
	End          int64 `json:"end,omitempty"`
	JoinRequired bool  `json:"joinRequired,omitempty"`
	MaxMembers   int64 `json:"maxMembers,omitempty"`
	MaxAttempts  int64 `json:"maxAttempts,omitempty"`
	// RoundStart and RoundEnd bound a periodic board's window, its round.
	RoundStart int64 `json:"roundStart,omitempty"`
	RoundEnd   int64 `json:"roundEnd,omitempty"`
}

// String describes the rules as one line: "start ..., end ..., join
// required, at most 100 members, at most 3 attempts each, this window's
// round ... to ...".
func (r *storedRules) String() string {
	var parts []string
	if r.Start != 0 {
		parts = append(parts, "start "+time.UnixMilli(r.Start).UTC().Format(time.RFC3339Nano))
	}
	if r.End != 0 {
		parts = append(parts, "end "+time.UnixMilli(r.End).UTC().Format(time.RFC3339Nano))
	}
	if r.JoinRequired {
		parts = append(parts, "join required")
	}
	if r.MaxMembers > 0 {
		parts = append(parts, fmt.Sprintf("at most %d members", r.MaxMembers))
	}
	if r.MaxAttempts > 0 {
		parts = append(parts, fmt.Sprintf("at most %d attempts each", r.MaxAttempts))
	}
	if r.RoundStart != 0 {
		parts = append(parts, "this window's round "+time.UnixMilli(r.RoundStart).UTC().Format(time.RFC3339Nano)+" to "+time.UnixMilli(r.RoundEnd).UTC().Format(time.RFC3339Nano))
	}
	return strings.Join(parts, ", ")
}

// options are the rules as board.Options holds them.
func (r *storedRules) options() board.Rules {
	if r == nil {
		return board.Rules{}
	}
	o := board.Rules{JoinRequired: r.JoinRequired, MaxMembers: r.MaxMembers, MaxAttempts: r.MaxAttempts}
	if r.Start != 0 {
		o.Start = time.UnixMilli(r.Start)
	}
	if r.End != 0 {
		o.End = time.UnixMilli(r.End)
	}
	return o
}

// storedField is one field of a storedDescriptor.
type storedField struct {
	Name   string `json:"name"`
	Width  int    `json:"width"`
	Dir    string `json:"dir"`
	Signed bool   `json:"signed,omitempty"`
}

// String describes the field as pack.Layout.String does: "time:32/lower".
func (f storedField) String() string {
	s := fmt.Sprintf("%s:%d", f.Name, f.Width)
	if f.Dir != "HigherIsBetter" {
		s += "/lower"
	}
	if f.Signed {
		s += "/signed"
	}
	return s
}

// description is board describe's answer in JSON.
type description struct {
	Name       string            `json:"name"`
	Group      string            `json:"group,omitempty"`
	Key        string            `json:"key"`
	Descriptor *storedDescriptor `json:"descriptor"`
	Generation int64             `json:"generation"`
	State      string            `json:"state"`
	EntriesKey string            `json:"entriesKey"`
	Entries    int64             `json:"entries"`
	// Entrants is the number of members a tournament (Rules) counts as
	// entered, removed ones included: absent without Rules.
	Entrants *int64 `json:"entrants,omitempty"`
	ExpireAt string `json:"expireAt,omitempty"`
	// Span is a periodic window's start and end, as its first write
	// stored them: "[start, end)" in UTC.
	Span      string     `json:"span,omitempty"`
	Migration *migration `json:"migration,omitempty"`
	// Damaged says why the library cannot open the board from what it
	// stores (a descriptor written by something else, say), or why it
	// cannot answer right (a key-suffix board's id lookup gone while its
	// entries stay): describe shows what is stored, and exits 1.
	Damaged string `json:"damaged,omitempty"`
	// Eviction is the server's maxmemory-policy when it may evict keys
	// (any but noeviction), which can take one key of a board and leave
	// the others; empty when it cannot (or INFO was refused).
	Eviction string `json:"eviction,omitempty"`
	// Archive is set on the archive of a periodic board's window (named
	// NAME:LABEL:final): how far it is made, and with what.
	Archive *archiveOut `json:"archive,omitempty"`
	// Slots are the hash slots of the board's keys and, for a sharded
	// board, of each of its shards; SlotStats reports whether the server
	// offers their statistics (CLUSTER SLOT-STATS), which each slot then
	// holds.
	Slots     []slotOut `json:"slots"`
	SlotStats bool      `json:"slotStats"`
	// SlotStatsRefused reports that the server has the statistics but the
	// user's ACL refused them (+cluster|slot-stats).
	SlotStatsRefused bool `json:"slotStatsRefused,omitempty"`
}

// archiveOut is the state of an archive: "copying" (by a caller, or
// stopped: the next Archive resumes it) or "done", and the options it is
// made with ("Top 1000, kept forever, of [2026-11-23T00:00:00Z,
// 2026-11-24T00:00:00Z)").
type archiveOut struct {
	State   string `json:"state"`
	Options string `json:"options"`
}

// migration is the state of a migration under way.
type migration struct {
	Target     *storedDescriptor  `json:"target"`
	Generation int64              `json:"generation"`
	Defaults   map[string]float64 `json:"defaults,omitempty"`
	// Position is how far the copy has gone: the score and member of the
	// last entry copied (the copy goes on after them), "done" at the end,
	// empty before the first step.
	Position   string `json:"position,omitempty"`
	EntriesKey string `json:"entriesKey"`
	Copied     int64  `json:"copied"`
	// Misfits counts the entries that do not fit the target: the switch
	// waits until they are fixed or removed.
	Misfits    int64  `json:"misfits"`
	MisfitsKey string `json:"misfitsKey"`
}

// boardDescribe prints what board name stores about itself, read from its
// meta HASH as it is.
func boardDescribe(ctx context.Context, e *env, group, name string) error {
	group, name = groupOf(ctx, e, group, name)
	if err := checkName(kindBoard, name); err != nil {
		return err
	}
	if group != "" {
		if err := checkName("group", group); err != nil {
			return err
		}
	}
	key, m, err := readBoardMeta(ctx, e, group, name)
	if err != nil {
		return err
	}
	d, err := describeMeta(name, group, key, m)
	if err != nil {
		return err
	}
	if err := countEntries(ctx, e.client, d); err != nil {
		return err
	}
	archiveKey := boardPrefix(group, name) + "archive"
	a, err := e.client.Do(ctx, e.client.B().Hgetall().Key(archiveKey).Build()).AsStrMap()
	if err != nil {
		return fmt.Errorf("HGETALL %s: %w", archiveKey, err)
	}
	if a["state"] != "" {
		d.Archive = &archiveOut{State: a["state"], Options: a["opts"]}
	}
	object := name
	if group != "" {
		object = group + "/" + name
	}
	d.Slots = []slotOut{slotOf(object, key)}
	for _, s := range d.Descriptor.ShardNames {
		d.Slots = append(d.Slots, slotOf(s, boardMetaKey("", s)))
	}
	if d.SlotStats, d.SlotStatsRefused, err = slotStats(ctx, e.client, d.Slots); err != nil {
		return err
	}
	// Whether the library can open it: a board of one hash tag only, since
	// opening a sharded board may write (a shard's missing descriptor, old
	// shards retired), and describe only reads.
	var oerr error
	if d.Descriptor.Shards == 0 {
		_, oerr = board.Open(ctx, e.client, object, handleOptions)
	}
	if errors.Is(oerr, board.ErrMismatch) || errors.Is(oerr, board.ErrReply) {
		d.Damaged = "the library cannot open it from what it stores: " + oerr.Error()
	}
	d.Eviction = evictionPolicy(ctx, e.client)
	if err := e.out.emit(d, describeTable(d, m[metaDesc])); err != nil {
		return err
	}
	if d.Damaged != "" {
		return fmt.Errorf("board %s is damaged: %s", object, d.Damaged)
	}
	return nil
}

// evictionPolicy is the server's maxmemory-policy (INFO memory) when it
// may evict keys; "" for noeviction, or when INFO is refused.
func evictionPolicy(ctx context.Context, c rueidis.Client) string {
	info, err := redisops.Info(ctx, c, "memory")
	if p := info["maxmemory_policy"]; err == nil && p != "noeviction" {
		return p
	}
	return ""
}

// lookupLost is the damage of a key-suffix board of more than one field
// whose id lookup is gone while its sorted set holds entries: eviction,
// or a key removed by hand ("" when not so).
func lookupLost(d *description, lookupKey string, lookupExists, hidden int64) string {
	if lookupExists != 0 || d.Entries+hidden == 0 {
		return ""
	}
	held := d.EntriesKey + " holds " + count(d.Entries, "entries")
	if hidden > 0 {
		held += " and " + strings.TrimSuffix(d.EntriesKey, "z") + "h " + count(hidden, "entries") + " hidden"
	}
	return fmt.Sprintf("its id lookup %s is gone while %s (evicted, or removed by hand): every read and write of an id fails until the board is read (scan), cleared and written again; see docs/operating.md, Eviction",
		lookupKey, held)
}

// describeMeta reads a meta HASH.
func describeMeta(name, group, key string, m map[string]string) (*description, error) {
	d := &description{Name: name, Group: group, Key: key, State: m[metaState]}
	if d.State == "" {
		d.State = "live" // a meta HASH without a state, as a write rebuilds a dropped board's
	}
	var err error
	if d.Descriptor, err = parseDescriptor(key, metaDesc, m[metaDesc]); err != nil {
		return nil, err
	}
	if d.Generation, err = metaInt(key, metaGen, m[metaGen]); err != nil {
		return nil, err
	}
	d.EntriesKey = boardEntriesKey(group, name, d.Generation)
	if ms, err := metaInt(key, metaExpire, m[metaExpire]); err != nil {
		return nil, err
	} else if ms > 0 {
		d.ExpireAt = stamp(time.UnixMilli(ms))
	}
	if s := m[metaSpan]; s != "" {
		d.Span = windowspan.Text(s)
	}
	if d.State != "migrating" {
		return d, nil
	}
	mig := &migration{Position: m[metaPScore]}
	if m[metaPMember] != "" {
		mig.Position += " " + strconv.Quote(m[metaPMember])
	}
	if mig.Target, err = parseDescriptor(key, metaTarget, m[metaTarget]); err != nil {
		return nil, err
	}
	if mig.Generation, err = metaInt(key, metaTgen, m[metaTgen]); err != nil {
		return nil, err
	}
	if s := m[metaDefaults]; s != "" && json.Unmarshal([]byte(s), &mig.Defaults) != nil {
		return nil, fmt.Errorf("%s: field %s = %q is not a JSON object of numbers", key, metaDefaults, s)
	}
	mig.EntriesKey = boardEntriesKey(group, name, mig.Generation)
	mig.MisfitsKey = boardMisfitsKey(group, name, d.Generation)
	d.Migration = mig
	return d, nil
}

// parseDescriptor reads a descriptor stored in field of the meta HASH key.
func parseDescriptor(key, field, s string) (*storedDescriptor, error) {
	if s == "" {
		return nil, fmt.Errorf("%s has no field %s: keys without a descriptor are not a board (not found)", key, field)
	}
	var d storedDescriptor
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		return nil, fmt.Errorf("%s: field %s is not a descriptor (%v): %q", key, field, err, s)
	}
	return &d, nil
}

// metaInt reads a whole number of the meta HASH; absent is 0.
func metaInt(key, field, s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: field %s = %q is not a whole number", key, field, s)
	}
	return n, nil
}

// countEntries fills in the entries of the board and of its migration's
// target, in one round trip.
func countEntries(ctx context.Context, c rueidis.Client, d *description) error {
	if d.State == "retired" { // a shard a resharding left: its keys are tombstones, it holds nothing
		return nil
	}
	if d.Descriptor.Shards > 0 {
		sb, err := board.Open(ctx, c, d.Name, board.Options{})
		if err == nil {
			d.Entries, err = sb.Len(ctx)
		}
		return err
	}
	cmds := rueidis.Commands{c.B().Zcard().Key(d.EntriesKey).Build()}
	counts := []*int64{&d.Entries}
	if m := d.Migration; m != nil {
		cmds = append(cmds, c.B().Zcard().Key(m.EntriesKey).Build(), c.B().Scard().Key(m.MisfitsKey).Build())
		counts = append(counts, &m.Copied, &m.Misfits)
	}
	if d.Descriptor.Rules != nil {
		d.Entrants = new(int64)
		cmds = append(cmds, c.B().Hlen().Key(strings.TrimSuffix(d.Key, "meta")+"a").Build())
		counts = append(counts, d.Entrants)
	}
	var lookupKey string
	var lookupExists, hidden int64
	if d.Descriptor.Strategy == board.KeySuffix.String() && len(d.Descriptor.Fields) > 1 {
		lookupKey = strings.TrimSuffix(d.EntriesKey, "z") + "i"
		cmds = append(cmds, c.B().Exists().Key(lookupKey).Build())
		counts = append(counts, &lookupExists)
		if d.Descriptor.Hiding { // hidden entries have lookup records too
			cmds = append(cmds, c.B().Zcard().Key(strings.TrimSuffix(d.EntriesKey, "z")+"h").Build())
			counts = append(counts, &hidden)
		}
	}
	names := make([]string, len(cmds)) // before DoMulti, which may recycle cmds
	for i, cmd := range cmds {
		names[i] = strings.Join(cmd.Commands(), " ")
	}
	rs := c.DoMulti(ctx, cmds...)
	for i, n := range counts {
		var err error
		if *n, err = rs[i].AsInt64(); err != nil {
			return fmt.Errorf("%s: %w", names[i], err)
		}
	}
	if lookupKey != "" {
		d.Damaged = lookupLost(d, lookupKey, lookupExists, hidden)
	}
	return nil
}

// describedName is the spelling of d's board every command takes.
func describedName(d *description) string {
	if d.Group != "" {
		return d.Group + "/" + d.Name
	}
	return d.Name
}

// describeTable lays a description out for people.
func describeTable(d *description, raw string) *table {
	t := &table{}
	t.add("board", describedName(d)) // the spelling every command takes
	if d.Group != "" {
		t.add("group", d.Group)
	}
	t.add("key", d.Key)
	addDescriptor(t, "", d.Descriptor)
	if d.Descriptor.Shards > 0 {
		t.add("shards", fmt.Sprintf("%d, each a board of its own: %s", d.Descriptor.Shards, strings.Join(d.Descriptor.ShardNames, ", ")))
	} else {
		t.add("generation", fmt.Sprintf("%d (entries in %s)", d.Generation, d.EntriesKey))
	}
	state := d.State
	if state == "resharding" { // its progress is per shard: board migration reads it
		state += " (tiebreak board migration " + describedName(d) + " shows its progress)"
	}
	t.add("state", state)
	t.add("entries", fmt.Sprint(d.Entries))
	if d.Entrants != nil {
		entrants := fmt.Sprint(*d.Entrants)
		if most := d.Descriptor.Rules.MaxMembers; most > 0 {
			entrants += fmt.Sprintf(" of at most %d (removed members stay entrants)", most)
		}
		t.add("entrants", entrants)
	}
	if a := d.Archive; a != nil {
		state := "made"
		if a.State != "done" {
			state = "being made (or stopped: the next Archive resumes it)"
		}
		t.add("archive", fmt.Sprintf("the final standings of a window, %s: %s", state, a.Options))
	}
	if d.Span != "" {
		t.add("window", d.Span)
	}
	if d.ExpireAt != "" {
		what := "a periodic window"
		if d.Archive != nil {
			what = "an archive"
		}
		t.add("expires", d.ExpireAt+" ("+what+")")
	}
	if m := d.Migration; m != nil {
		t.add("migrating to", fmt.Sprintf("generation %d (entries in %s)", m.Generation, m.EntriesKey))
		addDescriptor(t, "target ", m.Target)
		if len(m.Defaults) > 0 {
			def, _ := json.Marshal(m.Defaults)
			t.add("new fields' values", string(def))
		}
		t.add("copied", fmt.Sprintf("%d of %s so far (copy position %s)", m.Copied, count(d.Entries, "entries"), cmp.Or(m.Position, "start")))
		if m.Misfits > 0 {
			t.add("misfits", fmt.Sprintf("%s not fitting the target (ids in %s): fix or remove them, then call Migrate again", count(m.Misfits, "entries"), m.MisfitsKey))
		}
	}
	addSlots(t, d.Slots, d.SlotStats, d.SlotStatsRefused)
	if d.Eviction != "" {
		t.add("eviction", "maxmemory-policy "+d.Eviction+": the server may evict one key of a board and keep the others; keep noeviction (docs/operating.md, Eviction)")
	}
	t.add("descriptor", raw)
	if d.Damaged != "" {
		t.add("damaged", d.Damaged)
	}
	return t
}

// addDescriptor adds a descriptor's rows, each label after prefix.
func addDescriptor(t *table, prefix string, d *storedDescriptor) {
	fields := make([]string, len(d.Fields))
	for i, f := range d.Fields {
		fields[i] = f.String()
	}
	radix := map[int]string{2: "bits", 10: "decimal digits"}[d.Radix]
	t.add(prefix+"fields", strings.Join(fields, ", ")+" (widths in "+radix+"; /lower: lower is better)")
	t.add(prefix+"strategy", d.Strategy)
	capText := "none"
	if d.Cap > 0 {
		capText = fmt.Sprintf("the best %d entries", d.Cap)
	}
	t.add(prefix+"cap", capText)
	t.add(prefix+"dense ranks", fmt.Sprint(d.DenseRanks))
	if d.SharedData {
		t.add(prefix+"shared data", "true (member data in the group's HASH)")
	}
	if d.Hiding {
		t.add(prefix+"hiding", "true (board hidden lists the members hidden)")
	}
	if d.KeepTop > 0 {
		t.add(prefix+"keep top", fmt.Sprintf("the best %d, in a key of their own (:top; handles with CacheTop read them from client memory)", d.KeepTop))
	}
	if len(d.Bounds) > 0 {
		var bs []string
		for _, b := range d.Bounds {
			bs = append(bs, fmt.Sprintf("%s in [%s, %s]", b.Field, strconv.FormatFloat(b.Min, 'f', -1, 64), strconv.FormatFloat(b.Max, 'f', -1, 64)))
		}
		t.add(prefix+"bounds", strings.Join(bs, ", "))
	}
	if d.Rules != nil {
		t.add(prefix+"rules", d.Rules.String())
	}
}

// readBoardMeta reads the meta HASH of board name of group as it is, and
// returns its key with it.
func readBoardMeta(ctx context.Context, e *env, group, name string) (string, map[string]string, error) {
	key := boardMetaKey(group, name)
	if err := checkKey(ctx, e, kindBoard, name, key, "hash", defaultLimiterPrefix); err != nil {
		return key, nil, err
	}
	m, err := e.client.Do(ctx, e.client.B().Hgetall().Key(key).Build()).AsStrMap()
	if err != nil {
		return key, nil, fmt.Errorf("HGETALL %s: %w", key, err)
	}
	return key, m, nil
}
