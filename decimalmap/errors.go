package decimalmap

import (
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/errs"
)

// Sentinel errors. Every error this package returns wraps one of them (and,
// for a malformed key, the pack sentinel that describes the problem), so
// callers use errors.Is. The sentinels' texts carry no package name: an
// error's text starts with "decimalmap: " once, then names the call and the
// argument that failed, with the value given and the range allowed. Every
// sentinel for bad input (ErrName, ErrOptions, ErrKey) wraps ErrArgument:
// errors.Is(err, ErrArgument) means the caller's mistake, with nothing
// written. ErrArgument, ErrOptions, ErrRedis, ErrReply and ErrNotReplicated
// are the same values in every package of tiebreak. An error caused by
// the caller's context wraps context.Canceled or context.DeadlineExceeded,
// not ErrRedis.
var (
	// ErrName reports a map name that is empty, over MaxNameLen bytes or
	// holds a brace, which would break the map's hash tag.
	ErrName = errs.Invalid("invalid name")

	// ErrOptions reports a nil client or options the constructor refuses.
	ErrOptions = errs.Options

	// ErrKey reports a key that is not a decimal number (also wrapping
	// pack.ErrSyntax), whose exponent is out of range (also wrapping
	// pack.ErrOverflow), or whose text is longer than Options.MaxKeyLen.
	ErrKey = errs.Invalid("invalid key")

	// ErrArgument reports a bad argument other than a key: Add without
	// values or with more than MaxAddValues, a value over MaxValueLen, an
	// Add past MaxValues, Remove of no keys or of more than MaxRemove, a
	// Remove or Range over MaxCallValues values, a negative limit, a page
	// size under 1, a malformed cursor.
	ErrArgument = errs.Argument

	// ErrRedis wraps an error from Redis or the connection.
	ErrRedis = errs.Redis

	// ErrNotReplicated reports a write that the master applied but that
	// fewer than Options.WaitReplicas replicas acknowledged within
	// Options.WaitTimeout (or whose WAIT failed): a failover before it
	// reaches a replica may lose it. The call still returns the write's
	// result. It is the same error value in every package of tiebreak.
	ErrNotReplicated = durable.ErrNotReplicated

	// ErrReply reports a reply of an unexpected shape, such as an index
	// member that is not a decimal encoding (a foreign write to the map's
	// keys).
	ErrReply = errs.Reply
)
