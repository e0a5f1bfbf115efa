package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// writeCommands are the commands that change what is stored. Each refuses
// to run without --yes, and with --dry-run prints what it would change
// and changes nothing (main.go checks the flags before connecting).
func writeCommands() []*command {
	return []*command{
		{name: "board remove", nonEmpty: true, args: []string{"[NAME]", "ID..."},
			help:   "remove ids from a board (Board.Remove, atomic); --group GROUP ID...: from every board of a group",
			writes: "removes the entries of the ids, with their member data and rank indexes",
			setup: func(fs *flag.FlagSet) runFunc {
				group := fs.String("group", "", "remove the ids from every board of this `group` (then every argument is an id)")
				return func(ctx context.Context, e *env, a []string) error { return boardRemove(ctx, e, *group, a) }
			}},
		{name: "board clear", nonEmpty: true, args: []string{"NAME"}, help: "empty a board, keeping its descriptor (Board.Clear)",
			writes: "removes every entry of the board; its descriptor stays",
			setup: func(fs *flag.FlagSet) runFunc {
				n := shownFlag(fs, "removed")
				return func(ctx context.Context, e *env, a []string) error { return boardClear(ctx, e, a[0], *n) }
			}},
		{name: "board drop", nonEmpty: true, args: []string{"NAME"}, help: "remove a whole board, descriptor included (Board.Drop): sharded boards, windows and archives too; --windows: every window and archive of a periodic board",
			writes: "removes every key of the board",
			setup: func(fs *flag.FlagSet) runFunc {
				n := shownFlag(fs, "removed")
				windows := fs.Bool("windows", false, "drop every window and archive of the periodic board NAME (NAME:LABEL and NAME:LABEL:final), each atomically")
				return func(ctx context.Context, e *env, a []string) error {
					if *windows {
						given := false
						fs.Visit(func(f *flag.Flag) { given = given || f.Name == "n" })
						if given {
							return usagef("-n lists a board's entries: with --windows the boards themselves are listed")
						}
						return boardDropWindows(ctx, e, a[0])
					}
					return boardDrop(ctx, e, a[0], *n)
				}
			}},
		archiveCommand(),
		migrationCommand(),
		{name: "timeline remove", args: []string{"ROOM", "ID..."}, help: "remove messages from a timeline (Timeline.Remove, one atomic script)",
			writes: "removes the messages of the IDs",
			setup: func(fs *flag.FlagSet) runFunc {
				q := timelineQuery{op: "remove"}
				fs.StringVar(&q.layout, "layout", "", "the IDs' tsid `layout`, required (timelines do not store it): "+strings.Join(layoutNames, ", "))
				fs.StringVar(&q.strategy, "strategy", "auto", "the timeline's `strategy`: LexID, SplitScore, or auto (told by its scores)")
				return func(ctx context.Context, e *env, a []string) error {
					q.room = a[0]
					return timelineRemove(ctx, e, q, a[1:])
				}
			}},
		{name: "map remove", args: []string{"NAME", "KEY..."}, help: "remove keys, each with all its values, from a decimal map (Map.Remove, one atomic script)",
			writes: "removes the keys and their values",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(ctx context.Context, e *env, a []string) error { return mapRemove(ctx, e, a[0], a[1:]) }
			}},
		{name: "limiter reset", args: []string{"KEY"}, help: "forget every request logged for a rate-limited key (Limiter.Reset)",
			writes: "removes the key's log of requests",
			setup: func(fs *flag.FlagSet) runFunc {
				prefix := fs.String("limiter-prefix", defaultLimiterPrefix, limiterPrefixHelp)
				return func(ctx context.Context, e *env, a []string) error { return limiterReset(ctx, e, *prefix, a[0]) }
			}},
	}
}

// changeOut is what a writing command changed, or with --dry-run would
// change, in JSON.
type changeOut struct {
	Command string `json:"command"`
	Object  string `json:"object"`
	DryRun  bool   `json:"dryRun"`
	// Keys are the Redis keys it changes (removes, empties or creates).
	Keys []string `json:"keys"`
	// Count is how many entries, messages, keys or requests it removes
	// (copies, for an archive).
	Count int64 `json:"count"`
	// Affected names them: ids, message IDs, map keys (for board
	// clear, drop and archive, the ids of Entries).
	Affected []string `json:"affected"`
	// Entries are the board entries affected, as they were (for board
	// clear, drop and archive, the best -n of them).
	Entries []entryOut `json:"entries,omitempty"`
	// Boards are the boards of a group each id was removed from; for
	// board drop --windows, the windows and archives dropped, each with
	// its keys.
	Boards map[string][]string `json:"boards,omitempty"`
}

// report prints what a writing command changed, or would change: the
// table t (if any rows) then what was done.
func report(e *env, g *globals, c changeOut, t *table, what string) error {
	c.DryRun = g.dryRun
	if c.Keys == nil {
		c.Keys = []string{}
	}
	if c.Affected == nil {
		c.Affected = []string{}
	}
	if t == nil {
		t = &table{}
	}
	if g.dryRun {
		t.note("dry run: %s would %s; nothing changed", c.Command, what)
	} else {
		t.note("%s: done: %s", c.Command, what)
	}
	if len(c.Keys) > 0 {
		t.note("keys: %s", strings.Join(c.Keys, " "))
	}
	return e.out.emit(c, t)
}

// globalsOf is the parsed flags of the running command; execute keeps
// them in env.
func globalsOf(e *env) *globals { return e.g }

// boardRef is a board named on the command line, resolved.
type boardRef struct {
	arg, group, name string
	b                *board.Board
}

// openRef opens the board arg names: "name", or "group/name" for a board
// of a group.
func openRef(ctx context.Context, e *env, arg string) (*boardRef, error) {
	group, name := groupOf(ctx, e, "", arg)
	b, err := openBoard(ctx, e, group, name)
	if err != nil {
		return nil, err
	}
	return &boardRef{arg: arg, group: group, name: name, b: b}, nil
}

// boardKeys returns the existing keys of board name of group, sorted:
// those under its prefix (less those of a group or a league of the same
// name), and those of its shards, current, target and retired, for a
// sharded board.
// With entriesOnly, its meta HASH and tombstones (strings) are left out.
func boardKeys(ctx context.Context, e *env, group, name string, entriesOnly bool) ([]string, error) {
	prefix := boardPrefix(group, name)
	keys, err := redisops.ScanKeys(ctx, e.client, globEscape(prefix)+"*")
	if err != nil {
		return nil, fmt.Errorf("SCAN %s*: %w", prefix, err)
	}
	keys = slices.DeleteFunc(keys, func(k string) bool {
		// a group of the same name's boards; a league of the same name's descriptor
		return group == "" && (strings.HasPrefix(k, prefix+"{") || k == prefix+"league")
	})
	meta := boardMetaKey(group, name)
	m, err := e.client.Do(ctx, e.client.B().Hgetall().Key(meta).Build()).AsStrMap()
	if err != nil {
		return nil, fmt.Errorf("HGETALL %s: %w", meta, err)
	}
	for _, s := range shardNames(m) {
		sk, err := boardKeys(ctx, e, "", s, entriesOnly)
		if err != nil {
			return nil, err
		}
		keys = append(keys, sk...)
	}
	if entriesOnly {
		types := make(rueidis.Commands, len(keys))
		for i, k := range keys {
			types[i] = e.client.B().Type().Key(k).Build()
		}
		var kept []string
		for i, r := range e.client.DoMulti(ctx, types...) {
			typ, err := r.ToString()
			if err != nil {
				return nil, fmt.Errorf("TYPE %s: %w", keys[i], err)
			}
			if entryKey(keys[i], typ) && keys[i] != meta {
				kept = append(kept, keys[i])
			}
		}
		keys = kept
	}
	slices.Sort(keys)
	return slices.Compact(keys), nil
}

// entryKey reports whether key k, of type typ, holds a board's entries or
// what they give (Clear empties it): not a meta HASH, an archive's state
// HASH or a tombstone (a string), but KeepTop's string of the best
// entries.
func entryKey(k, typ string) bool {
	switch {
	case typ == "none", strings.HasSuffix(k, ":meta"), strings.HasSuffix(k, ":archive"):
		return false
	case typ == "string":
		return strings.HasSuffix(k, ":top")
	}
	return true
}

// shardNames returns the names of the shards a sharded board's meta HASH
// m names: current, target of a resharding, and retired.
func shardNames(m map[string]string) []string {
	var out []string
	for field, v := range m {
		if s, ok := strings.CutPrefix(field, "retired:"); ok {
			out = append(out, s)
		} else if field == metaDesc || field == metaTarget {
			var d storedDescriptor
			if json.Unmarshal([]byte(v), &d) == nil {
				out = append(out, d.ShardNames...)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// allEntries reads every entry of b, best first, with their data.
func allEntries(ctx context.Context, b *board.Board) ([]board.Entry, error) {
	var out []board.Entry
	cursor := ""
	for {
		l, err := b.Scan(ctx, cursor, 1000, board.WithData())
		if err != nil {
			return nil, err
		}
		out = append(out, l.Entries...)
		if l.Next == "" {
			return out, nil
		}
		cursor = l.Next
	}
}

// entryIDs returns the ids of es.
func entryIDs(es []board.Entry) []string {
	ids := make([]string, len(es))
	for i, en := range es {
		ids[i] = en.ID
	}
	return ids
}

func boardRemove(ctx context.Context, e *env, group string, args []string) error {
	nIDs := len(args) // with --group, every argument is an id; else the first is the board
	if group == "" {
		nIDs--
	}
	if nIDs > maxRemoveIDs {
		return usagef("%d ids, over %d: remove them in several runs", nIDs, maxRemoveIDs)
	}
	if group != "" {
		return groupRemove(ctx, e, group, args)
	}
	if len(args) < 2 {
		return usagef("want a board NAME and at least one ID (or --group GROUP and IDs), got %q", args)
	}
	r, err := openRef(ctx, e, args[0])
	if err != nil {
		return err
	}
	owner, err := ownerOf(ctx, e, r.group, r.name)
	if err != nil {
		return err
	}
	if strings.HasPrefix(owner, "a shard") {
		return fmt.Errorf("board %s is %s: remove the ids through it", r.arg, owner)
	}
	ids := args[1:]
	data := true
	opts := boardRead{data: &data}.options(r.b)
	l, err := r.b.Among(ctx, ids, opts...)
	damaged := false
	if errors.Is(err, board.ErrReply) && r.b.Options().DenseRanks {
		// The dense index lacks some entry's tuple (keys written by hand):
		// Remove repairs it; the preview goes without dense ranks.
		opts = []board.ReadOption{board.WithRanks(board.Competition), board.WithTotal(), board.WithData()}
		l, err = r.b.Among(ctx, ids, opts...)
		damaged = err == nil
	}
	if err != nil {
		return err
	}
	var hidden []string
	if l.Entries, hidden, err = withHidden(ctx, e, r.b, ids, l.Entries, opts...); err != nil {
		return err
	}
	keys, err := boardKeys(ctx, e, r.group, r.name, true)
	if err != nil {
		return err
	}
	// Remove leaves the attempts (Rules) as they are.
	keys = slices.DeleteFunc(keys, func(k string) bool { return strings.HasSuffix(k, ":a") })
	if !slices.ContainsFunc(l.Entries, func(en board.Entry) bool { return en.Data != nil }) {
		// No entry removed has member data: the data HASH stays as it is.
		keys = slices.DeleteFunc(keys, func(k string) bool { return strings.HasSuffix(k, ":d") })
	}
	t, out := entriesTable(r.b, l.Entries, 0, true)
	noteHidden(t, "", hidden)
	if damaged {
		t.note("DENSE shows 0: the board's dense index lacks some entry's tuple (keys written other than through the library); removing the entries repairs it")
	}
	if owner != "" {
		t.note("board %s is %s: the members removed keep their placements in the league", r.arg, owner)
	}
	c := changeOut{Command: "board remove", Object: r.arg, Keys: keys, Count: int64(len(l.Entries)), Affected: entryIDs(l.Entries), Entries: out.Entries}
	g := globalsOf(e)
	if !g.dryRun {
		if c.Count, err = r.b.Remove(ctx, ids...); err != nil {
			return err
		}
	}
	return report(e, g, c, t, fmt.Sprintf("remove %s of the %d given from board %s", count(c.Count, "entries"), len(ids), r.arg))
}

// groupBoards opens every board of group, in name order.
func groupBoards(ctx context.Context, e *env, group string) ([]*boardRef, error) {
	if err := checkName("group", group); err != nil {
		return nil, err
	}
	prefix := "tb:{" + group + "}:{"
	metas, err := redisops.ScanKeys(ctx, e.client, globEscape(prefix)+"*}:meta")
	if err != nil {
		return nil, fmt.Errorf("SCAN %s*}:meta: %w", prefix, err)
	}
	slices.Sort(metas)
	var out []*boardRef
	for _, k := range metas {
		name, rest, ok := cutBraced(strings.TrimPrefix(k, "tb:{"+group+"}:"))
		if !ok || rest != ":meta" {
			continue
		}
		r, err := openRef(ctx, e, group+"/"+name)
		if err != nil {
			return nil, err
		}
		r.group, r.name = group, name
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("group %q has no boards (not found)", group)
	}
	return out, nil
}

// groupRemove removes ids from every board of group and from its shared
// member data (removeFromGroup: one atomic script for up to 64 boards).
// boardNamedFirst refuses a group removal whose first id names a board of
// the group and is stored as no id: the read commands take --group for
// the board's group, so that board was most likely meant as the board.
// An id stored under that name is removed as any other.
func boardNamedFirst(refs []*boardRef, group, first string, affected map[string]bool) error {
	if affected[first] {
		return nil
	}
	for _, r := range refs {
		if first == r.name || first == group+"/"+r.name {
			return usagef("%q names a board of group %s and is no id stored there, and with --group every argument is an id, removed from every board of the group: to remove ids from that board alone, spell it %s/%s without --group", first, group, group, r.name)
		}
	}
	return nil
}

func groupRemove(ctx context.Context, e *env, group string, ids []string) error {
	refs, err := groupBoards(ctx, e, group)
	if err != nil {
		return err
	}
	c := changeOut{Command: "board remove", Object: "group " + group, Boards: map[string][]string{}}
	t := &table{header: []string{"BOARD", "ID"}}
	affected := map[string]bool{}
	var boards []*board.Board
	sharedData := false
	for _, r := range refs {
		boards = append(boards, r.b)
		sharedData = sharedData || r.b.Options().SharedData
		l, err := r.b.Among(ctx, ids)
		if err != nil {
			return err
		}
		var hidden []string
		if l.Entries, hidden, err = withHidden(ctx, e, r.b, ids, l.Entries, board.WithData()); err != nil {
			return err
		}
		noteHidden(t, r.name, hidden)
		keys, err := boardKeys(ctx, e, group, r.name, true)
		if err != nil {
			return err
		}
		c.Keys = append(c.Keys, keys...)
		if len(l.Entries) > 0 {
			c.Boards[r.name] = entryIDs(l.Entries)
		}
		for _, en := range l.Entries {
			t.add(r.name, text([]byte(en.ID)))
			affected[en.ID] = true
			c.Count++
		}
	}
	shared := "tb:{" + group + "}:data"
	data, err := e.client.Do(ctx, e.client.B().Hmget().Key(shared).Field(ids...).Build()).ToArray()
	if err != nil {
		return fmt.Errorf("HMGET %s: %w", shared, err)
	}
	for i, id := range ids {
		if i < len(data) && !data[i].IsNil() {
			t.add("(shared data)", text([]byte(id)))
			affected[id] = true
			c.Keys = append(c.Keys, shared)
		}
	}
	if err := boardNamedFirst(refs, group, ids[0], affected); err != nil {
		return err
	}
	for _, id := range ids {
		if affected[id] {
			c.Affected = append(c.Affected, id)
		}
	}
	slices.Sort(c.Keys)
	c.Keys = slices.Compact(c.Keys)
	g := globalsOf(e)
	if !g.dryRun {
		if c.Count, err = removeFromGroup(ctx, boards, ids); err != nil {
			return err
		}
	}
	if part := groupPart(len(ids)); len(refs) > part {
		t.note("the group has more boards than one atomic Group.Remove of %d ids takes (%d): they are removed from in atomic parts of %d", len(ids), part, part)
	}
	if owner, err := ownerOf(ctx, e, group, refs[0].name); err != nil {
		return err
	} else if owner != "" {
		t.note("group %s holds the cohort boards of a league (%s): the members removed keep their placements in the league", group, owner)
	}
	what := fmt.Sprintf("remove %s (%d of the %d ids given) from the %d boards of group %s", count(c.Count, "entries"), len(c.Affected), len(ids), len(refs), group)
	if sharedData {
		what += " and its shared data"
	}
	return report(e, g, c, t, what)
}

// removeFromGroup removes ids from boards with Group.Remove: one atomic
// script for up to groupPart boards; a group of more is removed from in
// parts of that many, each atomic, not across them (a failure says how
// far it went; the command run again finds what is left). It returns how
// many entries were removed.
func removeFromGroup(ctx context.Context, boards []*board.Board, ids []string) (int64, error) {
	var n int64
	part := groupPart(len(ids))
	for from := 0; from < len(boards); from += part {
		g, err := board.NewGroup(boards[from:min(from+part, len(boards))]...)
		if err != nil {
			return n, err
		}
		k, err := g.Remove(ctx, ids...)
		n += k
		if err != nil {
			return n, fmt.Errorf("removed from %d of the %d boards of the group, then: %w", from, len(boards), err)
		}
	}
	return n, nil
}

// groupPart is the most boards of a group one Group.Remove removes n ids
// from: the most a Group holds (64), and at most 16,000 ids times boards
// (Group.Remove's bound on its work).
func groupPart(n int) int { return max(1, min(64, 16000/max(n, 1))) }

// shownFlag is the flag -n of a command that removes or copies a whole
// board's entries: how many of them it lists, best first.
func shownFlag(fs *flag.FlagSet, what string) *int {
	return fs.Int("n", 10, fmt.Sprintf("how many of the entries %s to list, best first (0 to %d)", what, 1000))
}

// withHidden adds to es, the entries of ids that reads show, those of ids
// that b hides (a board with Hiding): Remove removes them too. Each is
// the entry its member sees (Get with AsSelf). It returns the ids it
// added.
func withHidden(ctx context.Context, e *env, b *board.Board, ids []string, es []board.Entry, opts ...board.ReadOption) ([]board.Entry, []string, error) {
	_, hidden, err := hiddenIDs(ctx, e, b)
	if err != nil || len(hidden) == 0 {
		return es, nil, err
	}
	var added []string
	for _, id := range ids {
		if !slices.Contains(hidden, id) || slices.ContainsFunc(es, func(en board.Entry) bool { return en.ID == id }) {
			continue
		}
		en, err := b.Get(ctx, id, append([]board.ReadOption{board.AsSelf()}, opts...)...)
		if errors.Is(err, board.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		es = append(es, en)
		added = append(added, id)
	}
	return es, added, nil
}

// noteHidden notes in t the ids listed that the board (on) hides: their
// ranks are those their members see, as if shown.
func noteHidden(t *table, on string, ids []string) {
	if len(ids) == 0 {
		return
	}
	quoted := make([]string, len(ids))
	for i, id := range ids {
		quoted[i] = strconv.Quote(id)
	}
	where := ""
	if on != "" {
		where = " on " + on
	}
	t.note("hidden%s (Options.Hiding), listed with the ranks their members see: %s", where, strings.Join(quoted, ", "))
	t.note("removing a hidden entry removes its hiding: the member's next write shows it to others (board.Board.Hide it again then)")
}

// shownEntries reads the best min(n, count) entries of b, with every
// rank kind and their data, into c (Entries, and their ids in Affected)
// and into the table it returns, which notes how many of count it lists.
// It refuses n out of [0, 1000].
func shownEntries(ctx context.Context, b *board.Board, n int, count int64, c *changeOut) (*table, error) {
	if n < 0 || n > 1000 {
		return nil, usagef("-n %d out of range [0, %d]", n, 1000)
	}
	if n == 0 || count == 0 {
		return &table{}, nil
	}
	data := true
	l, err := b.Top(ctx, int(min(int64(n), count)), boardRead{data: &data}.options(b)...)
	if err != nil {
		return nil, err
	}
	t, out := entriesTable(b, l.Entries, 0, true)
	if int64(len(l.Entries)) < count {
		t.note("the best %d of the %d entries listed (-n)", len(l.Entries), count)
	}
	c.Entries, c.Affected = out.Entries, entryIDs(l.Entries)
	return t, nil
}

func boardClear(ctx context.Context, e *env, arg string, show int) error {
	return boardEmpty(ctx, e, arg, "board clear", true, show, (*board.Board).Clear, func(r *boardRef, n int64, keys []string) string {
		return fmt.Sprintf("remove the %s of board %s, keeping its descriptor (%s)", count(n, "entries"), arg, boardMetaKey(r.group, r.name))
	})
}

func boardDrop(ctx context.Context, e *env, arg string, show int) error {
	return boardEmpty(ctx, e, arg, "board drop", false, show, (*board.Board).Drop, func(_ *boardRef, n int64, keys []string) string {
		return fmt.Sprintf("remove board %s: its %s and all %s", arg, count(n, "entries"), count(int64(len(keys)), "keys"))
	})
}

// boardEmpty is board clear (entries only: keys lists those that hold
// entries) and board drop (every key): it reports what do, the library's
// call, removes (the keys, the number of entries and the best show of
// them), and calls it unless it is a dry run.
func boardEmpty(ctx context.Context, e *env, arg, command string, entriesOnly bool, show int, do func(*board.Board, context.Context) error, what func(*boardRef, int64, []string) string) error {
	r, err := openRef(ctx, e, arg)
	if err != nil {
		return err
	}
	if err := refuseOwned(ctx, e, r, command); err != nil {
		return err
	}
	if entriesOnly {
		if err := refuseMoving(ctx, e, r, command); err != nil {
			return err
		}
	}
	n, err := storedLen(ctx, e, r)
	if err != nil {
		return err
	}
	_, hidden, err := hiddenIDs(ctx, e, r.b)
	if err != nil {
		return err
	}
	keys, err := boardKeys(ctx, e, r.group, r.name, entriesOnly)
	if err != nil {
		return err
	}
	c := changeOut{Command: command, Object: arg, Keys: keys, Count: n + int64(len(hidden))}
	t, err := shownEntries(ctx, r.b, show, n, &c)
	if err != nil {
		return err
	}
	if len(hidden) > 0 {
		t.note("and %s it hides, not listed (board hidden lists them): with their entries go their hidings, so their members' next writes show them to others", count(int64(len(hidden)), "entries"))
	}
	n = c.Count
	g := globalsOf(e)
	if !g.dryRun {
		if err := do(r.b, ctx); err != nil {
			return err
		}
	}
	return report(e, g, c, t, what(r, n, keys))
}

// storedLen is how many entries board r holds: Len, but on a sharded
// board with a Cap the sum of its shards' (each keeps its best Cap, and
// reads show the best Cap of them all).
func storedLen(ctx context.Context, e *env, r *boardRef) (int64, error) {
	if o := r.b.Options(); o.Shards == 0 || o.Cap == 0 {
		return r.b.Len(ctx)
	}
	_, m, err := readBoardMeta(ctx, e, r.group, r.name)
	if err != nil {
		return 0, err
	}
	var d storedDescriptor
	if err := json.Unmarshal([]byte(m[metaDesc]), &d); err != nil {
		return 0, fmt.Errorf("the descriptor of %s: %w", r.arg, err)
	}
	var n int64
	for _, s := range d.ShardNames {
		b, err := openBoard(ctx, e, "", s)
		if err != nil {
			return 0, err
		}
		k, err := b.Len(ctx)
		if err != nil {
			return 0, err
		}
		n += k
	}
	return n, nil
}

// ownerOf says what owns board name of group, "" when nothing does: the
// sharded board of which it is a shard (current, a resharding's target, or
// retired), or the league of which it is a cohort board (its group is a
// league's partition, which holds the key league).
func ownerOf(ctx context.Context, e *env, group, name string) (string, error) {
	if group != "" {
		i := strings.LastIndex(group, "~")
		if i <= 0 {
			return "", nil
		}
		key := "tb:{" + group + "}:league"
		found, err := e.client.Do(ctx, e.client.B().Exists().Key(key).Build()).AsInt64()
		if err != nil {
			return "", fmt.Errorf("EXISTS %s: %w", key, err)
		}
		if found == 0 {
			return "", nil
		}
		return fmt.Sprintf("a cohort board of league %s (partition %s)", shellQuote(group[:i]), group[i+1:]), nil
	}
	i := strings.LastIndex(name, "~")
	if i <= 0 {
		return "", nil
	}
	parent := name[:i]
	meta := boardMetaKey("", parent)
	m, err := e.client.Do(ctx, e.client.B().Hgetall().Key(meta).Build()).AsStrMap()
	if err != nil {
		return "", fmt.Errorf("HGETALL %s: %w", meta, err)
	}
	if !slices.Contains(shardNames(m), name) {
		return "", nil
	}
	return fmt.Sprintf("a shard of sharded board %s", shellQuote(parent)), nil
}

// refuseOwned refuses command on a board that a sharded board or a league
// owns (see ownerOf): it would change a part of them behind their back.
func refuseOwned(ctx context.Context, e *env, r *boardRef, command string) error {
	owner, err := ownerOf(ctx, e, r.group, r.name)
	if err != nil || owner == "" {
		return err
	}
	instead := "empty or drop the sharded board itself (board clear, board drop)"
	if strings.HasPrefix(owner, "a cohort") {
		instead = "the league's cohort boards go with the league (league.League.Drop)"
	}
	return fmt.Errorf("board %s is %s: %s would change it behind its owner's back; %s", r.arg, owner, command, instead)
}

// refuseMoving refuses, as Board.Clear does, a board that is migrating
// or resharding: its dry run too, so that it does not announce a change
// the command would then refuse.
func refuseMoving(ctx context.Context, e *env, r *boardRef, command string) error {
	_, m, err := readBoardMeta(ctx, e, r.group, r.name)
	if err != nil {
		return err
	}
	if st := m[metaState]; st != "" && st != "live" {
		return fmt.Errorf("board %s is %s: %s changes nothing until that ends (%s shows it)", r.arg, st, command, commandLine("board migration", []string{r.arg}))
	}
	return nil
}

// periodicBoards returns the names of the windows (NAME:LABEL, a board
// whose meta HASH has an expiry) and archives (NAME:LABEL:final, with the
// state HASH of its making) of the periodic board name of group, sorted;
// not those of another periodic board whose name starts with NAME:.
func periodicBoards(ctx context.Context, e *env, group, name string) ([]string, error) {
	pattern := "tb:{" + globEscape(name) + ":*}:meta"
	if group != "" {
		pattern = "tb:{" + globEscape(group) + "}:{" + globEscape(name) + ":*}:meta"
	}
	metas, err := redisops.ScanKeys(ctx, e.client, pattern)
	if err != nil {
		return nil, fmt.Errorf("SCAN %s: %w", pattern, err)
	}
	var out []string
	for _, k := range metas {
		head := "tb:{"
		if group != "" {
			head = "tb:{" + group + "}:{"
		}
		inner := strings.TrimSuffix(strings.TrimPrefix(k, head), "}:meta")
		label, ok := strings.CutPrefix(inner, name+":")
		base, final := strings.CutSuffix(label, ":final")
		// A window's label holds no ':' (board.Window.Label): NAME:raid:LABEL
		// is a window of another periodic board, NAME:raid.
		if !ok || base == "" || strings.ContainsAny(base, "{}:") {
			continue
		}
		// An archive is a board of its own; a window is a board whose meta
		// HASH has an expiry.
		var is bool
		if final {
			n, err := e.client.Do(ctx, e.client.B().Exists().Key(boardPrefix(group, inner)+"archive").Build()).AsInt64()
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", k, err)
			}
			is = n == 1
		} else {
			err := e.client.Do(ctx, e.client.B().Hget().Key(k).Field("expire").Build()).Error()
			if err != nil && !rueidis.IsRedisNil(err) {
				return nil, fmt.Errorf("reading %s: %w", k, err)
			}
			is = err == nil
		}
		if is {
			out = append(out, inner)
		}
	}
	slices.Sort(out)
	return out, nil
}

// boardDropWindows drops every window and archive of the periodic board
// arg ("name" or "group/name"), each with Board.Drop (atomic for each
// board; not across them: a failure leaves the others dropped, and the
// command run again finds those left).
func boardDropWindows(ctx context.Context, e *env, arg string) error {
	group, name, _ := strings.Cut(arg, "/")
	if name == "" {
		group, name = "", arg
	}
	if err := checkName(kindBoard, name); err != nil {
		return err
	}
	names, err := periodicBoards(ctx, e, group, name)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("periodic board %q has no window or archive (no key matches %s)", arg, boardMetaKey(group, name+":*"))
	}
	c := changeOut{Command: "board drop", Object: arg, Boards: map[string][]string{}}
	t := &table{header: []string{"BOARD", "ENTRIES", "KEYS"}}
	var boards []*board.Board
	for _, n := range names {
		b, err := openBoard(ctx, e, group, n)
		if err != nil {
			return err
		}
		size, err := b.Len(ctx)
		if err != nil {
			return err
		}
		_, hidden, err := hiddenIDs(ctx, e, b)
		if err != nil {
			return err
		}
		size += int64(len(hidden))
		keys, err := boardKeys(ctx, e, group, n, false)
		if err != nil {
			return err
		}
		boards = append(boards, b)
		spelled := spelling(b)
		c.Boards[spelled] = keys
		c.Keys = append(c.Keys, keys...)
		c.Affected = append(c.Affected, spelled)
		c.Count += size
		t.add(spelled, fmt.Sprint(size), fmt.Sprint(len(keys)))
	}
	slices.Sort(c.Keys)
	g := globalsOf(e)
	if !g.dryRun {
		for i, b := range boards {
			if err := b.Drop(ctx); err != nil {
				return fmt.Errorf("dropping %s (%d of %d; those before it are dropped): %w", spelling(b), i+1, len(names), err)
			}
		}
	}
	return report(e, g, c, t, fmt.Sprintf("remove the %d windows and archives of periodic board %s: %s, %s",
		len(names), arg, count(c.Count, "entries"), count(int64(len(c.Keys)), "keys")))
}

// maxRemoveIDs is the most ids of one Board.Remove or Group.Remove (and
// of one Among, which previews them): more are refused before anything
// is read.
const maxRemoveIDs = 1000
