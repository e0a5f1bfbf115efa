package ratelimit

import (
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/errs"
)

// Sentinel errors. Every error this package returns wraps one of them, so
// callers use errors.Is. Every sentinel for bad input (ErrKey, ErrLimit,
// ErrExceedsLimit, ErrOptions) wraps ErrArgument: errors.Is(err,
// ErrArgument) means the caller's mistake, with nothing written.
// ErrArgument, ErrOptions, ErrRedis, ErrReply and ErrNotReplicated are the
// same values in every package of tiebreak. An error caused by the
// caller's context wraps context.Canceled or context.DeadlineExceeded, not
// ErrRedis.
var (
	// ErrKey reports a limited key that is empty, longer than MaxKeyLen
	// bytes or holds a brace, which would break its hash tag.
	ErrKey = errs.Invalid("invalid key")

	// ErrLimit reports a Limit whose N is outside [1, MaxN] or whose
	// Window is outside [1µs, MaxWindow] or not a whole number of
	// microseconds.
	ErrLimit = errs.Invalid("invalid limit")

	// ErrArgument reports an AllowN asking for fewer than one request or
	// more than MaxAllowN.
	ErrArgument = errs.Argument

	// ErrExceedsLimit reports an AllowN asking for more requests than its
	// limit admits in any window: no wait would ever let it through.
	ErrExceedsLimit = errs.Invalid("n exceeds the limit")

	// ErrOptions reports a nil client or options the constructor refuses.
	ErrOptions = errs.Options

	// ErrRedis wraps an error from Redis or the connection.
	ErrRedis = errs.Redis

	// ErrNotReplicated reports a write that the master applied but that
	// fewer than Options.WaitReplicas replicas acknowledged within
	// Options.WaitTimeout (or whose WAIT failed): a failover before it
	// reaches a replica may lose it. The call still returns the write's
	// result. It is the same error value in every package of tiebreak.
	ErrNotReplicated = durable.ErrNotReplicated

	// ErrReply reports a script reply of an unexpected shape, or a key
	// whose log holds an entry no Limiter wrote (another program writes
	// the key).
	ErrReply = errs.Reply
)
