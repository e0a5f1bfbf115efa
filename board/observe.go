package board

import (
	"errors"

	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// errKinds are the package's sentinel errors as an observer names them,
// those that wrap another first.
var errKinds = []observed.Sentinel{
	{Err: ErrConflict, Name: "board.ErrConflict"},
	{Err: ErrNotReplicated, Name: "board.ErrNotReplicated"},
	{Err: ErrOptions, Name: "board.ErrOptions"},
	{Err: ErrOutOfBounds, Name: "board.ErrOutOfBounds"},
	{Err: ErrClosed, Name: "board.ErrClosed"},
	{Err: ErrNotJoined, Name: "board.ErrNotJoined"},
	{Err: ErrFull, Name: "board.ErrFull"},
	{Err: ErrNoAttempts, Name: "board.ErrNoAttempts"},
	{Err: ErrArgument, Name: "board.ErrArgument"},
	{Err: ErrNotFound, Name: "board.ErrNotFound"},
	{Err: ErrMismatch, Name: "board.ErrMismatch"},
	{Err: ErrMigrating, Name: "board.ErrMigrating"},
	{Err: ErrRedis, Name: "board.ErrRedis"},
	{Err: ErrReply, Name: "board.ErrReply"},
}

// op describes the operation name of b asking for n entries.
func (b *Board) op(name string, n int) observe.Op {
	return observe.Op{Package: "board", Name: name, Object: b.name, Group: b.opts.Group, Strategy: b.opts.Strategy.String(), N: int64(n)}
}

// resultOutcome reports a write's stored rank, change and trim: when it
// succeeded, or was applied but not replicated.
func resultOutcome(r Result, o observe.Outcome) observe.Outcome {
	if o.Err != nil && !errors.Is(o.Err, ErrNotReplicated) {
		return o
	}
	o.Rank, o.Changed, o.Trimmed = r.Entry.Rank, r.Changed, r.Trimmed
	o.Has |= observe.HasRank | observe.HasChanged | observe.HasTrimmed
	return o
}

// entryOutcome reports the rank of the entry read.
func entryOutcome(e Entry, o observe.Outcome) observe.Outcome {
	if o.Err == nil {
		o.Rank, o.Has = e.Rank, o.Has|observe.HasRank
	}
	return o
}

// rankOutcome reports the rank read.
func rankOutcome(rank int64, o observe.Outcome) observe.Outcome {
	if o.Err == nil {
		o.Rank, o.Has = rank, o.Has|observe.HasRank
	}
	return o
}

// listOutcome reports how many entries a read returned.
func listOutcome(l List, o observe.Outcome) observe.Outcome {
	return observed.Count(len(l.Entries), o)
}

// removedOutcome reports how many ids a Remove removed: on a sharded
// board a Remove that failed on some shards has removed the ids of the
// others, and returns how many with its error.
func removedOutcome(n int64, o observe.Outcome) observe.Outcome {
	if o.Err != nil && n == 0 {
		return o
	}
	o.Count, o.Has = n, o.Has|observe.HasCount
	return o
}

// manyOutcome reports how many submissions were written and, as the
// call's error, the first submission's error.
func manyOutcome(rs []ManyResult, o observe.Outcome) observe.Outcome {
	written := 0
	for _, r := range rs {
		switch {
		case r.Err == nil:
			written++
		case o.Err == nil:
			o.Err, o.ErrKind = r.Err, observed.Kind(r.Err, errKinds)
		}
	}
	o.Count, o.Has = int64(written), o.Has|observe.HasCount
	return o
}
