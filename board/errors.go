package board

import (
	"errors"
	"fmt"

	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/errs"
)

// Sentinel errors. Every error this package returns wraps one of them (and,
// for bad values, the pack sentinel that describes the problem), so callers
// use errors.Is. Every error for bad input wraps ErrArgument, ErrOptions
// included: errors.Is(err, ErrArgument) means the caller's mistake, with
// nothing written; the message says which argument and why. ErrArgument,
// ErrOptions, ErrNotFound, ErrRedis, ErrReply and ErrNotReplicated are
// the same values in every package of tiebreak. An error caused by the
// caller's context wraps context.Canceled or context.DeadlineExceeded,
// not ErrRedis.
var (
	// ErrArgument reports a bad argument: an invalid board name (empty,
	// over 200 bytes, holding a brace or a slash), an invalid id (empty
	// or over Options.MaxIDLen), a value that is NaN, infinite, not an
	// integer where the field needs one or outside its field's range
	// (also wrapping pack.ErrOverflow), a wrong number of values or of
	// Fields, Best in Fields or Fields with a Policy other than Replace,
	// a count under 1, a negative offset, a malformed cursor,
	// an unknown rank kind or policy, a dense rank on a board without
	// Options.DenseRanks, member data over 64 KiB, an operation the
	// board's kind does not have (Reshard of a board that is not sharded,
	// Migrate of one that is). The sharper sentinels wrap it: a value
	// outside Options.Bounds (ErrOutOfBounds), a tournament's refusals
	// (ErrClosed, ErrNotJoined, ErrFull, ErrNoAttempts).
	ErrArgument = errs.Argument

	// ErrOptions reports options or a layout the constructor refuses; it
	// wraps ErrArgument.
	ErrOptions = errs.Options

	// ErrNotFound reports an id that is not on the board, or a board or
	// archive that does not exist (a sharded board dropped since the
	// handle was made, to its writes and Clear).
	ErrNotFound = errs.NotFound

	// ErrConflict reports an Update that kept losing its compare-and-set
	// to concurrent writers until its context ended (it then wraps the
	// context's error too) or Options.UpdateAttempts ran out, an
	// archive whose making another caller took over, and a sharded
	// board's Around whose id moved between its round trips 8 times, or
	// deep Page or Between whose bounds writes moved 3 times.
	ErrConflict = errors.New("update conflict")

	// ErrMismatch reports a handle whose layout or stored settings
	// (Strategy, Cap, DenseRanks, Group, SharedData, Shards, Hiding,
	// KeepTop, Bounds, Rules: see Options) differ from the descriptor stored
	// with the board: from New, or from any call after the board migrated
	// to other settings; the error names the setting, stored and given. It
	// also reports a stored descriptor this package cannot read
	// (malformed, of an unknown version, or describing no valid layout),
	// and a Scan cursor made under another layout or strategy.
	ErrMismatch = errors.New("descriptor mismatch")

	// ErrMigrating reports a Migrate or a Reshard to other settings than
	// those of the one already under way on the board, an operation that
	// waits for one (Drop, Clear), and a call to a sharded board that
	// waited 10 s for a resharding to switch from its frozen shards
	// (nothing written).
	ErrMigrating = errors.New("another migration under way")

	// ErrRedis wraps an error from Redis or the connection.
	ErrRedis = errs.Redis

	// ErrNotReplicated reports a write that the master applied but that
	// fewer than Options.WaitReplicas replicas acknowledged within
	// Options.WaitTimeout (or whose WAIT failed): a failover before it
	// reaches a replica may lose it. The call still returns the write's
	// result. It is the same error value in every package of tiebreak.
	ErrNotReplicated = durable.ErrNotReplicated

	// ErrReply reports a script reply of an unexpected shape, or keys of
	// the board that cannot be what it wrote: a key of another type, a
	// dense index without an entry's tuple, a key-suffix board's id
	// lookup gone while its entries stay (evicted, or removed by hand:
	// docs/operating.md).
	ErrReply = errs.Reply
)

// The sharper kinds of bad input, each wrapping ErrArgument: their
// messages start the error's text.
var (
	errName          = errs.Invalid("invalid name")
	errID            = errs.Invalid("invalid id")
	errValue         = errs.Invalid("invalid value")
	errDenseDisabled = errs.Invalid("no dense ranks: the board's Options.DenseRanks is false")
)

// errDenseMissing reports a dense index (Options.DenseRanks) that lacks
// an entry's tuple: the board's keys were written other than by this
// package. Not the caller's mistake: it wraps ErrReply.
var errDenseMissing = fmt.Errorf("the dense index lacks an entry's tuple (entries written other than through this package: Remove them and write them again, or Clear the board): %w", ErrReply)

// errExpired reports a write to a periodic board whose window, with its
// retention, has already expired: the write would be deleted at once.
var errExpired = errs.Invalid("window expired")

// errDropped reports a write to a shard of a sharded board that was
// dropped: the board's descriptor lives at another hash tag than the
// shard's keys, so no write of a shard can store it again.
var errDropped = fmt.Errorf("the sharded board was dropped (build it again with New): %w", ErrNotFound)

// errDescriptor reports a stored descriptor this package cannot read.
var errDescriptor = fmt.Errorf("invalid stored descriptor: %w", ErrMismatch)

// errRetriesExhausted reports an Update whose Options.UpdateAttempts ran
// out; it is returned wrapped with ErrConflict.
var errRetriesExhausted = errors.New("update attempts exhausted")
