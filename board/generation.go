package board

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/luascript"
)

// generation is where a board's entries are now: the keys of one
// generation and the scripts that work on them. A handle keeps its
// current generation and reads the meta HASH again only when a command
// finds a tombstone where it expected entries (a migration moved them).
type generation struct {
	n       int64
	keys    keys
	consts  []luascript.Const // what every script of the generation starts with
	scripts *scriptSet
	mig     *migration // nil unless the board is migrating
	state   phase      // "", or a shard's phaseExporting or phaseFrozen (export.go)
	desc    string     // the handle's descriptor, encoded once: what its scripts and native writes store
	buckets buckets    // of the id lookup (lookup.go), as last read
}

// migration is the target of a board that is migrating: a handle that has
// not talked to Redis, holding the target's layout and options, its
// generation, and the values of its fields that the source lacks.
type migration struct {
	target   *Board
	tgen     int64
	defaults map[string]float64
}

// generation builds generation n of b, migrating to mig when not nil.
func (b *Board) generation(n int64, mig *migration) *generation {
	k := genKeys(b.prefix, n, b.opts, b.lookup())
	if mig != nil {
		k = k.withTarget(names(b.prefix, mig.tgen), mig.target.opts, mig.target.lookup())
	}
	g := &generation{n: n, keys: k, mig: mig, desc: b.desc.encoded()}
	g.consts = b.scriptConsts(g)
	mode := modeOf(mig != nil, "")
	if b.fence != "" && mig == nil {
		mode = modeFenced
		g.consts = append(g.consts, luascript.Const{Name: "FENCE", Value: luaString(b.fence)})
	}
	g.scripts = scriptsFor(g.consts, mode)
	return g
}

// scriptConsts are the constants that every script of generation g starts
// with (see lua/common.lua and, while migrating, lua/mirror.lua).
func (b *Board) scriptConsts(g *generation) []luascript.Const {
	consts := b.layoutConsts("")
	consts = append(consts,
		luascript.Const{Name: "DESC", Value: luaString(g.desc)},
		luascript.Const{Name: "GEN", Value: luaString(strconv.FormatInt(g.n, 10))},
		luascript.Const{Name: "SHARD", Value: strconv.FormatBool(b.opts.shard)},
		luascript.Const{Name: "RULES", Value: b.rulesConst()},
		luascript.Const{Name: "BOUNDS", Value: b.boundsConst()},
		luascript.Const{Name: "HIST", Value: strconv.FormatBool(b.opts.shard && !b.opts.noHistogram)})
	consts = append(consts, g.keys.luaIndexes()...)
	if g.mig == nil {
		return consts
	}
	t := g.mig.target
	consts = append(consts, t.layoutConsts("T_")...)
	from, def := make([]string, t.layout.Len()), make([]string, t.layout.Len())
	for i := range from {
		name := t.layout.Field(i).Name
		from[i] = strconv.Itoa(b.layout.Index(name) + 1)
		def[i] = fmtFloat(g.mig.defaults[name])
	}
	return append(consts,
		luascript.Const{Name: "T_FROM", Value: "{" + strings.Join(from, ", ") + "}"},
		luascript.Const{Name: "T_DEF", Value: "{" + strings.Join(def, ", ") + "}"},
		luascript.Const{Name: "T_MEMBERS", Value: strconv.FormatBool(t.opts.Rules.MaxMembers > 0)})
}

// meta is a board's meta HASH as meta.lua returns it.
type meta struct {
	exists           bool
	desc, target     string
	gen, tgen        int64
	migrating        bool
	state            phase  // the field state (lifecycle.go)
	defaults, cursor string // cursor: a shard's copy position while it exports
	expireAt         time.Time
	span             string // a periodic window's (Window.span)
}

// readMeta reads the board's meta HASH; with create, it first stores b's
// descriptor when the board has none (see readMeta).
func (b *Board) readMeta(ctx context.Context, create bool) (meta, error) {
	arg := ""
	if create {
		arg = b.desc.encoded()
	}
	return readMeta(ctx, b.conn, b.name, b.prefix, arg)
}

// readMeta reads the meta HASH of board name, whose keys start with prefix,
// first storing desc when it is not "" and there is no descriptor and no
// entries: entries with no descriptor are not a board, and keep none.
func readMeta(ctx context.Context, client rdb.Conn, name, prefix, desc string) (meta, error) {
	n := names(prefix, 0)
	return parseMeta(name, client.Run(ctx, metaScript, []string{n.meta, n.z}, []string{desc}))
}

// readMetaWaiting is readMeta that only reads, as a read-only script
// (EVALSHA_RO), which rueidis sends again after a connection error until
// ctx ends, as every read: Open's, which builds a handle and writes
// nothing.
func readMetaWaiting(ctx context.Context, client rdb.Conn, name, prefix string) (meta, error) {
	n := names(prefix, 0)
	return parseMeta(name, client.Run(ctx, metaReadScript, []string{n.meta, n.z}, []string{""}))
}

// parseMeta is the meta of board name that meta.lua's reply r holds.
func parseMeta(name string, r rdb.Result) (meta, error) {
	arr, err := r.ToArray()
	if err != nil {
		return meta{}, redisErr("read descriptor", err)
	}
	if len(arr) != 9 {
		return meta{}, fmt.Errorf("board: %s: meta reply of %d elements: %w", name, len(arr), ErrReply)
	}
	f := make([]string, len(arr))
	for i := range arr {
		f[i], _ = arr[i].ToString() // absent fields are nil: ""
	}
	m := meta{exists: f[0] != "", desc: f[0], migrating: phase(f[2]) == phaseMigrating, state: phase(f[2]), target: f[3], defaults: f[5], cursor: f[7], span: f[8]}
	if m.exists && m.state == "" {
		// A board a native write made whole again after a Drop stores its
		// descriptor (and past generation 0 its generation) alone: it is
		// live (appendGuard).
		m.state = phaseLive
	}
	var errs [3]error
	m.gen, errs[0] = parseGen(f[1])
	m.tgen, errs[1] = parseGen(f[4])
	if f[6] != "" && f[6] != "0" {
		var ms int64
		ms, errs[2] = strconv.ParseInt(f[6], 10, 64)
		m.expireAt = time.UnixMilli(ms)
	}
	if err := errors.Join(errs[:]...); err != nil {
		return meta{}, fmt.Errorf("board: %s: meta HASH: %w: %w", name, errDescriptor, err)
	}
	return m, nil
}

func parseGen(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	return strconv.ParseInt(s, 10, 64)
}

// adopt makes m's generation b's, after checking that the stored
// descriptor is b's own (ErrMismatch otherwise). A board with no meta HASH
// (a periodic window not yet written) is in generation 0.
func (b *Board) adopt(m meta) error {
	if !m.exists {
		b.gen.Store(b.generation(0, nil))
		return nil
	}
	if m.desc != b.desc.encoded() {
		return b.mismatch(m)
	}
	if m.state.exports() {
		return b.adoptExport(m)
	}
	if !m.migrating {
		b.gen.Store(b.generation(m.gen, nil))
		return nil
	}
	mig, err := b.loadMigration(m)
	if err != nil {
		return err
	}
	b.gen.Store(b.generation(m.gen, mig))
	return nil
}

// mismatch explains how the stored descriptor of m differs from b's.
func (b *Board) mismatch(m meta) error {
	stored, err := parseDescriptor(b.label(), m.desc)
	if err != nil {
		return err
	}
	why := diff(stored, b.desc)
	if why == "" {
		why = "the descriptor's encoding" // same settings, other bytes: a newer writer
	}
	if m.migrating && m.target == b.desc.encoded() {
		why += " (the board is migrating to this handle's settings: build it once the migration has switched, or use Open)"
	}
	return fmt.Errorf("board: %s: the stored descriptor differs: %s: %w", b.label(), why, ErrMismatch)
}

// loadMigration builds the target of a migration under way.
func (b *Board) loadMigration(m meta) (*migration, error) {
	td, err := parseDescriptor(b.label(), m.target)
	if err != nil {
		return nil, err
	}
	l, o, err := td.build(b.label())
	if err != nil {
		return nil, err
	}
	o.expireAt, o.span = b.opts.expireAt, b.opts.span
	o.Group = b.opts.Group // a migration never moves a board between groups
	t, err := configure(b.conn, b.name, l, o)
	if err != nil {
		return nil, fmt.Errorf("board: %s: stored target: %w: %w", b.label(), errDescriptor, err)
	}
	mig := &migration{target: t, tgen: m.tgen, defaults: map[string]float64{}}
	if m.defaults != "" && json.Unmarshal([]byte(m.defaults), &mig.defaults) != nil {
		return nil, fmt.Errorf("board: %s: stored defaults %q: %w", b.label(), m.defaults, errDescriptor)
	}
	return mig, nil
}

// maxReloads bounds how often one call reads the meta HASH again: more
// than one migration step during one call.
const maxReloads = 4

// reload reads the meta HASH again after a command of generation old found
// a tombstone, unless another call already did.
func (b *Board) reload(ctx context.Context, old *generation) (*generation, error) {
	if g := b.gen.Load(); g != old {
		return g, nil
	}
	m, err := b.readMeta(ctx, false)
	if err != nil {
		return nil, err
	}
	if err := b.adopt(m); err != nil {
		return nil, err
	}
	return b.gen.Load(), nil
}

// inGen runs op on b's current generation and, when op finds the
// generation moved (errStale), on the new one, reading it at most
// maxReloads times.
func inGen[T any](ctx context.Context, b *Board, op func(g *generation) (T, error)) (T, error) {
	g := b.gen.Load()
	v, err := op(g)
	for i := 0; i < maxReloads && errors.Is(err, errStale); i++ {
		old := g
		if g, err = b.reload(ctx, g); err != nil {
			var zero T
			return zero, err
		}
		v, err = op(g)
		if errors.Is(err, errTombstone) && sameGen(g, old) {
			if damaged, derr := b.foreignType(ctx, g); derr != nil || damaged {
				var zero T
				return zero, errors.Join(derr, b.damaged(damaged))
			}
		}
	}
	return v, err
}

// sameGen reports two generations of the same number and state.
func sameGen(g, h *generation) bool {
	return g.n == h.n && (g.mig == nil) == (h.mig == nil) && g.state == h.state
}

// foreignType reports, after a command of generation g met a key of
// another type twice, whether the meta HASH, read afresh (not what
// another call of the handle adopted), still says g: then no migration
// put a tombstone there, and the key was written by something else. When
// the meta HASH says otherwise, the handle adopts it.
func (b *Board) foreignType(ctx context.Context, g *generation) (bool, error) {
	m, err := b.readMeta(ctx, false)
	if err != nil {
		return false, err
	}
	if m.exists && m.gen == g.n && m.migrating == (g.mig != nil) && (m.state == g.state || !m.state.exports() && g.state == "") {
		return true, nil
	}
	return false, b.adopt(m)
}

// damaged is the error of a key of the board holding another type than
// the board keeps there (foreignType); nil when not damaged.
func (b *Board) damaged(damaged bool) error {
	if !damaged {
		return nil
	}
	return fmt.Errorf("board: %s: a key of the board holds another Redis type than the board keeps there, and no migration put it there (written by something else? the command's board describe shows its keys): %w", b.label(), ErrReply)
}

// errStale reports a command that found a tombstone where the handle's
// generation kept entries: the board migrated (or is migrating) since the
// handle last read its meta HASH. Nothing was written.
var errStale = fmt.Errorf("board: the board moved to another generation: %w", ErrRedis)

// errTombstone is errStale of a command refused for a key of another
// type (isTombstone).
var errTombstone = fmt.Errorf("%w (a key of another type)", errStale)

// isTombstone reports a command refused for a key of the wrong type: a
// tombstone left by a migration.
func isTombstone(err error) bool {
	return rdb.HasPrefix(err, "WRONGTYPE")
}

// drop removes every key of the board in every generation, and its meta
// HASH, in one script; it reads the generations again if a migration
// step came between.
func (b *Board) drop(ctx context.Context) error {
	for i := 0; ; i++ {
		m, err := b.readMeta(ctx, false)
		if err != nil {
			return err
		}
		keys := []string{names(b.prefix, 0).meta, b.prefix + "archive", b.prefix + "a"}
		keys = append(keys, b.genNames(m)...)
		stamp := ""
		if m.exists {
			stamp = strconv.FormatInt(m.gen, 10)
		}
		stamp += " "
		if m.migrating {
			stamp += strconv.FormatInt(m.tgen, 10)
		}
		n, err := b.conn.Run(ctx, dropScript, keys, []string{stamp}).AsInt64()
		switch {
		case err != nil || n == 1:
			return redisErr("drop", err)
		case i == maxReloads:
			return fmt.Errorf("board: %s: Drop: the board kept moving to other generations (a migration's steps); nothing removed: %w", b.label(), ErrMigrating)
		}
	}
}

// genNames lists every key name of the board in m's generations: the
// current one's, the target's while migrating, and the tombstones of the
// retired ones.
func (b *Board) genNames(m meta) []string {
	cur := names(b.prefix, m.gen)
	out := []string{cur.z, cur.d, cur.i, cur.v, cur.c, cur.h, cur.top, cur.hist, cur.x, cur.dirty, cur.inflight}
	if m.migrating {
		t := names(b.prefix, m.tgen)
		out = append(out, t.z, t.d, t.i, t.v, t.c, t.top)
	}
	// cur.d and t.d are the board's own member-data HASHes; shared data
	// (Options.SharedData) lives at another name and stays.
	for g := int64(0); g < m.gen; g++ {
		old := names(b.prefix, g)
		out = append(out, old.z, old.i, old.top)
	}
	return out
}
