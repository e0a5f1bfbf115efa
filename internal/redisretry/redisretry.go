// Package redisretry sends again what Redis says it did not run, so that
// the callers of tiebreak's packages do not see a Redis Cluster change
// shape. Every Redis-backed package wraps the client it is given with
// [Wrap], once, in its constructor: every command, script and MULTI/EXEC
// of every package goes through this one place, the wrapped client's Do
// and DoMulti or, for the hot paths, [DoBuilt] and [DoMultiBuilt], which
// build a command again rather than pin it.
//
// While a slot moves between masters, rueidis follows MOVED and ASK by
// itself, but it sends again a command that Redis refused with TRYAGAIN,
// CLUSTERDOWN or LOADING only when it reads nothing and writes nothing
// (not a script, not MULTI/EXEC). Redis answers these before it runs
// anything:
//
//	TRYAGAIN     a command on several keys whose slot is moving, some keys
//	             already on the new master, some not yet
//	CLUSTERDOWN  the cluster lost a master and no replica has taken over yet
//	             (every node refuses every command), or the slot has no master
//	LOADING      the node is reading its data from disk after a restart
//
// so sending the command again is always safe, writes included. A MULTI/EXEC
// is sent again whole, when EXEC was refused so, or aborted (EXECABORT)
// because one of its commands was. Nothing else is sent again: after a
// connection error the outcome of a write is unknown (it may have run), so
// the error goes to the caller, at once, saying which it is: Redis could not
// be reached and nothing was sent ([ErrUnreachable]), or the connection
// broke before the reply and a write may have run ([ErrNoReply]). This is
// what a caller sees for an object whose master died, until a replica takes
// over and the client learns of it. A connection error at or past the
// call's deadline (a dial or a read cut by the socket's deadline, which
// rueidis takes from the context's) also wraps context.DeadlineExceeded:
// the caller's deadline ended the call. A slot that has no node in the
// client's map of the cluster (rueidis.ErrNoSlot, what Redis 8 and Valkey 8
// give for a failed master's slots until a replica takes over) is
// ErrUnreachable too: nothing was sent.
//
// A write that must share a connection with the WAIT after it goes
// through [Dedicated], which sends again what Redis did not run in the
// same way, and also follows MOVED (and waits out ASK), which rueidis
// does not on a dedicated connection.
//
// A MULTI/EXEC of reads, which rueidis does not send again as it does a
// read-only command, goes through [DoReadMulti]: sent again after a
// connection error too, until the context ends, as rueidis does a read.
//
// The wait between two sends doubles from [FirstWait] up to [LongestWait],
// with jitter; the sends stop when the caller's context ends, when the next
// wait would pass the context's deadline, or after [MaxWait] in all; the
// caller then gets Redis's last answer.
package redisretry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"strings"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/errs"
)

// The connection errors, told apart for the caller.
var (
	ErrUnreachable = errors.New("Redis unreachable, nothing sent")
	ErrNoReply     = errors.New("connection lost before the reply, a write may have run")
)

// The waits between two sends of a command Redis did not run.
const (
	FirstWait   = time.Millisecond
	LongestWait = 100 * time.Millisecond
	MaxWait     = 10 * time.Second // a CLUSTERDOWN lasts until a replica takes over
)

// Wrap returns a client that sends c's commands and sends again, as the
// package documentation says, those Redis did not run. Wrapping a wrapped
// client returns it unchanged. Only Do and DoMulti retry; the rest is c's.
func Wrap(c rueidis.Client) rueidis.Client {
	if w, ok := c.(*client); ok {
		return w
	}
	return &client{Client: c}
}

// client is a rueidis.Client whose Do and DoMulti retry.
type client struct {
	rueidis.Client
}

// Do sends cmd until Redis runs it or refuses it for another reason.
func (c *client) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	cmd = cmd.Pin() // rueidis recycles a command it got a reply to; it may be sent again
	return untilRun(ctx, func() rueidis.RedisResult { return c.Client.Do(ctx, cmd) })
}

// untilRun calls send until Redis runs what it sends or refuses it for
// another reason, or ctx ends.
func untilRun(ctx context.Context, send func() rueidis.RedisResult) rueidis.RedisResult {
	w := waiter{ctx: ctx}
	for {
		r := send()
		if !NotRun(r.Error()) || !w.wait() {
			return explain(ctx, r)
		}
	}
}

// DoCache is Do of a command the client may answer from its memory
// (client-side caching): sent until Redis runs it or refuses it for
// another reason.
func (c *client) DoCache(ctx context.Context, cmd rueidis.Cacheable, ttl time.Duration) rueidis.RedisResult {
	cmd = cmd.Pin()
	return untilRun(ctx, func() rueidis.RedisResult { return c.Client.DoCache(ctx, cmd, ttl) })
}

// DoCachePinned is the wrapped client's DoCache of a command the caller
// pinned once and shares between goroutines: it does not pin it again
// (Pin writes to the command, which other goroutines' sends of it read).
// c may be wrapped or not: the sends are the same.
func DoCachePinned(ctx context.Context, c rueidis.Client, cmd rueidis.Cacheable, ttl time.Duration) rueidis.RedisResult {
	c = Unwrap(c)
	return untilRun(ctx, func() rueidis.RedisResult { return c.DoCache(ctx, cmd, ttl) })
}

// DoMulti sends cmds in one pipeline, then again those Redis did not run,
// in their order, each command alone or a MULTI/EXEC whole.
func (c *client) DoMulti(ctx context.Context, cmds ...rueidis.Completed) []rueidis.RedisResult {
	for i := range cmds {
		cmds[i] = cmds[i].Pin()
	}
	return doMulti(ctx, c.Client, cmds, func() rueidis.Commands { return cmds })
}

// DoBuilt is the wrapped client's Do for a command that build makes: it
// calls build again for each send instead of pinning the command, so that
// rueidis recycles it, which saves the allocations of a pinned command on
// every call. c may be wrapped or not: the sends are the same.
func DoBuilt(ctx context.Context, c rueidis.Client, build func() rueidis.Completed) rueidis.RedisResult {
	c = Unwrap(c)
	w := waiter{ctx: ctx}
	for {
		r := c.Do(ctx, build())
		if !NotRun(r.Error()) || !w.wait() {
			return explain(ctx, r)
		}
	}
}

// DoMultiBuilt is the wrapped client's DoMulti for commands that build
// makes, the same commands at every call: DoBuilt's way for a pipeline.
func DoMultiBuilt(ctx context.Context, c rueidis.Client, build func() rueidis.Commands) []rueidis.RedisResult {
	return doMulti(ctx, Unwrap(c), build(), build)
}

// DoReadMulti is the wrapped client's DoMulti for commands that only read
// (a MULTI/EXEC of reads, made for one snapshot): after a connection error
// it waits for the server and sends them all again, until ctx ends, as
// rueidis does by itself for a read-only command, which a MULTI is not.
// So a read made of a MULTI waits for a server that is down as every
// other read does. build makes the same commands at every call.
func DoReadMulti(ctx context.Context, c rueidis.Client, build func() rueidis.Commands) []rueidis.RedisResult {
	w := waiter{ctx: ctx, untilDone: true}
	for {
		res := DoMultiBuilt(ctx, c, build)
		if !connectionLost(res) || !w.wait() {
			return res
		}
	}
}

// connectionLost reports a reply that is a connection error (explained).
func connectionLost(res []rueidis.RedisResult) bool {
	for _, r := range res {
		if err := r.Error(); errors.Is(err, ErrUnreachable) || errors.Is(err, ErrNoReply) {
			return true
		}
	}
	return false
}

// Unwrap returns the client a wrapped c sends through, or c.
func Unwrap(c rueidis.Client) rueidis.Client {
	if w, ok := c.(*client); ok {
		return w.Client
	}
	return c
}

// doMulti sends cmds, the commands of build, through c; then, while Redis
// did not run some of them, waits and sends those again, taken from a new
// call of build (rueidis has recycled those sent unless they are pinned).
func doMulti(ctx context.Context, c rueidis.Client, cmds rueidis.Commands, build func() rueidis.Commands) []rueidis.RedisResult {
	res := explainAll(ctx, c.DoMulti(ctx, cmds...))
	w := waiter{ctx: ctx}
	for anyNotRun(res) && w.wait() {
		fresh := build()
		todo := notRun(fresh, res, nil)
		again := make(rueidis.Commands, len(todo))
		for j, i := range todo {
			again[j] = fresh[i]
		}
		for j, r := range explainAll(ctx, c.DoMulti(ctx, again...)) {
			res[todo[j]] = r
		}
	}
	return res
}

// explainAll explains each of res, as soon as they came: a socket
// deadline is the caller's only if the call's deadline had passed then.
func explainAll(ctx context.Context, res []rueidis.RedisResult) []rueidis.RedisResult {
	for i, r := range res {
		res[i] = explain(ctx, r)
	}
	return res
}

// anyNotRun reports whether Redis did not run one of the commands whose
// replies are res: NotRun of any reply (a MULTI/EXEC Redis aborted for
// one of its commands holds that command's reply).
func anyNotRun(res []rueidis.RedisResult) bool {
	for _, r := range res {
		if NotRun(r.Error()) {
			return true
		}
	}
	return false
}

// explain wraps a connection error in ErrUnreachable or ErrNoReply.
func explain(ctx context.Context, r rueidis.RedisResult) rueidis.RedisResult {
	if r.NonRedisError() == nil {
		return r
	}
	return explainErr(ctx, r)
}

// explainErr is explain of a result that holds a connection error. A slot
// without a node (rueidis.ErrNoSlot: a cluster that reports its topology
// with CLUSTER SHARDS, Redis 8 or Valkey 8, lists no node for a failed
// master's slots until a replica takes over) is one: rueidis sent nothing.
func explainErr(ctx context.Context, r rueidis.RedisResult) rueidis.RedisResult {
	err := r.NonRedisError()
	// A socket's deadline, which rueidis takes from ctx's, fires at ctx's
	// deadline, often before ctx's own timer says so: the caller's
	// deadline ended the call all the same.
	byCaller := errors.Is(err, os.ErrDeadlineExceeded) && !errs.Caller(err) && deadlinePassed(ctx)
	if byCaller {
		err = fmt.Errorf("%w (%w)", context.DeadlineExceeded, err)
	}
	var op *net.OpError
	switch {
	case errors.As(err, &op) && op.Op == "dial", errors.Is(err, rueidis.ErrNoSlot):
		return rueidis.NewErrorResult(fmt.Errorf("%w: %w", ErrUnreachable, err))
	case errors.As(err, &op), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return rueidis.NewErrorResult(fmt.Errorf("%w: %w", ErrNoReply, err))
	case byCaller:
		return rueidis.NewErrorResult(err)
	}
	return r
}

// deadlinePassed reports whether ctx's deadline has come, whether or not
// ctx's timer has ended it yet.
func deadlinePassed(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// notRun returns the indexes, among (all of cmds when nil), of the
// commands to send again: a command Redis did not run, or every command of
// a MULTI/EXEC it did not run.
func notRun(cmds rueidis.Commands, res []rueidis.RedisResult, among []int) []int {
	return notRunBy(cmds, res, among, NotRun)
}

// notRunBy is notRun with not telling a reply of a command not run.
func notRunBy(cmds rueidis.Commands, res []rueidis.RedisResult, among []int, not func(error) bool) []int {
	if among == nil {
		among = make([]int, len(cmds))
		for i := range among {
			among[i] = i
		}
	}
	var todo []int
	for k := 0; k < len(among); k++ {
		i := among[k]
		if !isMulti(cmds[i]) {
			if not(res[i].Error()) {
				todo = append(todo, i)
			}
			continue
		}
		end := k
		for end < len(among)-1 && !isExec(cmds[among[end]]) {
			end++
		}
		if txNotRun(res, among[k:end+1], not) {
			todo = append(todo, among[k:end+1]...)
		}
		k = end
	}
	return todo
}

// txNotRun reports whether the MULTI/EXEC whose commands are at span was
// not run: EXEC refused as NotRun says, or aborted because a command was.
func txNotRun(res []rueidis.RedisResult, span []int, not func(error) bool) bool {
	exec := res[span[len(span)-1]].Error()
	if not(exec) {
		return true
	}
	if e, ok := rueidis.IsRedisErr(exec); !ok || !strings.HasPrefix(e.Error(), "EXECABORT") {
		return false
	}
	for _, i := range span[:len(span)-1] {
		if not(res[i].Error()) {
			return true
		}
	}
	return false
}

// NotRun reports whether err is Redis's answer that it did not run the
// command and may run it when it is sent again: TRYAGAIN, CLUSTERDOWN or
// LOADING. A connection error is not one: the command may have run.
func NotRun(err error) bool {
	e, ok := rueidis.IsRedisErr(err)
	return ok && (e.IsTryAgain() || e.IsClusterDown() || e.IsLoading())
}

func isMulti(c rueidis.Completed) bool {
	s := c.Commands()
	return len(s) == 1 && s[0] == "MULTI"
}

func isExec(c rueidis.Completed) bool {
	s := c.Commands()
	return len(s) == 1 && s[0] == "EXEC"
}

// waiter spaces out the sends of one call.
type waiter struct {
	ctx   context.Context
	start time.Time
	n     int
	// untilDone waits past MaxWait, until the context ends (a read, as
	// rueidis waits to send a read-only command again).
	untilDone bool
}

// wait sleeps before the next send and reports whether to make it: not
// when the context has ended or would end during the wait, nor after
// MaxWait in all unless untilDone.
func (w *waiter) wait() bool {
	d := min(LongestWait, FirstWait<<min(w.n, 16))
	w.n++
	d = d/2 + rand.N(d/2+1) // equal jitter: callers refused together do not come back together
	if w.start.IsZero() {
		w.start = time.Now() // the first refusal: the sends that pass are never timed
	}
	if !w.untilDone && time.Since(w.start)+d > MaxWait {
		return false
	}
	if dl, ok := w.ctx.Deadline(); ok && time.Until(dl) < d {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-w.ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
