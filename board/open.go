package board

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/errs"
)

// Open returns a handle to the board named name, of whatever kind it is,
// built from the descriptor stored with it alone, so that a tool or
// another service can read and write a board without knowing its layout:
// a board, a board of a group (named "group/name"), a sharded board, a
// periodic window ("<name>:<label>", see Periodic; the handle keeps the
// instant its keys expire) or an archive ("<name>:<label>:final"). It
// makes one round trip; for a sharded board three: the descriptor, then
// its shards' (all at once), then the list of old shards that a Reshard
// cut short left to retire (one HGET when there are none).
//
// opts gives the handle's own settings (MaxIDLen, UpdateAttempts,
// SkipWriteRank, RequestRetention, CacheTop, WaitReplicas, WaitTimeout,
// WaitAOF, Observer); the zero value means every default. The stored
// ones (Strategy, Cap, DenseRanks, Group, SharedData, Shards, Hiding,
// KeepTop, Bounds, Rules: see Options) come from the descriptor and must
// be zero in opts (ErrOptions).
//
// It refuses an invalid name (ErrArgument), a nil client and invalid options
// (ErrOptions); a name with no stored descriptor is ErrNotFound, a
// descriptor it cannot read ErrMismatch. Redis errors wrap ErrRedis. Its
// read of the descriptor writes nothing, and waits for a server that is
// down, as a read does, until ctx ends.
func Open(ctx context.Context, client rueidis.Client, name string, opts Options) (*Board, error) {
	if err := errs.NilContext("board: Open", ctx); err != nil {
		return nil, err
	}
	group, name, grouped := strings.Cut(name, "/")
	if !grouped {
		group, name = "", group
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	if grouped {
		if checkName(group) != nil {
			return nil, fmt.Errorf("board: Open: %q: its group %q is not a valid board name: %w", group+"/"+name, group, errName)
		}
	}
	if client == nil {
		return nil, fmt.Errorf("board: Open: client is nil: %w", ErrOptions)
	}
	if opts.Strategy != 0 || opts.Cap != 0 || opts.DenseRanks || opts.Group != "" || opts.SharedData || opts.Shards != 0 || opts.Rules.set() || opts.Bounds != nil || opts.Hiding || opts.KeepTop != 0 {
		return nil, fmt.Errorf("board: Open: Options.Strategy, Cap, DenseRanks, Group, SharedData, Shards, Hiding, KeepTop, Bounds and Rules come from the stored descriptor, want them zero: %w", ErrOptions)
	}
	handle := opts
	handle.SkipWriteRank, handle.CacheTop = false, false // checked against the descriptor
	if _, err := handle.withDefaults(); err != nil {
		return nil, err
	}
	conn := rdb.New(client)
	m, err := readMetaWaiting(ctx, conn, name, prefixOf(group, name))
	if err != nil {
		return nil, err
	}
	if !m.exists {
		hint := ""
		if group == "" {
			hint = " (a board of a group is named group/name)"
		}
		return nil, fmt.Errorf("board: %s has no stored descriptor%s: %w", fullName(group, name), hint, ErrNotFound)
	}
	d, err := parseDescriptor(name, m.desc)
	if err != nil {
		return nil, err
	}
	l, stored, err := d.build(name)
	if err != nil {
		return nil, err
	}
	opts.Strategy, opts.Cap, opts.DenseRanks, opts.SharedData, opts.Rules, opts.Bounds, opts.Hiding = stored.Strategy, stored.Cap, stored.DenseRanks, stored.SharedData, stored.Rules, stored.Bounds, stored.Hiding
	opts.KeepTop, opts.round = stored.KeepTop, stored.round
	if opts.CacheTop && opts.KeepTop == 0 {
		return nil, fmt.Errorf("board: Open: %s: Options.CacheTop on a board without KeepTop: %w", fullName(group, name), ErrOptions)
	}
	opts.expireAt, opts.span, opts.Group = m.expireAt, m.span, group
	if d.Shards > 0 {
		return openShardedBoard(ctx, conn, name, l, d, opts)
	}
	if opts.SkipWriteRank {
		return nil, fmt.Errorf("board: Open: %s is not sharded: Options.SkipWriteRank: %w", name, ErrOptions)
	}
	b, err := configure(conn, name, l, opts)
	if err != nil {
		return nil, fmt.Errorf("board: %s: %w: %w", name, errDescriptor, err)
	}
	return b, b.adopt(m)
}

// fullName is how Open and the command name a board: "group/name", or
// name when it has no group.
func fullName(group, name string) string {
	if group == "" {
		return name
	}
	return group + "/" + name
}
