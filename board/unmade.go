package board

import (
	"context"
	"fmt"

	"github.com/tiebreak/tiebreak/internal/errs"
)

// unmadeErr is the error of every call on a Board, Group or Periodic not
// made by its constructor: a zero value or a nil pointer.
func unmadeErr(what, by string) error {
	return fmt.Errorf("board: a %s not made by %s (a zero value or nil): %w", what, by, ErrArgument)
}

// unmade refuses a Board not made by New, Open, Migrate, Reshard or a
// Periodic (ErrArgument).
func (b *Board) unmade() error {
	if b == nil || !b.conn.Valid() {
		return unmadeErr("Board", "New or Open")
	}
	return nil
}

// unmade refuses a Group not made by NewGroup (ErrArgument).
func (g *Group) unmade() error {
	if g == nil || len(g.boards) == 0 {
		return unmadeErr("Group", "NewGroup")
	}
	return nil
}

// unmade refuses a Periodic not made by NewPeriodic (ErrArgument).
func (p *Periodic) unmade() error {
	if p == nil || !p.conn.Valid() {
		return unmadeErr("Periodic", "NewPeriodic")
	}
	return nil
}

// usable is unmade for a call given ctx, refusing a nil ctx too
// (ErrArgument): rueidis would panic on it or wait forever.
func (b *Board) usable(ctx context.Context) error {
	if err := b.unmade(); err != nil {
		return err
	}
	return errs.NilContext("board", ctx)
}

// usable is unmade for a call given ctx, refusing a nil ctx too.
func (g *Group) usable(ctx context.Context) error {
	if err := g.unmade(); err != nil {
		return err
	}
	return errs.NilContext("board: Group", ctx)
}

// usable is unmade for a call given ctx, refusing a nil ctx too.
func (p *Periodic) usable(ctx context.Context) error {
	if err := p.unmade(); err != nil {
		return err
	}
	return errs.NilContext("board: Periodic", ctx)
}
