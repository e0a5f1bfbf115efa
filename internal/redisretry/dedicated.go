package redisretry

import (
	"context"

	"github.com/redis/rueidis"
)

// Dedicated is a connection dedicated from a client (rueidis's Dedicate),
// for commands that must share one connection (a write and the WAIT after
// it), whose DoMulti sends again what Redis did not run, as the wrapped
// client's does. A dedicated connection follows neither MOVED nor ASK
// (rueidis leaves them to the caller), and Redis ran nothing then: on
// MOVED, DoMulti dedicates a connection again, to the node the client
// knows for the slot by then, and sends there what was refused; ASK (the
// slot half moved) it waits out as TRYAGAIN, until the move ends and the
// slot's new node answers MOVED.
type Dedicated struct {
	c       rueidis.Client
	d       rueidis.DedicatedClient
	release func()
	// earlier holds, for each connection given back after a MOVED, the
	// reply of the last command sent after the others on it (a WAIT,
	// which counts the writes of that connection only).
	earlier []rueidis.RedisResult
}

// Dedicate dedicates a connection of c (wrapped or not); Release gives it
// back.
func Dedicate(c rueidis.Client) *Dedicated {
	c = Unwrap(c)
	d, release := c.Dedicate()
	return &Dedicated{c: c, d: d, release: release}
}

// Release gives the connection back to its client.
func (d *Dedicated) Release() { d.release() }

// DoMulti sends cmds followed by after (a command of no key, such as
// WAIT, that must follow them on their connection) in one round trip;
// then, while Redis did not run some of cmds (NotRun, MOVED, ASK), waits
// and sends those again, each time followed by after. It returns the
// replies to cmds and the reply to the last after sent, connection errors
// explained (ErrUnreachable, ErrNoReply).
func (d *Dedicated) DoMulti(ctx context.Context, after rueidis.Completed, cmds ...rueidis.Completed) ([]rueidis.RedisResult, rueidis.RedisResult) {
	for i := range cmds {
		cmds[i] = cmds[i].Pin() // rueidis recycles a command it got a reply to; it may be sent again
	}
	after = after.Pin()
	res, last := d.send(ctx, after, cmds)
	w := waiter{ctx: ctx}
	for {
		todo := redo(cmds, res)
		if len(todo) == 0 || !w.wait() {
			break
		}
		if anyMoved(res, todo) { // the slot is served elsewhere: a connection there
			d.earlier = append(d.earlier, last)
			d.release()
			d.d, d.release = d.c.Dedicate()
		}
		again := make(rueidis.Commands, len(todo))
		for j, i := range todo {
			again[j] = cmds[i]
		}
		var r []rueidis.RedisResult
		r, last = d.send(ctx, after, again)
		for j, i := range todo {
			res[i] = r[j]
		}
	}
	return res, last
}

// Earlier returns the reply of the last after sent on each connection
// given back since Dedicate (a MOVED moved the commands elsewhere): the
// writes that ran there are counted by those replies, not by the last.
func (d *Dedicated) Earlier() []rueidis.RedisResult { return d.earlier }

// send sends cmds then after on the dedicated connection.
func (d *Dedicated) send(ctx context.Context, after rueidis.Completed, cmds rueidis.Commands) ([]rueidis.RedisResult, rueidis.RedisResult) {
	all := append(make(rueidis.Commands, 0, len(cmds)+1), cmds...)
	res := explainAll(ctx, d.d.DoMulti(ctx, append(all, after)...))
	return res[:len(cmds)], res[len(cmds)]
}

// redo returns the indexes of the commands to send again: as notRun, with
// MOVED and ASK counted as not run.
func redo(cmds rueidis.Commands, res []rueidis.RedisResult) []int {
	return notRunBy(cmds, res, nil, func(err error) bool { return NotRun(err) || redirected(err) })
}

// anyMoved reports whether a reply among todo is MOVED.
func anyMoved(res []rueidis.RedisResult, todo []int) bool {
	for _, i := range todo {
		if e, ok := rueidis.IsRedisErr(res[i].Error()); ok {
			if _, moved := e.IsMoved(); moved {
				return true
			}
		}
	}
	return false
}

// redirected reports MOVED or ASK: the slot is served by another node, and
// Redis ran nothing.
func redirected(err error) bool {
	e, ok := rueidis.IsRedisErr(err)
	if !ok {
		return false
	}
	_, moved := e.IsMoved()
	_, ask := e.IsAsk()
	return moved || ask
}
