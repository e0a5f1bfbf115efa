package ratelimit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// On a server without replicas, every call of a limiter that waits for
// one is applied and returns its result with ErrNotReplicated: each of
// them sends WAIT.
func TestWritesWaitForReplicas(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	l, err := New(env.Client, Options{Prefix: env.Prefix + ":", WaitReplicas: 1, WaitTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	short := func(op string, err error) {
		t.Helper()
		if !errors.Is(err, ErrNotReplicated) || !strings.Contains(err.Error(), "0 of 1 replicas") {
			t.Errorf("%s: %v, want ErrNotReplicated (0 of 1 replicas)", op, err)
		}
	}
	res, err := l.AllowN(ctx, "k", PerHour(3), 2)
	short("AllowN", err)
	if res.Allowed != 2 || res.Remaining != 1 {
		t.Errorf("AllowN's result %+v, want 2 allowed, 1 remaining", res)
	}
	if n := zcard(t, env.Client, env.Prefix+":{k}"); n != 2 {
		t.Errorf("the log holds %d entries, want 2", n)
	}
	short("Reset", l.Reset(ctx, "k"))
	if _, err := l.AllowN(ctx, "k", PerHour(3), 0); !errors.Is(err, ErrArgument) {
		t.Errorf("AllowN(0): %v, want ErrArgument alone", err)
	}
}

func TestWaitOptionsRefused(t *testing.T) {
	env := redistest.New(t)
	for _, o := range []Options{{WaitReplicas: -1}, {WaitReplicas: MaxWaitReplicas + 1}, {WaitTimeout: -1}, {WaitTimeout: MaxWaitTimeout + 1}} {
		if _, err := New(env.Client, o); !errors.Is(err, ErrOptions) {
			t.Errorf("New with %+v: %v, want ErrOptions", o, err)
		}
	}
}
