package luascript

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisretry"
)

// Script is a Lua script that Redis runs by its SHA1 (EVALSHA) and that
// reaches a server's script cache lazily: where Redis answers NOSCRIPT (a
// server restarted, flushed, or a node new to the client), the call that
// got it is sent again as EVAL, which runs the script and caches it. It
// never sends SCRIPT LOAD, so a call is one command on its normal path and
// talks only to the node of its keys. A Script is safe for concurrent use.
type Script struct {
	src, sha string
	readOnly bool
}

// New returns the script src, run with EVALSHA and EVAL.
func New(src string) *Script {
	return &Script{src: src, sha: shaOf(src)}
}

// NewReadOnly returns the script src, run with EVALSHA_RO and EVAL_RO (a
// replica may serve it; Redis refuses writes in it).
func NewReadOnly(src string) *Script {
	return &Script{src: src, sha: shaOf(src), readOnly: true}
}

func shaOf(src string) string {
	sum := sha1.Sum([]byte(src))
	return hex.EncodeToString(sum[:])
}

// Exec runs the script once with keys and args: one EVALSHA, and one EVAL
// after a NOSCRIPT. It sends through redisretry.DoBuilt, whether c is
// wrapped or not.
func (s *Script) Exec(ctx context.Context, c rueidis.Client, keys, args []string) rueidis.RedisResult {
	e := rueidis.LuaExec{Keys: keys, Args: args}
	r := redisretry.DoBuilt(ctx, c, func() rueidis.Completed { return s.evalsha(c, e) })
	if err, ok := rueidis.IsRedisErr(r.Error()); ok && err.IsNoScript() {
		r = redisretry.DoBuilt(ctx, c, func() rueidis.Completed { return s.eval(c, e) })
	}
	return r
}

// ExecMany runs the script once per exec, in order, in one pipelined round
// trip of EVALSHA commands, and returns their results in the same order.
// The execs that Redis answered NOSCRIPT did not run: they are sent again
// in a second round trip, still in order, the first of each hash tag as
// EVAL (which loads the script) and the others as EVALSHA; any that
// still meet NOSCRIPT (their node was not the EVAL's) go as EVAL in a
// third. (Unlike rueidis's ExecMulti, which sends SCRIPT LOAD to every
// master before every call.)
// An exec that ran is never sent again, so the script need not be
// idempotent; the price is that, when another client loads the script
// between two execs of the pipeline, an exec that got NOSCRIPT runs after
// later ones that did not. So does an exec that Redis refused without
// running it (TRYAGAIN while its slot moves, CLUSTERDOWN), which
// redisretry.DoMultiBuilt sends again after the others.
func (s *Script) ExecMany(ctx context.Context, c rueidis.Client, execs ...rueidis.LuaExec) []rueidis.RedisResult {
	calls := make([]Call, len(execs))
	for i, e := range execs {
		calls[i] = Call{Script: s, Keys: e.Keys, Args: e.Args}
	}
	return ExecEach(ctx, c, calls)
}

func (s *Script) evalsha(c rueidis.Client, e rueidis.LuaExec) rueidis.Completed {
	if s.readOnly {
		return c.B().EvalshaRo().Sha1(s.sha).Numkeys(int64(len(e.Keys))).Key(e.Keys...).Arg(e.Args...).Build()
	}
	return c.B().Evalsha().Sha1(s.sha).Numkeys(int64(len(e.Keys))).Key(e.Keys...).Arg(e.Args...).Build()
}

func (s *Script) eval(c rueidis.Client, e rueidis.LuaExec) rueidis.Completed {
	if s.readOnly {
		return c.B().EvalRo().Script(s.src).Numkeys(int64(len(e.Keys))).Key(e.Keys...).Arg(e.Args...).Build()
	}
	return c.B().Eval().Script(s.src).Numkeys(int64(len(e.Keys))).Key(e.Keys...).Arg(e.Args...).Build()
}

// Call is one run of a script: the script, its keys and its arguments.
type Call struct {
	Script     *Script
	Keys, Args []string
}

// ExecEach runs each call once, in one pipelined round trip of EVALSHA
// commands that may go to different scripts and, on a cluster client, to
// different nodes (rueidis sends each node its part at once), and returns
// their results in order. The calls Redis answered NOSCRIPT did not run:
// they are sent again as ExecMany sends them. Like ExecMany, it never
// sends a call that ran again. So when a server holds some of the scripts
// and not others, the calls of those it holds run first: a caller that
// needs two calls on one key made in order sends them in one ExecEach only
// when they run the same script.
func ExecEach(ctx context.Context, c rueidis.Client, calls []Call) []rueidis.RedisResult {
	if len(calls) == 1 {
		k := calls[0]
		return []rueidis.RedisResult{k.Script.Exec(ctx, c, k.Keys, k.Args)}
	}
	res := redisretry.DoMultiBuilt(ctx, c, func() rueidis.Commands {
		cmds := make(rueidis.Commands, len(calls))
		for i, k := range calls {
			cmds[i] = k.Script.evalsha(c, rueidis.LuaExec{Keys: k.Keys, Args: k.Args})
		}
		return cmds
	})
	var again []int
	for i, r := range res {
		if err, ok := rueidis.IsRedisErr(r.Error()); ok && err.IsNoScript() {
			again = append(again, i)
		}
	}
	if len(again) == 0 {
		return res
	}
	// The second round loads each script once per hash tag with one EVAL
	// and sends the calls after it as EVALSHA again: a node runs its
	// commands in order, so they find the script loaded. (EVAL of every
	// call would make Redis read and hash the script's text each time:
	// ten times a call's own cost, for a batch that meets a server just
	// restarted or promoted.) A call whose node the EVAL did not reach
	// gets NOSCRIPT again and, in a third round, EVAL.
	again = runAgain(ctx, c, calls, res, again, true)
	if len(again) > 0 {
		runAgain(ctx, c, calls, res, again, false)
	}
	return res
}

// runAgain sends calls[i] for each i of again, in order, as EVAL where
// loadOnce is false or where it is the first of its script and hash tag,
// else as EVALSHA; it stores each result in res and returns the calls
// Redis answered NOSCRIPT.
func runAgain(ctx context.Context, c rueidis.Client, calls []Call, res []rueidis.RedisResult, again []int, loadOnce bool) []int {
	type load struct {
		s   *Script
		tag string
	}
	out := redisretry.DoMultiBuilt(ctx, c, func() rueidis.Commands {
		cmds := make(rueidis.Commands, len(again))
		loaded := map[load]bool{}
		for j, i := range again {
			k := calls[i]
			e, l := rueidis.LuaExec{Keys: k.Keys, Args: k.Args}, load{k.Script, tagOf(k.Keys)}
			if loadOnce && loaded[l] {
				cmds[j] = k.Script.evalsha(c, e)
				continue
			}
			loaded[l] = true
			cmds[j] = k.Script.eval(c, e)
		}
		return cmds
	})
	var missed []int
	for j, r := range out {
		res[again[j]] = r
		if err, ok := rueidis.IsRedisErr(r.Error()); ok && err.IsNoScript() {
			missed = append(missed, again[j])
		}
	}
	return missed
}

// tagOf returns what Redis Cluster hashes of a call's first key (its hash
// tag, or the whole key), "" for a call of no keys: calls of one tag go to
// one node.
func tagOf(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	k := keys[0]
	if i := strings.IndexByte(k, '{'); i >= 0 {
		if j := strings.IndexByte(k[i+1:], '}'); j > 0 {
			return k[i+1 : i+1+j]
		}
	}
	return k
}
