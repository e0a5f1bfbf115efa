package durable

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/rueidis"
)

// ErrNotReplicated reports a write that the master applied but that fewer
// replicas than asked acknowledged within the timeout (or whose WAIT
// failed): it may be lost if the master fails before replicating it.
var ErrNotReplicated = errors.New("not acknowledged by enough replicas")

// Bounds and default of a Wait.
const (
	// DefaultTimeout is how long a write waits for its replicas when Wait
	// gives no Timeout.
	DefaultTimeout = time.Second
	// MaxTimeout is the longest Timeout accepted.
	MaxTimeout = time.Minute
	// MaxReplicas is the most replicas a write may wait for.
	MaxReplicas = 64
)

// Wait says how many replicas must acknowledge each write (Replicas; 0:
// none, no WAIT is sent) and how long a write waits for them (Timeout;
// 0: DefaultTimeout; rounded up to whole milliseconds, as WAIT takes them).
type Wait struct {
	Replicas int
	Timeout  time.Duration
}

// WithDefaults returns w with its default Timeout, or says what is out of
// range (the caller wraps it with its package's options error).
func (w Wait) WithDefaults() (Wait, string) {
	if w.Timeout == 0 {
		w.Timeout = DefaultTimeout
	}
	switch {
	case w.Replicas < 0 || w.Replicas > MaxReplicas:
		return w, fmt.Sprintf("WaitReplicas = %d out of range [0, %d]", w.Replicas, MaxReplicas)
	case w.Timeout < 0 || w.Timeout > MaxTimeout:
		return w, fmt.Sprintf("WaitTimeout = %v out of range [0, %v]", w.Timeout, MaxTimeout)
	}
	return w, ""
}

// millis is w.Timeout in whole milliseconds, at least 1 (WAIT's 0 would
// wait forever).
func (w Wait) millis() int64 {
	return max(1, int64((w.Timeout+time.Millisecond-1)/time.Millisecond))
}

// Write runs write with a client to pass to the write's commands (scripts
// included): with w.Replicas 0, c itself; otherwise a client pinned to one
// connection that follows every command with WAIT. When write returns an
// error, Write returns it as is. When the last WAIT counted fewer than
// w.Replicas replicas, or failed, Write returns write's value and an error
// naming op that wraps ErrNotReplicated. The client given to write is for
// that call only, one command at a time.
func Write[T any](ctx context.Context, c rueidis.Client, w Wait, op string, write func(rueidis.Client) (T, error)) (T, error) {
	if w.Replicas == 0 {
		return write(c)
	}
	d, release := c.Dedicate()
	defer release()
	p := &pinned{Client: c, d: d, w: w}
	v, err := write(p)
	if err != nil {
		return v, err
	}
	return v, p.check(op)
}

// pinned is a client whose commands go to one dedicated connection, each
// command (or pipeline of commands) followed by WAIT.
type pinned struct {
	rueidis.Client
	d    rueidis.DedicatedClient
	w    Wait
	last rueidis.RedisResult // the reply of the last WAIT
	sent bool
}

// Do sends cmd then WAIT, in one round trip.
func (p *pinned) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	return p.DoMulti(ctx, cmd)[0]
}

// DoMulti sends cmds then WAIT, in one round trip, and returns the
// replies to cmds.
func (p *pinned) DoMulti(ctx context.Context, cmds ...rueidis.Completed) []rueidis.RedisResult {
	wait := p.B().Wait().Numreplicas(int64(p.w.Replicas)).Timeout(p.w.millis()).Build()
	all := append(make([]rueidis.Completed, 0, len(cmds)+1), cmds...)
	res := p.d.DoMulti(ctx, append(all, wait)...)
	p.last, p.sent = res[len(cmds)], true
	return res[:len(cmds)]
}

// check says whether the last WAIT counted enough replicas.
func (p *pinned) check(op string) error {
	if !p.sent {
		return nil
	}
	n, err := p.last.AsInt64()
	if err != nil {
		return fmt.Errorf("%s: applied on the master, but waiting for %d replicas failed: %w: %w",
			op, p.w.Replicas, ErrNotReplicated, err)
	}
	if n < int64(p.w.Replicas) {
		return fmt.Errorf("%s: applied on the master, but %d of %d replicas acknowledged it within %v: %w",
			op, n, p.w.Replicas, p.w.Timeout, ErrNotReplicated)
	}
	return nil
}
