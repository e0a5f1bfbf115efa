package board

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/pack"
)

// MigrateOptions configure a migration (Migrate) or a resharding
// (Reshard). The zero value means every default.
type MigrateOptions struct {
	// Defaults gives, by name, the value that every entry takes in each
	// field the new layout has and the board's does not (a new trailing
	// tie-break field, say). Default 0 for each such field. A name that is
	// not a new field, or a value the field cannot hold, is refused.
	Defaults map[string]float64

	// Batch is how many entries each step of the copy mirrors: one step
	// is one script of Batch mirrored entries (about 2-4 ms of
	// Redis time at the default); a resharding reads about that many from
	// a shard at each step. Default 200; 1 to
	// 500.
	Batch int

	// Pause is how long the copy waits between two steps, leaving Redis to
	// the other clients: a copy without pauses keeps Redis busy, so other
	// writes wait for its steps (in the bench command, writes during a
	// migration without pauses run at a few percent of their usual rate).
	// Default 0: no pause. Negative or over a second is refused.
	Pause time.Duration
}

// defaultMigrateBatch and maxMigrateBatch bound MigrateOptions.Batch.
const (
	defaultMigrateBatch = 200
	maxMigrateBatch     = 500
)

// Migrate re-encodes every entry of the board for a new layout and options
// (widen a field, add a trailing tie-break field, switch strategy, turn
// dense ranks on, set a cap) while other handles keep reading and writing,
// then switches the board to them and returns a handle built with them.
//
// The design, with every step atomic and resumable:
//
//	begin   one script: the entries move to the next generation's key
//	        names (RENAME), tombstones take the old names, the meta HASH
//	        says migrating (phaseMigrating) with the target descriptor. Every handle's
//	        next command hits a tombstone before writing anything, reads
//	        the meta HASH and from then on mirrors each write into the
//	        target keys, in the same script as the write.
//	copy    scripts of Batch entries each, walking the source in its own
//	        order, mirror each entry's id; the position (the last score
//	        and member copied, as data, not a SCAN cursor) is kept in the
//	        meta HASH by each step, so that a copy resumed after the
//	        server restarted or failed over goes on exactly there.
//	switch  one script, once the copy is done and no entry is a misfit,
//	        and only after a check inside it that the target holds as
//	        many entries as the source (else the copy starts again: a
//	        copy step lost in a failover is never switched past): the
//	        source keys go, tombstones take their names, the meta
//	        HASH holds the target descriptor. Handles built with the old
//	        settings then get ErrMismatch; those built with the new ones
//	        (as the handle returned) follow.
//
// Each step stores the server's time in the meta HASH's field moved (Unix
// milliseconds), so that an operator sees how long ago the migration last
// moved.
//
// Reads are served from the source until the switch, so ranks never come
// from a half-copied board, and an acknowledged write is in the target
// from the moment it is acknowledged. A migration cut short (ctx cancelled,
// the process killed) is resumed by calling Migrate again with the same
// arguments, from any process (a handle from Open will do); until then the
// board keeps working, its writes mirrored. A restart or a failover of
// Redis does not cut it short: it goes on by itself once Redis answers
// again (trying for up to 30 s; then its error wraps ErrRedis). Values
// that do not fit the new layout are never masked: those entries stay out
// of the target and Migrate returns an error that counts them and names
// up to ten (wrapping ErrArgument and pack.ErrOverflow) without switching;
// fix or remove them through any handle and call Migrate again.
//
// It refuses what New refuses for the new settings, a Group or SharedData
// other than the board's (ErrArgument; an empty Group keeps the board's),
// bad MigrateOptions
// (ErrArgument), a board whose stored descriptor is not b's
// (ErrMismatch), a board already migrating to other settings
// (ErrMigrating) and a board not stored (a periodic window never written,
// which has nothing to migrate, or a board dropped, expired, or lost by a
// server that restarted empty, even during the migration: ErrNotFound,
// nothing written). A migration to the settings the board already has
// returns at once.
func (b *Board) Migrate(ctx context.Context, layout *pack.Layout, opts Options, mo MigrateOptions) (*Board, error) {
	if err := b.usable(ctx); err != nil {
		return nil, err
	}
	if opts.Observer == nil {
		opts.Observer = b.opts.Observer
	}
	run := func(ctx context.Context) (*Board, error) {
		if b.sh != nil || opts.Shards != 0 {
			return nil, fmt.Errorf("board: %s: Migrate: a sharded board changes its shards with Reshard, and keeps its layout: %w", b.label(), ErrArgument)
		}
		return rideOut(ctx, func() (*Board, error) { return b.migrate(ctx, layout, opts, mo) })
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Migrate", 0), errKinds, run, nil)
	}
	return run(ctx)
}

// migrate is Migrate.
func (b *Board) migrate(ctx context.Context, layout *pack.Layout, opts Options, mo MigrateOptions) (*Board, error) {
	opts.expireAt, opts.round, opts.span = b.opts.expireAt, b.opts.round, b.opts.span // a window stays its round and span
	if opts.Group == "" {
		opts.Group = b.opts.Group
	}
	if opts.Group != b.opts.Group || opts.SharedData != b.opts.SharedData {
		return nil, fmt.Errorf("board: Migrate: Group %q and SharedData %t, want the board's (%q, %t): a migration does not move a board between groups: %w",
			opts.Group, opts.SharedData, b.opts.Group, b.opts.SharedData, ErrArgument)
	}
	if b.opts.Hiding || opts.Hiding {
		return nil, fmt.Errorf("board: Migrate: %s: a board with Options.Hiding does not migrate (its hidden entries would stay behind): %w", b.label(), ErrArgument)
	}
	t, err := configure(b.conn, b.name, layout, opts)
	if err != nil {
		return nil, err
	}
	batch, defaults, err := b.checkMigrate(t, mo)
	if err != nil {
		return nil, err
	}
	tgen, err := b.beginMigration(ctx, t, defaults)
	if err != nil || tgen < 0 {
		return t, err
	}
	atStep("Migrate", "begin")
	if err := b.copyAndSwitch(ctx, t, tgen, batch, mo.Pause); err != nil {
		return b.finishedMeanwhile(ctx, t, err)
	}
	return t, nil
}

// copyAndSwitch copies the board into generation tgen, then checks the
// target and switches to it, copying again when the check fails.
func (b *Board) copyAndSwitch(ctx context.Context, t *Board, tgen int64, batch int, pause time.Duration) error {
	for pass := 1; ; pass++ {
		if err := b.copyAll(ctx, tgen, batch, pause); err != nil {
			return err
		}
		atStep("Migrate", "check")
		again, err := b.finishMigration(ctx, t, tgen)
		switch {
		case err != nil:
			return err
		case !again:
			atStep("Migrate", "switch")
			return nil
		case pass == maxCopyPasses:
			return fmt.Errorf("board: %s: the target still lacks entries after %d copies (call Migrate again): %w", b.label(), pass, ErrMigrating)
		}
	}
}

// finishedMeanwhile turns err, which a migration to t met, into success
// when another process running the same migration switched the board to
// t meanwhile (two Migrates racing: one switches, the other's next step
// finds the migration over), and into ErrNotFound when the board is gone.
func (b *Board) finishedMeanwhile(ctx context.Context, t *Board, err error) (*Board, error) {
	if !errors.Is(err, ErrMigrating) {
		return nil, err
	}
	m, rerr := readMeta(ctx, b.conn, b.name, b.prefix, "")
	if rerr == nil && !m.exists {
		return nil, fmt.Errorf("board: %s: Migrate: %w (%v)", b.label(), notStored("the board"), err)
	}
	if rerr != nil || m.migrating || m.desc != t.desc.encoded() {
		return nil, err
	}
	return t, t.adopt(m)
}

// maxCopyPasses bounds the copies of one Migrate call: the switch's check
// sends the copy back to the start only when the target lacks entries
// (a copy step lost with a failover, a capped target that writes thinned).
const maxCopyPasses = 3

// checkMigrate validates mo for a migration from b to t and returns the
// batch and the defaults as the meta HASH keeps them (JSON).
func (b *Board) checkMigrate(t *Board, mo MigrateOptions) (int, string, error) {
	batch := mo.Batch
	if batch == 0 {
		batch = defaultMigrateBatch
	}
	if batch < 1 || batch > maxMigrateBatch {
		return 0, "", fmt.Errorf("board: MigrateOptions.Batch = %d out of range [1, %d]: %w", mo.Batch, maxMigrateBatch, ErrArgument)
	}
	if mo.Pause < 0 || mo.Pause > time.Second {
		return 0, "", fmt.Errorf("board: MigrateOptions.Pause = %v out of range [0, 1s]: %w", mo.Pause, ErrArgument)
	}
	for name, v := range mo.Defaults {
		i := t.layout.Index(name)
		if i < 0 || b.layout.Index(name) >= 0 {
			return 0, "", fmt.Errorf("board: MigrateOptions.Defaults[%q]: not a field the new layout adds (%s): %w", name, newFields(b, t), ErrArgument)
		}
		if err := t.checkValue(i, v); err != nil {
			return 0, "", fmt.Errorf("board: MigrateOptions.Defaults: %w", err)
		}
	}
	defaults := map[string]float64{}
	for _, name := range strings.Split(newFields(b, t), ", ") {
		if name != "" {
			defaults[name] = mo.Defaults[name] + 0
		}
	}
	j, _ := json.Marshal(defaults) // sorted keys: canonical
	return batch, string(j), nil
}

// newFields names the fields of t that b lacks.
func newFields(b, t *Board) string {
	var out []string
	for _, f := range t.layout.Fields() {
		if b.layout.Index(f.Name) < 0 {
			out = append(out, f.Name)
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// beginMigration starts the migration from b to t, or finds it under way,
// and returns the target generation; -1 when the board already has t's
// settings (t then holds its generation).
func (b *Board) beginMigration(ctx context.Context, t *Board, defaults string) (int64, error) {
	for i := 0; ; i++ {
		m, err := b.readMeta(ctx, false)
		if err != nil {
			return 0, err
		}
		if !m.exists { // a migration never makes a board whole again: it has no entries to move
			return 0, fmt.Errorf("board: %s: Migrate: no board stored under this name (a window never written, or a board dropped, expired, or lost by the server): %w", b.label(), ErrNotFound)
		}
		if !m.migrating && m.desc == t.desc.encoded() {
			return -1, t.adopt(m)
		}
		if m.desc != b.desc.encoded() {
			return 0, b.mismatch(m)
		}
		if m.span != "" && b.opts.span != "" && m.span != b.opts.span {
			return 0, b.spanMismatch("Migrate", m.span)
		}
		from, to := names(b.prefix, m.gen), names(b.prefix, m.gen+1)
		keys := []string{from.meta, from.z, from.d, from.v, from.c, from.i, to.z, to.d, to.v, to.c, to.i, from.top}
		lookup := "0"
		if !b.memberIsID() {
			lookup = "1"
		}
		args := []string{strconv.FormatInt(m.gen, 10), t.desc.encoded(), defaults, lookup}
		reply, err := b.conn.Run(ctx, beginScript, keys, args).ToString()
		if err != nil {
			return 0, redisErr("begin migration", err)
		}
		switch {
		case reply == "resumed":
			return m.tgen, nil
		case reply == "begun":
			return m.gen + 2, nil
		case reply == "busy":
			return 0, fmt.Errorf("board: %s: migrating to %s: %w", b.label(), m.target, ErrMigrating)
		case reply == "lookup":
			return 0, fmt.Errorf("board: %s: begin migration: %w", b.label(), errLookupLost)
		case i == maxReloads:
			return 0, fmt.Errorf("board: %s: begin migration: the generation kept moving: %w", b.label(), ErrMigrating)
		}
	}
}

// copyAll runs the copy steps from the position kept in the meta HASH to
// the end of the source.
func (b *Board) copyAll(ctx context.Context, tgen int64, batch int, pause time.Duration) error {
	m, err := b.readMeta(ctx, false)
	if err != nil {
		return err
	}
	if err := b.adopt(m); err != nil {
		return err
	}
	for step := strconv.Itoa(batch); ; {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("board: %s: migration paused (call Migrate again to resume): %w", b.label(), err)
		}
		done, err := b.copyStep(ctx, tgen, step)
		if err != nil {
			return err
		}
		atStep("Migrate", "copy")
		if done {
			return nil
		}
		if err := sleep(ctx, pause); err != nil {
			return fmt.Errorf("board: %s: migration paused (call Migrate again to resume): %w", b.label(), err)
		}
	}
}

// copyStep runs one copy step (copy.lua) and reports whether the copy
// reached the end of the source.
func (b *Board) copyStep(ctx context.Context, tgen int64, count string) (bool, error) {
	strs, err := inGen(ctx, b, func(g *generation) ([]string, error) {
		if g.mig == nil || g.mig.tgen != tgen {
			return nil, fmt.Errorf("board: %s: the migration to generation %d is no longer under way: %w", b.label(), tgen, ErrMigrating)
		}
		args := []string{strconv.FormatInt(tgen, 10), count}
		return b.arrayReply("copy", b.conn.Run(ctx, g.scripts.copy, g.keys.withMeta(), args))
	})
	if err != nil {
		return false, err
	}
	if len(strs) != 2 {
		return false, fmt.Errorf("board: copy reply %q: %w", strs, ErrReply)
	}
	return strs[0] == "done", nil
}

// finishMigration mirrors the misfits again (they may have been fixed),
// reports those left, else checks the target and switches the board to
// t; again when the check failed and the copy must run again.
func (b *Board) finishMigration(ctx context.Context, t *Board, tgen int64) (again bool, err error) {
	if err := b.remirrorMisfits(ctx, tgen); err != nil {
		return false, err
	}
	g := b.gen.Load()
	own := names(b.prefix, g.n) // the board's own keys: shared member data (Options.SharedData) stays
	keys := []string{g.keys.meta, own.z, own.d, own.v, own.c, own.i, own.x, names(b.prefix, tgen).z, own.top}
	reply, err := b.conn.Run(ctx, switchScript, keys, []string{strconv.FormatInt(tgen, 10), strconv.FormatInt(t.opts.Cap, 10)}).ToString()
	if err != nil {
		return false, redisErr("switch", err)
	}
	switch reply {
	case "switched":
	case "recopy":
		return true, nil
	case "misfits":
		return false, b.misfitError(ctx, t)
	default:
		return false, fmt.Errorf("board: %s: switch: %s: %w", b.label(), reply, ErrMigrating)
	}
	m, err := readMeta(ctx, b.conn, b.name, b.prefix, "")
	if err != nil {
		return false, err
	}
	return false, t.adopt(m)
}

// remirrorMisfits mirrors every id of the misfit set again (SSCAN, one
// pass): those fixed or removed meanwhile leave it.
func (b *Board) remirrorMisfits(ctx context.Context, tgen int64) error {
	g := b.gen.Load()
	for cursor := uint64(0); ; {
		next, elems, err := b.conn.Do(ctx, func(p *rdb.Pipe) { p.SScan(g.keys.x, cursor, maxMigrateBatch) }).AsScanEntry()
		if err != nil {
			return redisErr("read misfits", err)
		}
		if len(elems) > 0 {
			args := append([]string{strconv.FormatInt(tgen, 10)}, elems...)
			if err := b.conn.Run(ctx, g.scripts.mirrorIDs, g.keys.withMeta(), args).Error(); err != nil {
				return b.scriptErr("mirror misfits", err)
			}
		}
		if cursor = next; cursor == 0 {
			return nil
		}
	}
}

// misfitsError reports the entries that do not fit a migration's new
// layout: they are kept on the board but not in the new encoding, and the
// migration waits for them to be fixed or removed. It wraps ErrArgument and
// pack.ErrOverflow.
type misfitsError struct {
	// Board is the board's name.
	Board string
	// Count is how many entries do not fit.
	Count int64
	// Examples describe up to ten of them.
	Examples []misfit
}

// misfit is one entry that does not fit a migration's new layout.
type misfit struct {
	// Entry is the entry as stored.
	Entry Entry
	// Reason says which field does not fit and why.
	Reason string
}

// Error lists the misfits.
func (e *misfitsError) Error() string {
	var s strings.Builder
	if e.Count == 1 {
		fmt.Fprintf(&s, "board: %s: 1 entry does not fit the new layout (fix or remove it, then call Migrate again)", e.Board)
	} else {
		fmt.Fprintf(&s, "board: %s: %d entries do not fit the new layout (fix or remove them, then call Migrate again)", e.Board, e.Count)
	}
	for _, m := range e.Examples {
		fmt.Fprintf(&s, "; %q %v: %s", m.Entry.ID, m.Entry.Values, m.Reason)
	}
	return s.String() + ": " + errValue.Error() + ": " + pack.ErrOverflow.Error()
}

// Unwrap returns ErrArgument and pack.ErrOverflow.
func (e *misfitsError) Unwrap() []error { return []error{errValue, pack.ErrOverflow} }

// misfitError describes the misfit set of b's migration to t.
func (b *Board) misfitError(ctx context.Context, t *Board) error {
	g := b.gen.Load()
	n, err1 := b.conn.Do(ctx, func(p *rdb.Pipe) { p.SCard(g.keys.x) }).AsInt64()
	ids, err2 := b.conn.Do(ctx, func(p *rdb.Pipe) { p.SRandMember(g.keys.x, 10) }).AsStrSlice()
	if err := errors.Join(err1, err2); err != nil {
		return redisErr("read misfits", err)
	}
	e := &misfitsError{Board: b.name, Count: n}
	sort.Strings(ids)
	for _, id := range ids {
		entry, err := b.Get(ctx, id)
		if err != nil {
			continue // removed meanwhile
		}
		e.Examples = append(e.Examples, misfit{Entry: entry, Reason: misfitReason(b, t, entry)})
	}
	return e
}

// misfitReason says which value of entry t cannot hold.
func misfitReason(b, t *Board, e Entry) string {
	defaults := b.gen.Load().mig
	for i := 0; i < t.layout.Len(); i++ {
		name := t.layout.Field(i).Name
		v := 0.0
		if j := b.layout.Index(name); j >= 0 {
			v = e.Values[j]
		} else if defaults != nil {
			v = defaults.defaults[name]
		}
		if err := t.checkValue(i, v); err != nil {
			// The error's sentinels end the whole message once.
			msg := strings.TrimPrefix(err.Error(), "board: ")
			for _, sentinel := range []error{pack.ErrOverflow, errValue} {
				msg = strings.TrimSuffix(msg, ": "+sentinel.Error())
			}
			return msg
		}
	}
	return "fits now (fixed meanwhile)"
}
