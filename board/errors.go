package board

import (
	"errors"

	"github.com/tiebreak/tiebreak/internal/durable"
)

// Sentinel errors. Every error this package returns wraps one of them (and,
// for bad values, the pack sentinel that describes the problem), so callers
// use errors.Is.
var (
	// ErrName reports a board name that is empty, too long (over MaxNameLen
	// bytes) or holds a brace, which would break the board's hash tag.
	ErrName = errors.New("invalid name")

	// ErrOptions reports options or a layout the constructor refuses.
	ErrOptions = errors.New("invalid options")

	// ErrID reports an empty id or one longer than the board's MaxIDLen.
	ErrID = errors.New("invalid id")

	// ErrValue reports a value that is NaN, infinite, not an integer where
	// the field needs one, outside its field's range (also wrapping
	// pack.ErrOverflow), or a wrong number of values or operators.
	ErrValue = errors.New("invalid value")

	// ErrArgument reports a bad argument: a count under 1, a negative
	// offset, a malformed cursor, an unknown rank kind or policy, member
	// data over MaxDataLen bytes, a SubmitMany over MaxSubmitMany.
	ErrArgument = errors.New("invalid argument")

	// ErrNotFound reports an id that is not on the board.
	ErrNotFound = errors.New("id not found")

	// ErrDenseDisabled reports a dense-rank read on a board built without
	// Options.DenseRanks.
	ErrDenseDisabled = errors.New("dense ranks not enabled")

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

	// ErrRedis wraps an error from Redis or the connection (including a
	// cancelled context, which it also wraps).
	ErrRedis = errors.New("redis error")

	// ErrNotReplicated reports a write that the master applied but that
	// fewer than Options.WaitReplicas replicas acknowledged within
	// Options.WaitTimeout (or whose WAIT failed): a failover before it
	// reaches a replica may lose it. The call still returns the write's
	// result. It is the same error value in every package of tiebreak.
	ErrNotReplicated = durable.ErrNotReplicated

	// ErrReply reports a script reply of an unexpected shape.
	ErrReply = errors.New("unexpected reply")
)
