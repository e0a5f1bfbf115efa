package board

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tiebreak/tiebreak/internal/observed"
)

// Clear empties the board: its entries, its member data and its rank
// indexes (the id lookup of KeySuffix, the dense index), keeping its
// descriptor and settings, so that the board stays openable (Open) and
// writable, with the same settings, through every handle. A board of a
// group with Options.SharedData keeps the group's shared data HASH, as
// Remove and Drop do (remove those ids with the group). A periodic window
// keeps the instant its keys expire (the next write sets it on the keys
// again); an archive stays made (Archive does not copy it again).
//
// On a board of one hash tag (plain, of a group, a window, an archive)
// Clear is one script: atomic, either every entry is gone or nothing
// changed. On a sharded board each shard is cleared in one script, all
// shards at once: a read across the shards meanwhile may see some shards
// cleared and not yet others, and a write meanwhile may land before or
// after its shard's clearing.
//
// Clear refuses, changing nothing, a board that is migrating (Migrate
// under way) or a sharded board changing its shards (Reshard under way),
// with an error wrapping ErrMigrating; should a resharding begin while a
// sharded board's Clear runs, the shards it already reached stay cleared
// and Clear returns an error wrapping ErrMigrating. A board with no
// stored descriptor (dropped) is ErrNotFound, but a window not yet
// written is empty already (nil); a stored descriptor that differs from
// the handle's is ErrMismatch. Redis errors wrap ErrRedis.
func (b *Board) Clear(ctx context.Context) error {
	if err := b.usable(ctx); err != nil {
		return err
	}
	if b.sh != nil {
		return b.sh.Clear(ctx)
	}
	if b.opts.Observer != nil {
		return observed.Do(ctx, b.opts.Observer, b.op("Clear", 0), errKinds, b.clear)
	}
	return b.clear(ctx)
}

// clear runs clear.lua on the generation the meta HASH names, reading it
// again when a migration step came between.
func (b *Board) clear(ctx context.Context) error {
	for range maxReloads {
		m, err := b.readMeta(ctx, false)
		if err != nil {
			return err
		}
		switch {
		case !m.exists && !b.opts.expireAt.IsZero():
			return nil // a window not yet written, or expired: no keys
		case !m.exists:
			return fmt.Errorf("board: %s: Clear: the board has no stored descriptor (dropped?): %w", b.label(), ErrNotFound)
		case m.desc != b.desc.encoded():
			return b.mismatch(m)
		case m.state != phaseLive:
			return fmt.Errorf("board: %s: Clear: the board is %s; nothing removed: %w", b.label(), m.state, ErrMigrating)
		}
		cur := names(b.prefix, m.gen)
		keys := []string{cur.meta, cur.z, cur.i, cur.v, cur.c, cur.a, cur.h, cur.top, cur.hist}
		if !b.opts.SharedData {
			keys = append(keys, cur.d)
		}
		r, err := b.conn.Run(ctx, clearScript, keys, []string{b.desc.encoded(), strconv.FormatInt(m.gen, 10), b.opts.span}).ToString()
		if err != nil {
			return redisErr("clear", err)
		}
		switch r {
		case "cleared":
			return nil
		case "busy":
			return fmt.Errorf("board: %s: Clear: a migration began; nothing removed: %w", b.label(), ErrMigrating)
		case "span":
			return b.spanMismatch("Clear", m.span)
		}
	}
	return fmt.Errorf("board: %s: Clear: the board kept moving to other generations (a migration's steps); nothing removed: %w", b.label(), ErrMigrating)
}

// Clear is Board.Clear of a sharded board: each shard of the descriptor's
// view cleared in one script, all at once, unless a resharding is under
// way.
func (sb *sharded) Clear(ctx context.Context) error {
	if sb.opts.Observer != nil {
		return observed.Do(ctx, sb.opts.Observer, sb.op("Clear", 0), errKinds, sb.clear)
	}
	return sb.clear(ctx)
}

func (sb *sharded) clear(ctx context.Context) error {
	m, err := readMeta(ctx, sb.conn, sb.name, prefixOf("", sb.name), "")
	switch {
	case err != nil:
		return err
	case !m.exists:
		return fmt.Errorf("board: %s: Clear: the board has no stored descriptor (dropped?): %w", sb.name, ErrNotFound)
	case m.state == phaseResharding:
		return fmt.Errorf("board: %s: Clear: the board is changing its shards; nothing removed: %w", sb.name, ErrMigrating)
	}
	v := sb.view.Load()
	if m.desc != v.desc.encoded() {
		if err := sb.reload(ctx, v); err != nil {
			return err
		}
		if v = sb.view.Load(); m.desc != v.desc.encoded() {
			return fmt.Errorf("board: %s: Clear: the board changed its shards meanwhile; nothing removed: %w", sb.name, ErrMigrating)
		}
	}
	if err := eachShard(v.shards, func(s *Board) error { return s.clear(ctx) }); err != nil {
		return fmt.Errorf("board: %s: Clear: some shards may be cleared: %w", sb.name, err)
	}
	return nil
}
