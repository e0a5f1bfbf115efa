package board

import (
	"context"
	"fmt"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/observed"
)

// maxHide is the most ids one Hide or Show takes.
const maxHide = 10_000

// Hide hides ids on a board with Options.Hiding, a shadow ban: a hidden
// member's entry stays, and its writes go on as before (their Result
// ranks it where it would be), but every read of others (Top, Page,
// Around, Between, Scan, Among, Get, Rank, Len, every rank kind) behaves
// exactly as if it were absent, in the same O(log N); Get with AsSelf
// shows it to itself with the ranks it would have. An archive of a
// window leaves hidden entries out. The hiding is the entry's: Remove
// (and Clear, Drop) removes a hidden entry with its hiding, so that the
// member's next write makes an entry that others see. To reset a hidden
// member's score and keep it hidden, write its new values (Replace) while
// it is hidden; or Hide it again after its next write.
//
// One atomic script, one round trip; it returns how many of ids it hid
// (ids hidden already, or not on the board, do not count). It refuses a
// board without Options.Hiding, an invalid id and more than 10,000 ids
// (ErrArgument), hiding none. Redis errors wrap ErrRedis.
func (b *Board) Hide(ctx context.Context, ids ...string) (int64, error) {
	if err := b.usable(ctx); err != nil {
		return 0, err
	}
	return b.hideOrShow(ctx, "Hide", "h", ids)
}

// Show shows ids hidden by Hide again, in one atomic script: their entries,
// as written meanwhile, rank among the others' again. It returns how many
// of ids it showed, and refuses what Hide refuses.
func (b *Board) Show(ctx context.Context, ids ...string) (int64, error) {
	if err := b.usable(ctx); err != nil {
		return 0, err
	}
	return b.hideOrShow(ctx, "Show", "s", ids)
}

func (b *Board) hideOrShow(ctx context.Context, op, mode string, ids []string) (int64, error) {
	run := func(ctx context.Context) (int64, error) {
		if !b.opts.Hiding || b.sh != nil {
			return 0, fmt.Errorf("board: %s: %s: the board has no Options.Hiding: %w", op, b.label(), ErrArgument)
		}
		if len(ids) == 0 || len(ids) > maxHide {
			return 0, fmt.Errorf("board: %s: len(ids) = %d out of range [1, %d]: %w", op, len(ids), maxHide, ErrArgument)
		}
		args := append(make([]string, 0, len(ids)+1), mode)
		for _, id := range ids {
			if err := b.checkID(id); err != nil {
				return 0, err
			}
			args = append(args, id)
		}
		return rdb.Durable(ctx, b.conn, b.opts.wait(), "board: "+op, func(c rdb.Conn) (int64, error) {
			return inGen(ctx, b, func(g *generation) (int64, error) {
				n, err := c.Run(ctx, g.scripts.hide, g.keys.script, args).AsInt64()
				return n, b.scriptErr(op, err)
			})
		})
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op(op, len(ids)), errKinds, run, observed.Count[int64])
	}
	return run(ctx)
}
