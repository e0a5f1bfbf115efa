package ratelimit

import (
	"errors"

	"github.com/tiebreak/tiebreak/internal/durable"
)

// Sentinel errors. Every error this package returns wraps one of them, so
// callers use errors.Is.
var (
	// ErrKey reports a limited key that is empty, longer than MaxKeyLen
	// bytes or holds a brace, which would break its hash tag.
	ErrKey = errors.New("invalid key")

	// ErrLimit reports a Limit whose N is outside [1, MaxN] or whose
	// Window is outside [1µs, MaxWindow] or not a whole number of
	// microseconds.
	ErrLimit = errors.New("invalid limit")

	// ErrArgument reports an AllowN asking for fewer than one request or
	// more than MaxAllowN.
	ErrArgument = errors.New("invalid argument")

	// ErrExceedsLimit reports an AllowN asking for more requests than its
	// limit admits in any window: no wait would ever let it through.
	ErrExceedsLimit = errors.New("n exceeds the limit")

	// ErrOptions reports a nil client or options the constructor refuses.
	ErrOptions = errors.New("invalid options")

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
