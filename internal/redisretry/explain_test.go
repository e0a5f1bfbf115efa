package redisretry

import (
	"context"
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/redis/rueidis"
)

// A socket's deadline, which rueidis takes from the call's context, may
// fire just before the context's own: the error is then the caller's
// (context.DeadlineExceeded, as a deadline that fired a moment later
// gives), still saying whether anything was sent. With the context
// alive, the same timeout is Redis's.
func TestSocketDeadlineOfTheCallerIsTheCallers(t *testing.T) {
	ended, cancel := context.WithDeadline(context.Background(), time.Unix(1, 0))
	defer cancel()
	for _, c := range []struct {
		op   string
		kind error
	}{{"dial", ErrUnreachable}, {"read", ErrNoReply}} {
		timeout := rueidis.NewErrorResult(&net.OpError{Op: c.op, Net: "tcp", Err: os.ErrDeadlineExceeded})
		err := explain(ended, timeout).Error()
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, c.kind) || !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("%s timeout once the context's deadline passed: %v; want context.DeadlineExceeded, %v and the socket's error", c.op, err, c.kind)
		}
		err = explain(context.Background(), timeout).Error()
		if errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, c.kind) {
			t.Errorf("%s timeout with the context alive: %v; want %v, not the context's error", c.op, err, c.kind)
		}
	}
}
