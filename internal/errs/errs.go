// Package errs holds the sentinel errors that every package of tiebreak
// shares, one value each (each package exports them under its own name:
// board.ErrArgument is timeline.ErrArgument), and the two rules that give
// errors one vocabulary:
//
//   - every sentinel for bad input wraps Argument (Invalid), so that
//     errors.Is(err, ErrArgument) means "the caller's mistake, nothing
//     written", whichever sharper sentinel the error names;
//   - an error from Redis or the connection wraps Redis, but one caused by
//     the caller's context wraps context.Canceled or
//     context.DeadlineExceeded and not Redis (FromRedis): a client that
//     hung up is no Redis outage.
//
// It knows nothing of Redis itself: pack and tsid use it too.
package errs

import (
	"context"
	"errors"
	"fmt"
)

// The shared sentinels.
var (
	// Argument reports the caller's mistake: nothing was written.
	Argument = errors.New("invalid argument")
	// Options reports options or settings a constructor refuses.
	Options = Invalid("invalid options")
	// NotFound reports an element (an id, a message) that is not there.
	NotFound = errors.New("not found")
	// Redis reports an error from Redis or the connection.
	Redis = errors.New("redis error")
	// Reply reports a reply of an unexpected shape.
	Reply = errors.New("unexpected reply")
)

// Invalid returns a sentinel for bad input whose text is msg and which
// wraps Argument.
func Invalid(msg string) error { return &sentinel{msg: msg} }

type sentinel struct{ msg string }

func (e *sentinel) Error() string { return e.msg }
func (e *sentinel) Unwrap() error { return Argument }

// FromRedis wraps err, an error of a call to Redis, after prefix (such as
// "board: submit"): in Redis, unless the caller's context caused it (then
// only the context's error is wrapped). It returns nil for nil.
func FromRedis(prefix string, err error) error {
	switch {
	case err == nil:
		return nil
	case Caller(err):
		return fmt.Errorf("%s: %w", prefix, err)
	}
	return fmt.Errorf("%s: %w: %w", prefix, Redis, err)
}

// Caller reports an error that the caller's context caused.
func Caller(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// NilCtx is the error of a call given a nil context.Context, which Go's
// context package forbids and rueidis panics on or waits on forever; it
// wraps Argument.
var NilCtx = Invalid("a nil context.Context (give context.Background() or a request's)")

// NilContext refuses a nil ctx: an error after prefix (the package, or
// the package and the constructor) wrapping NilCtx; nil for any other ctx.
func NilContext(prefix string, ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("%s: %w", prefix, NilCtx)
	}
	return nil
}
