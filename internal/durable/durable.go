package durable

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/errs"
	"github.com/tiebreak/tiebreak/internal/redisretry"
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
// With AOF, a write waits instead until it is in the master's append-only
// file on disk and in that of Replicas replicas: WAITAOF 1 Replicas, which
// Redis and Valkey have from 7.2 on, with appendonly yes.
type Wait struct {
	Replicas int
	Timeout  time.Duration
	AOF      bool
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
// error, Write returns it as is. When the last WAIT (of any connection
// the write used: see the package doc) counted fewer than w.Replicas
// replicas, or failed, Write returns write's value and an error naming op
// that wraps ErrNotReplicated. The client given to write is for
// that call only, one command at a time.
//
// With w.AOF, the first write of a client first asks the server whether it
// can wait for its disk (WAITAOF with nothing to wait for): a server
// without WAITAOF, or with appendonly no, or whose ACL refuses the user
// WAITAOF, gets no write from it: Write returns an error wrapping
// errs.Options, and nothing is written.
func Write[T any](ctx context.Context, c rueidis.Client, w Wait, op string, write func(rueidis.Client) (T, error)) (T, error) {
	if w.Replicas == 0 && !w.AOF {
		return write(c)
	}
	if w.AOF {
		if err := aofUsable(ctx, c, op); err != nil {
			var zero T
			return zero, err
		}
	}
	d := redisretry.Dedicate(c)
	defer d.Release()
	p := &pinned{Client: c, d: d, w: w}
	v, err := write(p)
	if err != nil {
		return v, err
	}
	return v, p.check(op)
}

// pinned is a client whose commands go to one dedicated connection, each
// command (or pipeline of commands) followed by WAIT. It sends again what
// Redis did not run, as every client of the packages does (package
// redisretry), and moves to the slot's new node on MOVED, which a
// dedicated connection does not follow (ASK it waits out).
type pinned struct {
	rueidis.Client
	d    *redisretry.Dedicated
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
	if p.w.AOF {
		wait = p.B().Waitaof().Numlocal(1).Numreplicas(int64(p.w.Replicas)).Timeout(p.w.millis()).Build()
	}
	res, last := p.d.DoMulti(ctx, wait, cmds...)
	p.last, p.sent = last, true
	return res
}

// check says whether the last WAIT of every connection the write used
// counted enough replicas.
func (p *pinned) check(op string) error {
	if !p.sent {
		return nil
	}
	for _, r := range append(p.d.Earlier(), p.last) {
		if err := p.checkOne(op, r); err != nil {
			return err
		}
	}
	return nil
}

// checkOne says whether the WAIT (or WAITAOF) reply r counted enough.
func (p *pinned) checkOne(op string, r rueidis.RedisResult) error {
	if p.w.AOF {
		return p.checkAOF(op, r)
	}
	n, err := r.AsInt64()
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

// checkAOF says whether the last WAITAOF counted the master's disk and
// enough replicas'.
func (p *pinned) checkAOF(op string, r rueidis.RedisResult) error {
	n, err := r.AsIntSlice()
	if err == nil && len(n) != 2 {
		err = fmt.Errorf("WAITAOF replied %d numbers, want 2", len(n))
	}
	if err != nil {
		return fmt.Errorf("%s: applied on the master, but waiting for its disk and %d replicas' failed: %w: %w",
			op, p.w.Replicas, ErrNotReplicated, err)
	}
	if n[0] < 1 || n[1] < int64(p.w.Replicas) {
		return fmt.Errorf("%s: applied on the master, but within %v it was on the master's disk %d time(s) and on %d of %d replicas' disks: %w",
			op, p.w.Timeout, n[0], n[1], p.w.Replicas, ErrNotReplicated)
	}
	return nil
}

// aofOK holds, by client, the answer of the first WAITAOF asked: nil, or
// why the server cannot wait for its disk.
var aofOK sync.Map

// aofUsable says whether c's server can wait for its disk: asked once per
// client, and again at each write while the server answers that its
// append-only file is off or the question fails.
func aofUsable(ctx context.Context, c rueidis.Client, op string) error {
	if v, ok := aofOK.Load(c); ok {
		if v == nil {
			return nil
		}
		return v.(error)
	}
	err := c.Do(ctx, c.B().Waitaof().Numlocal(1).Numreplicas(0).Timeout(1).Build()).Error()
	rerr, isRedis := rueidis.IsRedisErr(err)
	switch {
	case err == nil:
		aofOK.Store(c, nil)
		return nil
	case !isRedis:
		return errs.FromRedis(op+": asking whether the server can wait for its disk (WAITAOF)", err)
	case strings.Contains(strings.ToLower(rerr.Error()), "unknown command"):
		err = fmt.Errorf("%s: WaitAOF: the server has no WAITAOF (Redis and Valkey have it from 7.2 on): %w", op, errs.Options)
	case strings.HasPrefix(rerr.Error(), "NOPERM"): // asked again at the next write: the ACL may change
		return fmt.Errorf("%s: WaitAOF: the user may not send WAITAOF (%v): its ACL needs +waitaof: %w", op, rerr, errs.Options)
	default: // asked again at the next write: appendonly may be turned on
		return fmt.Errorf("%s: WaitAOF: the server refuses WAITAOF (%v; it needs appendonly yes): %w", op, rerr, errs.Options)
	}
	aofOK.Store(c, err)
	return err
}
