package board

import (
	"context"
	"fmt"
	"github.com/tiebreak/tiebreak/internal/hashtag"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisretry"
)

// Open returns a handle to the board named name built from the descriptor
// stored with it alone, so that a tool or another service can read and
// write a board without knowing its layout. A periodic window opened by
// its full name ("<name>:<label>", see Periodic) keeps the instant its
// keys expire. The handle's MaxIDLen and UpdateAttempts are the defaults.
//
// It refuses an invalid name (ErrName) and a nil client (ErrOptions); a
// name with no descriptor is ErrNotFound, whatever other keys it has (a
// board is its descriptor, see New); a descriptor it cannot read is
// ErrDescriptor; a sharded board is ErrMismatch (open it with
// OpenSharded). Redis errors wrap ErrRedis.
func Open(ctx context.Context, client rueidis.Client, name string) (*Board, error) {
	return open(ctx, client, "", name)
}

// OpenGroup is Open for a board of a group (Options.Group): the board
// named name among those that share the hash tag {group}. It refuses an
// invalid group as New refuses an invalid Options.Group (ErrOptions).
func OpenGroup(ctx context.Context, client rueidis.Client, group, name string) (*Board, error) {
	if err := hashtag.Check(group, MaxNameLen, "board: group", ErrOptions); err != nil {
		return nil, err
	}
	return open(ctx, client, group, name)
}

func open(ctx context.Context, client rueidis.Client, group, name string) (*Board, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if client == nil {
		return nil, fmt.Errorf("board: Open: client is nil: %w", ErrOptions)
	}
	m, err := readMeta(ctx, redisretry.Wrap(client), name, prefixOf(group, name), "")
	if err != nil {
		return nil, err
	}
	if !m.exists {
		return nil, fmt.Errorf("board: %s has no stored descriptor: %w", name, ErrNotFound)
	}
	d, err := parseDescriptor(name, m.desc)
	if err != nil {
		return nil, err
	}
	if d.Shards > 0 {
		return nil, fmt.Errorf("board: %s is sharded over %d shards: open it with OpenSharded: %w", name, d.Shards, ErrMismatch)
	}
	l, o, err := d.build(name)
	if err != nil {
		return nil, err
	}
	o.expireAt, o.Group = m.expireAt, group
	b, err := configure(client, name, l, o)
	if err != nil {
		return nil, fmt.Errorf("board: %s: stored descriptor: %w: %w", name, ErrDescriptor, err)
	}
	return b, b.adopt(m)
}

// Descriptor returns what this handle stores with the board and expects
// stored: its layout and the options that decide the encoding.
func (b *Board) Descriptor() Descriptor {
	d := b.desc
	d.Fields = append([]FieldDescriptor(nil), d.Fields...)
	return d
}
