package rdb

import (
	"context"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/redisretry"
)

// Conn is a client of one Redis deployment (a server or a cluster), as
// board and league use it. The zero Conn has no client (Valid is false).
// A Conn is a value: copies share the client.
type Conn struct {
	c     rueidis.Client // sends again what Redis did not run (redisretry)
	given rueidis.Client // the caller's client, unwrapped
}

// New returns the Conn of the caller's client c; a nil c gives the zero
// Conn.
func New(c rueidis.Client) Conn {
	if c == nil {
		return Conn{}
	}
	given := redisretry.Unwrap(c)
	return Conn{c: redisretry.Wrap(given), given: given}
}

// Valid reports whether c has a client.
func (c Conn) Valid() bool { return c.c != nil }

// Client returns the caller's client, unwrapped: what package engine keys
// an engine's refusals by.
func (c Conn) Client() rueidis.Client { return c.given }

// Same reports whether c and o send through one client.
func (c Conn) Same(o Conn) bool { return c.given == o.given }

// Run runs script s once with keys and args (see luascript.Script.Exec).
func (c Conn) Run(ctx context.Context, s *luascript.Script, keys, args []string) Result {
	return Result(s.Exec(ctx, c.c, keys, args))
}

// RunEach runs each call once, in one pipelined round trip, and returns
// their results in order (see luascript.ExecEach).
func (c Conn) RunEach(ctx context.Context, calls []luascript.Call) []Result {
	return results(luascript.ExecEach(ctx, c.c, calls))
}

// Durable runs write with a Conn whose commands each wait as w says (see
// durable.Write): with nothing to wait for, c itself.
func Durable[T any](ctx context.Context, c Conn, w durable.Wait, op string, write func(Conn) (T, error)) (T, error) {
	if w.Replicas == 0 && !w.AOF {
		return write(c) // as durable.Write would, without a closure on every write
	}
	return durable.Write(ctx, c.c, w, op, func(p rueidis.Client) (T, error) {
		return write(Conn{c: p, given: c.given})
	})
}

// Do sends the one command that build adds to a Pipe (exactly one). build
// runs for each send (rueidis recycles a command it sent), so it must add
// the same command every time.
func (c Conn) Do(ctx context.Context, build func(p *Pipe)) Result {
	return Result(redisretry.DoBuilt(ctx, c.c, func() rueidis.Completed {
		p := newPipe(c.c)
		build(p)
		return p.cmds[0]
	}))
}

// DoMulti sends the commands that build adds to a Pipe, in one pipeline
// (a MULTI/EXEC among them stays one transaction), and returns their
// results in order. build runs for each send, so it must add the same
// commands every time.
func (c Conn) DoMulti(ctx context.Context, build func(p *Pipe)) []Result {
	return results(redisretry.DoMultiBuilt(ctx, c.c, func() rueidis.Commands {
		p := newPipe(c.c)
		build(p)
		return p.cmds
	}))
}

// ReadTx sends a MULTI/EXEC of reads that build adds to a Pipe (MULTI
// and EXEC included), sent again after a connection error until ctx ends,
// as rueidis does a read (see redisretry.DoReadMulti). build runs for
// each send, as DoMulti's.
func (c Conn) ReadTx(ctx context.Context, build func(p *Pipe)) []Result {
	return results(redisretry.DoReadMulti(ctx, c.c, func() rueidis.Commands {
		p := newPipe(c.c)
		build(p)
		return p.cmds
	}))
}

// Cached is a GET the client may answer from its memory (RESP3 client
// tracking), built once: it may be sent from many goroutines at once.
type Cached struct{ cmd rueidis.Cacheable }

// Cached returns the cached GET of key.
func (c Conn) Cached(key string) Cached {
	// Pinned: rueidis recycles a command it has sent unless pinned, and
	// the caller keeps this one for every later read.
	return Cached{rueidis.Cacheable(c.c.B().Get().Key(key).Build()).Pin()}
}

// Peek is a read of g from the client's memory where it holds the key, in
// one try: an error is the caller's to read again with Get.
func (c Conn) Peek(ctx context.Context, g Cached, ttl time.Duration) Result {
	return Result(c.given.DoCache(ctx, g.cmd, ttl))
}

// Get is a read of g, sent again as every command (redisretry), never
// pinning g again.
func (c Conn) Get(ctx context.Context, g Cached, ttl time.Duration) Result {
	return Result(redisretry.DoCachePinned(ctx, c.c, g.cmd, ttl))
}
