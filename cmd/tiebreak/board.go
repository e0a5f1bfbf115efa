package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/board"
)

func boardCommands() []*command {
	return nonEmpty([]*command{
		{name: "board describe", args: []string{"NAME"}, help: "a board's stored descriptor, generation, migration state, and hash slots (with CLUSTER SLOT-STATS where offered)",
			setup: func(fs *flag.FlagSet) runFunc {
				group := fs.String("group", "", "the board's `group` (board.Options.Group), if it has one")
				return func(ctx context.Context, e *env, a []string) error { return boardDescribe(ctx, e, *group, a[0]) }
			}},
		{name: "board top", args: []string{"NAME"}, help: "the best entries of a board, fields by name, every rank kind",
			setup: func(fs *flag.FlagSet) runFunc {
				r := boardReadFlags(fs, 10, true)
				offset := fs.Int64("offset", 0, "skip this many entries first (0: from rank 1)")
				return func(ctx context.Context, e *env, a []string) error { return boardTop(ctx, e, a[0], *offset, r) }
			}},
		{name: "board get", args: []string{"NAME", "ID"}, help: "one entry of a board",
			setup: func(fs *flag.FlagSet) runFunc {
				r := boardReadFlags(fs, 0, true)
				return func(ctx context.Context, e *env, a []string) error { return boardGet(ctx, e, a[0], a[1], r) }
			}},
		{name: "board rank", args: []string{"NAME", "ID"}, help: "an entry's ranks: ordinal, competition, dense when the board keeps them, and its share of the board (top x%, bounded on a sharded board)",
			setup: func(fs *flag.FlagSet) runFunc {
				r := boardReadFlags(fs, 0, false)
				return func(ctx context.Context, e *env, a []string) error { return boardRank(ctx, e, a[0], a[1], r) }
			}},
		{name: "board around", args: []string{"NAME", "ID"}, help: "n entries around an entry, it among them",
			setup: func(fs *flag.FlagSet) runFunc {
				r := boardReadFlags(fs, 11, true)
				return func(ctx context.Context, e *env, a []string) error { return boardAround(ctx, e, a[0], a[1], r) }
			}},
		{name: "board hidden", args: []string{"NAME"}, help: "the members a board with hiding hides from others (board.Board.Hide), best first, with the entries their members see",
			setup: func(fs *flag.FlagSet) runFunc {
				group := fs.String("group", "", "the board's `group` (board.Options.Group), if it has one")
				return func(ctx context.Context, e *env, a []string) error { return boardHidden(ctx, e, *group, a[0]) }
			}},
		{name: "board entrant", args: []string{"NAME", "ID"}, help: "what a tournament (a board with rules) knows of a member: entered, attempts made and left",
			setup: func(fs *flag.FlagSet) runFunc {
				r := boardReadFlags(fs, 0, false)
				return func(ctx context.Context, e *env, a []string) error { return boardEntrant(ctx, e, a[0], a[1], r) }
			}},
		{name: "board watch", args: []string{"NAME"}, help: "the best entries of a board, printed again each time they change (board.Watch), until interrupted",
			watches: true,
			setup: func(fs *flag.FlagSet) runFunc {
				r := boardReadFlags(fs, 10, true)
				every := fs.Duration("every", time.Second, "read the board again every `interval` (at least 1ms)")
				changes := fs.Int("changes", 0, "stop after this many lists (0: until interrupted, or for --timeout when given)")
				return func(ctx context.Context, e *env, a []string) error {
					return boardWatch(ctx, e, a[0], *every, *changes, r)
				}
			}},
		{name: "board scan", args: []string{"NAME"}, help: "a page of a board by keyset cursor, and the next page's cursor",
			setup: func(fs *flag.FlagSet) runFunc {
				r := boardReadFlags(fs, 100, true)
				cursor := fs.String("cursor", "", "start after this `cursor` (a page's next; default the top)")
				return func(ctx context.Context, e *env, a []string) error { return boardScan(ctx, e, a[0], *cursor, r) }
			}},
	}...)
}

// boardRead are the flags of the board reads: the board's group, n (when
// the read takes one) and whether to show member data.
type boardRead struct {
	group *string
	n     *int
	data  *bool
}

// boardReadFlags defines the flags of a read: --group, -n when the read
// takes n (n > 0, its default), and --data when it shows entries (data).
func boardReadFlags(fs *flag.FlagSet, n int, data bool) boardRead {
	r := boardRead{n: new(int), data: new(bool), group: fs.String("group", "", "the board's `group` (board.Options.Group), if it has one")}
	if data {
		r.data = fs.Bool("data", false, "show each entry's member data")
	}
	if n > 0 {
		r.n = fs.Int("n", n, fmt.Sprintf("how many entries (1 to %d)", 1000))
	}
	return r
}

// options returns the read options of the board's every rank kind and
// its total, and member data if asked.
func (r boardRead) options(b reader) []board.ReadOption {
	opts := []board.ReadOption{rankKinds(b), board.WithTotal()}
	if *r.data {
		opts = append(opts, board.WithData())
	}
	return opts
}

// rankKinds asks a read for the ranks the command shows: competition,
// and dense where b keeps them.
func rankKinds(b reader) board.ReadOption {
	kinds := []board.RankKind{board.Competition}
	if b.Options().DenseRanks {
		kinds = append(kinds, board.Dense)
	}
	return board.WithRanks(kinds...)
}

func (r boardRead) checkN() error {
	if *r.n < 1 || *r.n > 1000 {
		return usagef("-n %d out of range [1, %d]", *r.n, 1000)
	}
	return nil
}

// reader is what the command reads of a board.
type reader = *board.Board

// spelling is how the command names b, as list does and Open reads it:
// group/name for a board of a group, else its name.
func spelling(b reader) string {
	if g := b.Options().Group; g != "" {
		return g + "/" + b.Name()
	}
	return b.Name()
}

// handleOptions are the command's handle settings: ids as long as any
// program may have written (Options.MaxIDLen is a handle's, not stored).
var handleOptions = board.Options{MaxIDLen: 65536}

// openBoard returns a handle to board name of group (none: ""), built
// from its descriptor: a sharded board's when it is one.
func openBoard(ctx context.Context, e *env, group, name string) (reader, error) {
	group, name = groupOf(ctx, e, group, name)
	if group == "" {
		if err := checkObject(ctx, e, kindBoard, name, defaultLimiterPrefix); err != nil {
			return nil, err
		}
		b, err := board.Open(ctx, e.client, name, handleOptions)
		if errors.Is(err, board.ErrMigrating) {
			return nil, retiredShard(ctx, e, "", name, err)
		}
		return openedBoard(name, b, err)
	}
	if err := checkName("group", group); err != nil {
		return nil, err
	}
	if err := checkName(kindBoard, name); err != nil {
		return nil, err
	}
	if err := checkKey(ctx, e, kindBoard, name, boardMetaKey(group, name), "hash", defaultLimiterPrefix); err != nil {
		return nil, err
	}
	b, err := board.Open(ctx, e.client, group+"/"+name, handleOptions)
	return openedBoard(name, b, err)
}

// groupOf reads name as list prints a grouped board, "group/name", when
// no group is given, or the same group, and such a board exists (a board
// whose own name holds a slash is read as it is otherwise).
func groupOf(ctx context.Context, e *env, group, name string) (string, string) {
	g, n, ok := strings.Cut(name, "/")
	if group != "" && group != g || !ok || g == "" || n == "" {
		return group, name
	}
	if found, err := e.client.Do(ctx, e.client.B().Exists().Key(boardMetaKey(g, n)).Build()).AsInt64(); err == nil && found == 1 {
		return g, n
	}
	return group, name
}

// openedBoard explains a board with a meta HASH but no descriptor.
func openedBoard(name string, b *board.Board, err error) (reader, error) {
	if errors.Is(err, board.ErrNotFound) {
		return nil, fmt.Errorf("board %q has a meta HASH but no descriptor: %w", name, err)
	}
	return b, err
}

// entryOut is an entry in JSON.
type entryOut struct {
	ID          string             `json:"id"`
	Rank        int64              `json:"rank"`
	Competition int64              `json:"competition"`
	Dense       *int64             `json:"dense,omitempty"`
	Fields      map[string]float64 `json:"fields"`
	Data        *blob              `json:"data,omitempty"`
}

// entriesOut is a board read in JSON.
type entriesOut struct {
	Board   string     `json:"board"`
	Total   int64      `json:"total"`
	Entries []entryOut `json:"entries"`
	// Scan only.
	HasMore *bool  `json:"hasMore,omitempty"`
	Next    string `json:"next,omitempty"`
	// Watch only: when the list was read, as the table's note gives it.
	At string `json:"at,omitempty"`
}

// entriesTable returns the entries as a table and as JSON.
func entriesTable(b reader, es []board.Entry, total int64, data bool) (*table, entriesOut) {
	dense := b.Options().DenseRanks
	t := &table{header: []string{"RANK", "COMPETITION"}}
	if dense {
		t.header = append(t.header, "DENSE")
	}
	t.header = append(t.header, "ID")
	l := b.Layout()
	for i := range l.Len() {
		t.header = append(t.header, l.Field(i).Name)
	}
	if data {
		t.header = append(t.header, "DATA")
	}
	out := entriesOut{Board: spelling(b), Total: total, Entries: []entryOut{}}
	for _, en := range es {
		row := []string{fmt.Sprint(en.Rank), fmt.Sprint(en.Competition)}
		o := entryOut{ID: en.ID, Rank: en.Rank, Competition: en.Competition, Fields: map[string]float64{}, Data: blobOf(en.Data)}
		if dense {
			row = append(row, fmt.Sprint(en.Dense))
			o.Dense = &en.Dense
		}
		row = append(row, text([]byte(en.ID)))
		for i, v := range en.Values {
			row = append(row, num(v))
			o.Fields[l.Field(i).Name] = v
		}
		if data {
			row = append(row, text(en.Data))
		}
		t.add(row...)
		out.Entries = append(out.Entries, o)
	}
	return t, out
}

// readBoard opens board name and runs read on it with r's options; id,
// if read takes one, is named when it is not on the board.
func readBoard[T any](ctx context.Context, e *env, name, id string, r boardRead,
	read func(reader, []board.ReadOption) (T, error)) (reader, T, error) {
	var zero T
	b, err := openBoard(ctx, e, *r.group, name)
	if err != nil {
		return nil, zero, err
	}
	v, err := read(b, r.options(b))
	if errors.Is(err, board.ErrNotFound) {
		return nil, zero, notOnBoard(ctx, b, name, id)
	}
	if errors.Is(err, board.ErrMigrating) {
		return nil, zero, retiredShard(ctx, e, *r.group, name, err)
	}
	return b, v, err
}

// retiredShard explains err, a read of board name of group refused as
// moving, when the board is a shard a resharding retired: it holds
// nothing.
func retiredShard(ctx context.Context, e *env, group, name string, err error) error {
	_, m, merr := readBoardMeta(ctx, e, group, name)
	if merr != nil || m[metaState] != "retired" {
		return err
	}
	return fmt.Errorf("board %s is a shard that a resharding retired: it holds nothing (its entries moved to its sharded board's new shards, which list shows; it goes when that board is dropped); read the sharded board instead", shellQuote(name))
}

// notOnBoard is the error of a read of id that b does not show: hidden
// (Options.Hiding: its member sees it, others do not) or not found.
func notOnBoard(ctx context.Context, b *board.Board, name, id string) error {
	if b.Options().Hiding {
		if _, err := b.Get(ctx, id, board.AsSelf()); err == nil {
			return fmt.Errorf("id %q is hidden on board %q (board.Board.Hide): reads of others leave it out; %s lists what the board hides", id, name, commandLine("board hidden", []string{name}))
		}
	}
	return fmt.Errorf("id %q is not on board %q (not found)", id, name)
}

func boardTop(ctx context.Context, e *env, name string, offset int64, r boardRead) error {
	if offset < 0 || offset > 1<<53-1 {
		return usagef("--offset %d out of range [0, %d]", offset, int64(1<<53-1))
	}
	return boardList(ctx, e, name, "", r, func(b reader, opts []board.ReadOption) (board.List, error) {
		return b.Page(ctx, offset, *r.n, opts...)
	})
}

// boardList prints the list read gives, with the board's size.
func boardList(ctx context.Context, e *env, name, id string, r boardRead,
	read func(reader, []board.ReadOption) (board.List, error)) error {
	if err := r.checkN(); err != nil {
		return err
	}
	b, l, err := readBoard(ctx, e, name, id, r, read)
	if err != nil {
		return err
	}
	t, out := entriesTable(b, l.Entries, l.Total, *r.data)
	t.note("%d of %d entries", len(l.Entries), l.Total)
	return e.out.emit(out, t)
}

func boardGet(ctx context.Context, e *env, name, id string, r boardRead) error {
	b, en, err := readBoard(ctx, e, name, id, r, func(b reader, opts []board.ReadOption) (board.Entry, error) {
		return b.Get(ctx, id, opts...)
	})
	if err != nil {
		return err
	}
	t, out := entriesTable(b, []board.Entry{en}, 0, *r.data)
	return e.out.emit(getOut{Board: out.Board, entryOut: out.Entries[0]}, t)
}

// getOut is board get's answer in JSON: the entry, named by its board as
// the lists are.
type getOut struct {
	Board string `json:"board"`
	entryOut
}

// rankOut is an entry's ranks in JSON.
type rankOut struct {
	Board       string `json:"board"`
	ID          string `json:"id"`
	Ordinal     int64  `json:"ordinal"`
	Competition int64  `json:"competition"`
	Dense       *int64 `json:"dense,omitempty"`
	// Modified is the modified competition rank (1, 3, 3, 4).
	Modified int64 `json:"modifiedCompetition"`
	// Percentile is the entry's share of the board (board.Board.
	// Percentile), absent on a sharded board whose histograms do not
	// count every entry (a shard written by hand: board.ErrReply).
	Percentile *percentileOut `json:"percentile,omitempty"`
}

// percentileOut is board.Percentile in JSON.
type percentileOut struct {
	Top     float64 `json:"top"`
	Error   float64 `json:"error"`
	MinRank int64   `json:"minRank"`
	MaxRank int64   `json:"maxRank"`
	Total   int64   `json:"total"`
}

// percentText writes p for people: "top 60% (rank 3 of 5)", or with its
// error and the ranks' range when it is not exact.
func percentText(p board.Percentile) string {
	if p.MinRank == p.MaxRank {
		return fmt.Sprintf("%.4g%% (rank %d of %d)", 100*p.Top, p.MinRank, p.Total)
	}
	return fmt.Sprintf("%.4g%% ± %.2g%% (rank %d to %d of %d)", 100*p.Top, 100*p.Error, p.MinRank, p.MaxRank, p.Total)
}

func boardRank(ctx context.Context, e *env, name, id string, r boardRead) error {
	b, en, err := readBoard(ctx, e, name, id, r, func(b reader, opts []board.ReadOption) (board.Entry, error) {
		return b.Get(ctx, id, append(opts, board.WithRanks(board.ModifiedCompetition))...)
	})
	if err != nil {
		return err
	}
	out := rankOut{Board: spelling(b), ID: id, Ordinal: en.Rank, Competition: en.Competition, Modified: en.ModifiedCompetition}
	t := &table{}
	t.add("ordinal", fmt.Sprint(en.Rank))
	t.add("competition", fmt.Sprint(en.Competition))
	if b.Options().DenseRanks {
		out.Dense = &en.Dense
		t.add("dense", fmt.Sprint(en.Dense))
	}
	t.add("modified competition", fmt.Sprint(en.ModifiedCompetition))
	p, err := b.Percentile(ctx, id)
	switch {
	case errors.Is(err, board.ErrReply):
		t.add("top", "unknown: a shard's histogram does not count all its entries (written by hand?); a Reshard to another count builds them")
	case errors.Is(err, board.ErrNotFound):
		return notOnBoard(ctx, b, name, id)
	case err != nil:
		return err
	default:
		out.Percentile = &percentileOut{Top: p.Top, Error: p.Error, MinRank: p.MinRank, MaxRank: p.MaxRank, Total: p.Total}
		t.add("top", percentText(p))
	}
	return e.out.emit(out, t)
}

func boardAround(ctx context.Context, e *env, name, id string, r boardRead) error {
	return boardList(ctx, e, name, id, r, func(b reader, opts []board.ReadOption) (board.List, error) {
		return b.Around(ctx, id, *r.n, opts...)
	})
}

func boardScan(ctx context.Context, e *env, name, cursor string, r boardRead) error {
	if err := r.checkN(); err != nil {
		return err
	}
	b, p, err := readBoard(ctx, e, name, "", r, func(b reader, opts []board.ReadOption) (board.List, error) {
		return b.Scan(ctx, string(cursor), *r.n, opts...)
	})
	if errors.Is(err, board.ErrArgument) {
		return usagef("--cursor %q is not a cursor of a scan: %v", cursor, err)
	}
	if err != nil {
		return err
	}
	t, out := entriesTable(b, p.Entries, p.Total, *r.data)
	hasMore := p.Next != ""
	out.HasMore, out.Next = &hasMore, p.Next
	if p.Next != "" {
		t.note("next page: %s", commandLine("board scan", []string{name}, "--cursor", p.Next, "-n", strconv.Itoa(*r.n)))
	} else {
		t.note("last page (%s on the board)", count(p.Total, "entries"))
	}
	return e.out.emit(out, t)
}

// entrantOut is board entrant's answer in JSON.
type entrantOut struct {
	Board        string `json:"board"`
	ID           string `json:"id"`
	Entered      bool   `json:"entered"`
	Attempts     int64  `json:"attempts"`
	AttemptsLeft *int64 `json:"attemptsLeft,omitempty"`
}

// boardEntrant prints what a tournament knows of member id.
func boardEntrant(ctx context.Context, e *env, name, id string, r boardRead) error {
	b, err := openBoard(ctx, e, *r.group, name)
	if err != nil {
		return err
	}
	en, err := b.Entrant(ctx, id)
	if err != nil {
		return err
	}
	out := entrantOut{Board: spelling(b), ID: id, Entered: en.Entered, Attempts: en.Attempts}
	left := "no limit"
	if en.AttemptsLeft >= 0 {
		out.AttemptsLeft = &en.AttemptsLeft
		left = strconv.FormatInt(en.AttemptsLeft, 10)
	}
	t := &table{header: []string{"ID", "ENTERED", "ATTEMPTS", "LEFT"}}
	t.add(id, strconv.FormatBool(en.Entered), strconv.FormatInt(en.Attempts, 10), left)
	return e.out.emit(out, t)
}

// hiddenOut is board hidden's answer in JSON: the ids, best first, and
// their entries with the ranks their members see.
type hiddenOut struct {
	Board   string     `json:"board"`
	Key     string     `json:"key"`
	Hidden  []string   `json:"hidden"`
	Entries []entryOut `json:"entries"`
}

// boardHidden lists the members a board hides (the sorted set h of its
// generation, best first), each with its entry as its member sees it
// (board.AsSelf: the ranks it would have were it shown).
func boardHidden(ctx context.Context, e *env, group, name string) error {
	b, err := openBoard(ctx, e, group, name)
	if err != nil {
		return err
	}
	if !b.Options().Hiding {
		return fmt.Errorf("board %q has no Hiding: it hides no one", spelling(b))
	}
	hkey, ids, err := hiddenIDs(ctx, e, b)
	if err != nil {
		return err
	}
	es := make([]board.Entry, 0, len(ids))
	for _, id := range ids {
		en, err := b.Get(ctx, id, board.AsSelf(), rankKinds(b))
		if errors.Is(err, board.ErrNotFound) { // shown or removed since
			continue
		}
		if err != nil {
			return err
		}
		es = append(es, en)
	}
	t, entries := entriesTable(b, es, int64(len(ids)), false)
	out := hiddenOut{Board: spelling(b), Key: hkey, Hidden: append([]string{}, ids...), Entries: entries.Entries}
	t.note("%d hidden, listed with the ranks their members see (board.AsSelf)", len(out.Hidden))
	return e.out.emit(out, t)
}

// hiddenIDs reads the ids board b hides, best first, and the key holding
// them (the sorted set h of its generation): none when b has no Hiding.
// Reads do not show them; Remove, Clear and Drop remove them too.
func hiddenIDs(ctx context.Context, e *env, b *board.Board) (string, []string, error) {
	if !b.Options().Hiding {
		return "", nil, nil
	}
	key, m, err := readBoardMeta(ctx, e, b.Options().Group, b.Name())
	if err != nil {
		return "", nil, err
	}
	gen, err := metaInt(key, metaGen, m[metaGen])
	if err != nil {
		return "", nil, err
	}
	z := boardEntriesKey(b.Options().Group, b.Name(), gen)
	hkey := strings.TrimSuffix(z, "z") + "h"
	members, err := e.client.Do(ctx, e.client.B().Zrange().Key(hkey).Min("0").Max("-1").Build()).AsStrSlice()
	if err != nil {
		return "", nil, fmt.Errorf("ZRANGE %s: %w", hkey, err)
	}
	width := 0
	if l := b.Layout(); l.Len() > 1 && b.Options().Strategy == board.KeySuffix {
		width = len(strconv.FormatUint(l.Field(0).Mul-1, 10))
	}
	ids := make([]string, len(members))
	for i, m := range members {
		ids[i] = m[min(width, len(m)):]
	}
	return hkey, ids, nil
}

// reportOutages says on e.notes when Redis stops answering a PING within
// max(every, 1s), and when it answers again, until ctx ends: board.Watch
// waits an outage out without a word, and prints the list again once
// Redis is back, so a watching operator would otherwise see the last list
// as if it were current.
func reportOutages(ctx context.Context, e *env, every time.Duration) {
	probe := max(every, time.Second)
	t := time.NewTicker(probe)
	defer t.Stop()
	var since time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, probe)
		err := e.client.Do(pctx, e.client.B().Ping().Build()).Error()
		cancel()
		if d, ok := ctx.Deadline(); ctx.Err() != nil || ok && !time.Now().Before(d) {
			return // the watch ends (--timeout), its PING with it
		}
		switch {
		case err != nil && since.IsZero():
			since = time.Now()
			fmt.Fprintf(e.notes, "tiebreak: Redis at %s has not answered PING since %s (%v); still watching: the list is printed again once it answers\n",
				e.where, stamp(since), escapeControls(err.Error()))
		case err == nil && !since.IsZero():
			fmt.Fprintf(e.notes, "tiebreak: Redis at %s answers PING again, after %v\n", e.where, time.Since(since).Round(100*time.Millisecond))
			since = time.Time{}
		}
	}
}

// errWatched ends a watch that printed the lists asked for.
var errWatched = errors.New("watched")

// boardWatch prints the best entries of board name, then again each time
// they change, until ctx ends (an interrupt) or changes lists are printed.
func boardWatch(ctx context.Context, e *env, name string, every time.Duration, changes int, r boardRead) error {
	if err := r.checkN(); err != nil {
		return err
	}
	if every < time.Millisecond || changes < 0 {
		return usagef("--every %v (at least 1ms) or --changes %d (0 or more) out of range", every, changes)
	}
	probe, stopProbe := context.WithCancel(ctx)
	probed := make(chan struct{})
	go func() { defer close(probed); reportOutages(probe, e, every) }()
	defer func() { stopProbe(); <-probed }()
	printed := 0
	for {
		b, err := openBoard(ctx, e, *r.group, name)
		if err != nil {
			return err
		}
		// board.Watch tries a failed read again at every interval, without
		// a word: a board whose reads fail for what it stores (ErrReply: a
		// damaged index, an id lookup gone) would look watched. One read
		// first says so.
		if _, err := b.Top(ctx, *r.n, r.options(b)...); errors.Is(err, board.ErrReply) {
			return err
		}
		top := func(ctx context.Context) (board.List, error) { return b.Top(ctx, *r.n, r.options(b)...) }
		err = board.Watch(ctx, every, top, func(l board.List) error {
			t, out := entriesTable(b, l.Entries, l.Total, *r.data)
			out.At = stamp(time.Now())
			t.note("%d of %d entries, %s", len(l.Entries), l.Total, out.At)
			if err := e.out.emit(out, t); err != nil {
				return err
			}
			if printed++; changes > 0 && printed >= changes {
				return errWatched
			}
			return nil
		})
		if errors.Is(err, board.ErrMismatch) && ctx.Err() == nil {
			// A migration switched: watch the board as it is stored now.
			select {
			case <-ctx.Done():
			case <-time.After(every):
			}
			continue
		}
		if errors.Is(err, errWatched) || (ctx.Err() != nil && printed > 0) {
			return nil // the lists asked for, an interrupt or --timeout: a normal end
		}
		return err
	}
}
