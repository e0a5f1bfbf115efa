package errs

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// A sentinel for bad input is its own value, reads as its text alone, and
// wraps Argument; Options is one of them.
func TestInvalidWrapsArgument(t *testing.T) {
	a, b := Invalid("invalid name"), Invalid("invalid name")
	if a == b || errors.Is(a, b) {
		t.Error("two sentinels of one text are one value")
	}
	for _, s := range []error{a, Options} {
		err := fmt.Errorf("pkg: op: %w", s)
		if !errors.Is(err, s) || !errors.Is(err, Argument) {
			t.Errorf("%v: not both its sentinel and Argument", err)
		}
	}
	if a.Error() != "invalid name" {
		t.Errorf("text %q", a.Error())
	}
	if errors.Is(NotFound, Argument) || errors.Is(Redis, Argument) {
		t.Error("a sentinel of no bad input wraps Argument")
	}
}

// An error of the caller's context wraps the context's error and not
// Redis; any other wraps Redis and itself.
func TestFromRedis(t *testing.T) {
	if FromRedis("x", nil) != nil {
		t.Error("nil became an error")
	}
	for _, c := range []error{context.Canceled, context.DeadlineExceeded, fmt.Errorf("read: %w", context.Canceled)} {
		err := FromRedis("board: submit", c)
		if errors.Is(err, Redis) || !errors.Is(err, c) {
			t.Errorf("%v: Redis %t, its cause %t", err, errors.Is(err, Redis), errors.Is(err, c))
		}
	}
	io := errors.New("connection reset")
	if err := FromRedis("board: submit", io); !errors.Is(err, Redis) || !errors.Is(err, io) || err.Error() != "board: submit: redis error: connection reset" {
		t.Errorf("%v", err)
	}
}
