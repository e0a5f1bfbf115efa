package board

import (
	"context"
	"fmt"
	"strconv"
)

// errFrozen and errRetired report a shard that a resharding froze or
// retired: the sharded board's handle reads its descriptor again and
// retries (onView), waiting for the switch to the new shards.
var (
	errFenced  = fmt.Errorf("board: another process took the resharding over: %w", ErrMigrating)
	errFrozen  = fmt.Errorf("board: the shard is frozen while its sharded board changes its shards: %w", ErrMigrating)
	errRetired = fmt.Errorf("board: the shard is retired: its sharded board moved to other shards: %w", ErrMigrating)
)

// adoptExport makes the export state of m b's generation.
func (b *Board) adoptExport(m meta) error {
	if m.state == phaseRetired {
		return errRetired
	}
	k := genKeys(b.prefix, m.gen, b.opts, b.lookup())
	k.script = append(k.script[:k.nlean+1:k.nlean+1], k.dirty, k.inflight)
	k.nlean = len(k.script) // every write records its ids
	g := &generation{n: m.gen, keys: k, state: m.state, desc: b.desc.encoded()}
	g.consts = b.scriptConsts(g)
	g.scripts = scriptsFor(g.consts, modeOf(false, m.state))
	b.gen.Store(g)
	return nil
}

// exportTo moves the shard to the export phase to (phaseExporting or
// phaseFrozen), unless it is there or further already, and adopts it
// (export.lua).
func (b *Board) exportTo(ctx context.Context, to phase) error {
	return b.export(ctx, string(to))
}

// thaw moves the shard from frozen back to exporting, and adopts it.
func (b *Board) thaw(ctx context.Context) error {
	return b.export(ctx, thaw)
}

// export runs export.lua's move to (a phase, or thaw).
func (b *Board) export(ctx context.Context, to string) error {
	for range maxReloads {
		m, err := b.readMeta(ctx, false)
		if err != nil {
			return err
		}
		cur, next := names(b.prefix, m.gen), names(b.prefix, m.gen+1)
		keys := []string{cur.meta, cur.z, cur.d, cur.i, cur.v, cur.c, cur.dirty, cur.inflight, cur.hist,
			next.z, next.d, next.i, next.v, next.c, next.dirty, next.inflight, next.hist}
		r, err := b.conn.Run(ctx, exportScript, keys, []string{strconv.FormatInt(m.gen, 10), to}).ToString()
		if err != nil {
			return redisErr("reshard", err)
		}
		switch r {
		case "done":
			return b.refreshExport(ctx)
		case "gone":
			return b.gone("reshard")
		}
	}
	return fmt.Errorf("board: %s: the shard's generation kept changing: %w", b.label(), ErrMigrating)
}

// retire removes a frozen shard's entries, leaving tombstones.
func (b *Board) retire(ctx context.Context) error {
	for range maxReloads {
		m, err := b.readMeta(ctx, false)
		if err != nil {
			return err
		}
		k := names(b.prefix, m.gen)
		r, err := b.conn.Run(ctx, retireScript, []string{k.meta, k.z, k.d, k.i, k.v, k.c, k.dirty, k.inflight, k.hist}, []string{strconv.FormatInt(m.gen, 10)}).ToString()
		if err != nil {
			return redisErr("reshard", err)
		}
		switch r {
		case "done":
			return nil
		case "gone":
			return b.gone("reshard")
		}
	}
	return fmt.Errorf("board: %s: the shard could not be retired (not frozen): %w", b.label(), ErrMigrating)
}

// refresh reads the meta HASH and adopts it.
func (b *Board) refresh(ctx context.Context) error {
	m, err := b.readMeta(ctx, false)
	if err != nil {
		return err
	}
	return b.adopt(m)
}

// refreshExport reads the meta HASH after a move of export.lua and adopts
// it: a meta HASH gone since (flushed, or lost by the server) is the
// shard no longer stored (ErrNotFound), never a shard that is live again.
func (b *Board) refreshExport(ctx context.Context) error {
	m, err := b.readMeta(ctx, false)
	if err != nil {
		return err
	}
	if !m.exists {
		return b.gone("reshard")
	}
	return b.adopt(m)
}

// gone is the error of op on a shard whose meta HASH is gone.
func (b *Board) gone(op string) error {
	return fmt.Errorf("board: %s: %s: %w", op, b.label(), notStored("the shard"))
}

// notStored says that what (a board, a shard, an archive's progress) is
// gone from Redis, wrapping ErrNotFound: the error of a long operation
// whose keys were dropped, flushed or lost by a server restarted without
// them.
func notStored(what string) error {
	return fmt.Errorf("%s is no longer stored (dropped, flushed, or lost by the server): %w", what, ErrNotFound)
}

// exportState returns the shard's export phase: "" (live), phaseExporting,
// phaseFrozen or phaseRetired, and its copy position (a Scan cursor).
func (b *Board) exportState(ctx context.Context) (state phase, cursor string, err error) {
	m, err := b.readMeta(ctx, false)
	if err != nil {
		return "", "", err
	}
	if !m.state.exports() {
		return "", "", nil
	}
	return m.state, m.cursor, nil
}

// drained is one id taken from a shard's dirty set: its entry now, or
// none (gone).
type drained struct {
	entry Entry
	gone  bool
}

// drain takes up to n ids from the shard's dirty set, with their entries,
// keeping them in its in-flight set until a later call acknowledges them
// (acked: copied), so that a copy cut short between the two loses none:
// restore first moves every id still in flight back to the dirty set.
// Only the process holding the resharding's lease token drains
// (errFenced).
func (b *Board) drain(ctx context.Context, token string, n int, restore bool, acked []string) ([]drained, error) {
	g := b.gen.Load()
	if g.scripts.drain == nil {
		if m, err := b.readMeta(ctx, false); err == nil && !m.exists {
			return nil, b.gone("reshard") // adopted by another call after a flush
		}
		return nil, fmt.Errorf("board: %s: drain of a shard that is not exporting: %w", b.label(), ErrMigrating)
	}
	args := append([]string{strconv.Itoa(n), flag(restore), token}, acked...)
	strs, err := inGen(ctx, b, func(g *generation) ([]string, error) {
		return b.arrayReply("reshard", b.conn.Run(ctx, g.scripts.drain, g.keys.withMeta(), args))
	})
	if err != nil {
		return nil, err
	}
	return b.drained(strs)
}

// drained reads drain.lua's reply.
func (b *Board) drained(strs []string) ([]drained, error) {
	if len(strs)%5 != 0 {
		return nil, fmt.Errorf("board: drain reply of %d elements: %w", len(strs), ErrReply)
	}
	out := make([]drained, 0, len(strs)/5)
	for i := 0; i < len(strs); i += 5 {
		if strs[i+1] == "" {
			out = append(out, drained{entry: Entry{ID: strs[i]}, gone: true})
			continue
		}
		e, err := b.entry(strs[i+2], strs[i+1], "0")
		if err != nil {
			return nil, err
		}
		if strs[i+4] == "1" {
			e.Data = []byte(strs[i+3])
		}
		out = append(out, drained{entry: e})
	}
	return out, nil
}

// copyPage returns the shard's entries that come after position (a Scan
// cursor: the score and member of the last entry copied, "" for the
// start), at most n, with their member data, and the position after them;
// positionDone when none is left.
func (b *Board) copyPage(ctx context.Context, position string, n int) ([]Entry, string, error) {
	p, err := b.scan(ctx, (position), n, []ReadOption{WithData()})
	if err != nil {
		return nil, "", err
	}
	if !p.HasMore {
		return p.Entries, positionDone, nil
	}
	return p.Entries, string(p.Next), nil
}

// savePosition keeps the shard's copy position in its meta HASH, for the
// process holding the resharding's lease token only (errFenced).
func (b *Board) savePosition(ctx context.Context, token, position string) error {
	err := b.conn.Run(ctx, shardPos, []string{names(b.prefix, 0).meta}, []string{token, position}).Error()
	return b.scriptErr("reshard", err)
}
