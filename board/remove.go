package board

import (
	"context"
	"fmt"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/observed"
)

// maxRemove is the most ids one Remove takes.
const maxRemove = 1000

// Remove removes ids, with their member data and rank-index entries, in one
// atomic script, and returns how many were on the board. It refuses no ids
// and more than 1000 (ErrArgument) and an invalid id (ErrArgument), removing
// nothing. It waits for replicas as Submit does (Options.WaitReplicas).
// A hidden entry (Options.Hiding) goes with its hiding: the member's next
// write is seen by others (see Hide).
//
// On a sharded board the ids of each shard go in one script on that
// shard, all shards at once: each shard's removal is atomic, the whole is
// not. An error may leave the ids of the shards that answered removed;
// Remove again (removing an id not on the board changes nothing).
func (b *Board) Remove(ctx context.Context, ids ...string) (int64, error) {
	if err := b.usable(ctx); err != nil {
		return 0, err
	}
	if b.sh != nil {
		return b.sh.Remove(ctx, ids...)
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Remove", len(ids)), errKinds, func(ctx context.Context) (int64, error) { return b.remove(ctx, ids) }, removedOutcome)
	}
	return b.remove(ctx, ids)
}

// remove is Remove.
func (b *Board) remove(ctx context.Context, ids []string) (int64, error) {
	if len(ids) == 0 || len(ids) > maxRemove {
		return 0, fmt.Errorf("board: Remove: len(ids) = %d out of range [1, %d]: %w", len(ids), maxRemove, ErrArgument)
	}
	args := make([]string, 0, len(ids))
	for _, id := range ids {
		if err := b.checkID(id); err != nil {
			return 0, err
		}
		args = append(args, id)
	}
	return rdb.Durable(ctx, b.conn, b.opts.wait(), "board: remove", func(c rdb.Conn) (int64, error) {
		return inGen(ctx, b, func(g *generation) (int64, error) {
			n, err := c.Run(ctx, g.scripts.remove, g.keys.script, args).AsInt64()
			return n, b.scriptErr("remove", err)
		})
	})
}

// SetData sets the member data of id, which must be on the board
// (ErrNotFound otherwise, and nothing is written). It refuses an invalid id
// (ErrArgument), data over 64 KiB bytes (ErrArgument), a periodic window
// past its retention (ErrArgument) and, on a board with Rules, a write
// outside the tournament's time (ErrClosed), as Submit does. Data is removed with
// the entry. To write data with the values, use Submission.Data. It waits
// for replicas as Submit does (Options.WaitReplicas).
func (b *Board) SetData(ctx context.Context, id string, data []byte) error {
	if err := b.usable(ctx); err != nil {
		return err
	}
	if b.sh != nil {
		return b.sh.SetData(ctx, id, data)
	}
	if b.opts.Observer != nil {
		return observed.Do(ctx, b.opts.Observer, b.op("SetData", 0), errKinds, func(ctx context.Context) error { return b.setData(ctx, id, data) })
	}
	return b.setData(ctx, id, data)
}

// setData is SetData.
func (b *Board) setData(ctx context.Context, id string, data []byte) error {
	if err := b.checkID(id); err != nil {
		return err
	}
	if len(data) > maxDataLen {
		return fmt.Errorf("board: set data: id %s: %d bytes of data, over the %d member data may hold: %w", clip.Quote(id), len(data), maxDataLen, ErrArgument)
	}
	expire, err := b.expireArg()
	if err != nil {
		return err
	}
	args := []string{id, string(data), expire}
	_, err = rdb.Durable(ctx, b.conn, b.opts.wait(), "board: set data", func(c rdb.Conn) (int64, error) {
		n, err := inGen(ctx, b, func(g *generation) (int64, error) {
			n, err := c.Run(ctx, g.scripts.setData, g.keys.script, args).AsInt64()
			return n, b.scriptErr("set data", err)
		})
		if err == nil && n == 0 {
			err = fmt.Errorf("board: id %q: %w", id, ErrNotFound)
		}
		return n, err
	})
	return err
}
