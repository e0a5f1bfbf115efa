package board

import (
	"errors"

	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/errs"
)

// Sentinel errors. Every error this package returns wraps one of them (and,
// for bad values, the pack sentinel that describes the problem), so callers
// use errors.Is. Every sentinel for bad input (ErrName, ErrOptions, ErrID,
// ErrValue, ErrDenseDisabled) wraps ErrArgument: errors.Is(err, ErrArgument)
// means the caller's mistake, with nothing written. ErrArgument,
// ErrOptions, ErrNotFound, ErrRedis, ErrReply and ErrNotReplicated are the
// same values in every package of tiebreak. An error caused by the
// caller's context wraps context.Canceled or context.DeadlineExceeded, not
// ErrRedis.
var (
	// ErrName reports a board name that is empty, too long (over MaxNameLen
	// bytes) or holds a brace, which would break the board's hash tag.
	ErrName = errs.Invalid("invalid name")

	// ErrOptions reports options or a layout the constructor refuses.
	ErrOptions = errs.Options

	// ErrID reports an empty id or one longer than the board's MaxIDLen.
	ErrID = errs.Invalid("invalid id")

	// ErrValue reports a value that is NaN, infinite, not an integer where
	// the field needs one, outside its field's range (also wrapping
	// pack.ErrOverflow), or a wrong number of values or operators.
	ErrValue = errs.Invalid("invalid value")

	// ErrArgument reports a bad argument: a count under 1, a negative
	// offset, a malformed cursor, an unknown rank kind or policy, member
	// data over MaxDataLen bytes, a SubmitMany over MaxSubmitMany.
	ErrArgument = errs.Argument

	// ErrNotFound reports an id that is not on the board, or a board or
	// archive that does not exist.
	ErrNotFound = errs.NotFound

	// ErrDenseDisabled reports a dense-rank read on a board built without
	// Options.DenseRanks.
	ErrDenseDisabled = errs.Invalid("dense ranks not enabled")

	// ErrConflict reports an Update that kept losing its compare-and-set to
	// concurrent writers until its context ended (it then wraps the
	// context's error too) or its attempts ran out (ErrRetriesExhausted).
	ErrConflict = errors.New("update conflict")

	// ErrRetriesExhausted reports an Update that lost its compare-and-set
	// Options.UpdateAttempts times in a row; it wraps ErrConflict too.
	ErrRetriesExhausted = errors.New("update attempts exhausted")

	// ErrExpired reports a write to a periodic board whose window, with its
	// retention, has already expired: the write would be deleted at once.
	ErrExpired = errors.New("window expired")

	// ErrMismatch reports a handle whose layout or options (Strategy, Cap,
	// DenseRanks) differ from the descriptor stored with the board: from
	// New, or from any call after the board migrated to other settings.
	// The error names the setting, stored and given.
	ErrMismatch = errors.New("descriptor mismatch")

	// ErrDescriptor reports a stored descriptor this package cannot read:
	// malformed, of an unknown version, or describing no valid layout.
	ErrDescriptor = errors.New("invalid stored descriptor")

	// ErrMigrating reports a Migrate to other settings than those of the
	// migration already under way on the board.
	ErrMigrating = errors.New("another migration under way")

	// ErrRedis wraps an error from Redis or the connection.
	ErrRedis = errs.Redis

	// ErrNotReplicated reports a write that the master applied but that
	// fewer than Options.WaitReplicas replicas acknowledged within
	// Options.WaitTimeout (or whose WAIT failed): a failover before it
	// reaches a replica may lose it. The call still returns the write's
	// result. It is the same error value in every package of tiebreak.
	ErrNotReplicated = durable.ErrNotReplicated

	// ErrReply reports a script reply of an unexpected shape.
	ErrReply = errs.Reply
)
