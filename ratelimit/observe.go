package ratelimit

import (
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// errKinds are the package's sentinel errors as an observer names them.
var errKinds = []observed.Sentinel{
	{Err: ErrNotReplicated, Name: "ratelimit.ErrNotReplicated"},
	{Err: ErrOptions, Name: "ratelimit.ErrOptions"},
	{Err: ErrKey, Name: "ratelimit.ErrKey"},
	{Err: ErrLimit, Name: "ratelimit.ErrLimit"},
	{Err: ErrExceedsLimit, Name: "ratelimit.ErrExceedsLimit"},
	{Err: ErrArgument, Name: "ratelimit.ErrArgument"},
	{Err: ErrRedis, Name: "ratelimit.ErrRedis"},
	{Err: ErrReply, Name: "ratelimit.ErrReply"},
}

// op describes the operation name of l on key for n requests.
func (l *Limiter) op(name, key string, limit Limit, n int) observe.Op {
	op := observe.Op{Package: "ratelimit", Name: name, Object: l.prefix, Key: key, N: int64(n)}
	if limit.N != 0 {
		op.Policy = limit.String()
	}
	return op
}

// resultOutcome reports whether the requests were admitted and how many
// more the window admits.
func resultOutcome(r Result, o observe.Outcome) observe.Outcome {
	if !r.At.IsZero() { // Redis answered
		o.Allowed, o.Count = r.Allowed > 0, int64(r.Remaining)
		o.Has |= observe.HasAllowed | observe.HasCount
	}
	return o
}
