package faulttest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// The ACL each package needs, as docs/operating.md lists it: the commands (those
// the package sends and those its scripts call), without the key
// patterns, which name each object. Every user also needs aclConnection
// (rueidis asks CLUSTER SLOTS, or SHARDS on Redis 8 and Valkey 8, when it
// connects, to learn whether the server is a cluster, and sends PING on a
// connection idle for its Dialer.KeepAlive, a second by default), and on an engine
// with CLIENT SETINFO (Redis 7.2 or later, Valkey) aclSetInfo too: rueidis
// names its library on every new connection. Redis 7.0 refuses an ACL
// that names client|setinfo, which it does not know. A client that keeps
// rueidis's client-side cache on (its default, which the tests' users
// keep) needs aclTracking: rueidis turns tracking on (CLIENT TRACKING ON
// OPTIN) on every new connection, and a connection refused it fails; a
// board handle with CacheTop needs aclCaching too (rueidis sends CLIENT
// CACHING YES before each read it caches). A user needs aclWait
// when its writes wait for replicas, and aclWaitAOF when they wait for
// the disk (WaitAOF: Redis 7.2 or later, Valkey; Redis 7.0 refuses a rule
// that names waitaof too).
const (
	aclConnection = "+cluster|slots +cluster|shards +ping"
	aclSetInfo    = "+client|setinfo"
	aclTracking   = "+client|tracking"
	aclCaching    = "+client|caching"
	aclWait       = "+wait"
	aclWaitAOF    = "+waitaof"
	aclBoard      = "+evalsha +eval +evalsha_ro +eval_ro +multi +exec +time +zcard +scard +sscan +srandmember " +
		"+exists +hdel +hget +hincrby +hmget +hset +hsetnx +pexpireat +pexpiretime +rename +sadd +set +srem " +
		"+unlink +zadd +zcount +zrange +zrank +zrem +zscore +spop +sunionstore +hgetall +get +pttl +hexists +hlen +del +pexpire"
	aclTimeline = "+evalsha +eval +evalsha_ro +eval_ro +multi +exec +zadd +zcard +zcount +zlexcount +zrange " +
		"+zrank +zrem +zremrangebyrank +unlink"
	aclDecimalmap = "+evalsha +eval +multi +exec +zadd +zcard +zlexcount +zrange +zrem +zremrangebylex +zscore +unlink"
	aclRatelimit  = "+evalsha +eval +pexpire +pttl +time +zadd +zcard +zcount +zrange +zremrangebyrank " +
		"+zremrangebyscore +unlink"
)

// hostile are names, ids, keys and payloads built to escape an object's
// namespace: glob characters, newlines, NUL, Lua-looking text. Braces and
// 1 MB inputs are tried apart: every package refuses them.
var hostile = []string{
	"*", "a*b?[c]", "line\nbreak\r\n", "nul\x00byte", `back\slash`,
	"]]) redis.call('FLUSHALL') --[[", "'); redis.call('DEL', KEYS[1]) --",
}

// huge is a 1 MB input, over every bound.
var huge = strings.Repeat("x", 1<<20)

// globEscape escapes the characters an ACL key pattern reads as glob, and
// writes ? for the whitespace and NUL that ACL rules cannot hold (the pattern is then
// a little wider than the name; the keyspace check is exact).
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case strings.ContainsRune(" \t\r\n\v\f\x00", r):
			b.WriteByte('?')
			continue
		case strings.ContainsRune(`*?[]\`, r):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// aclUser creates the user name on the server of admin with exactly
// commands, what every client needs on that server's engine, and the key
// patterns (each "~" + pattern), and returns a client logged in as that
// user.
func aclUser(t *testing.T, srv *redistest.Server, admin rueidis.Client, name, commands string, patterns []string) rueidis.Client {
	t.Helper()
	e, err := engine.Of(context.Background(), admin)
	if err != nil {
		t.Fatal(err)
	}
	rules := append([]string{"reset", "on", ">pw"}, strings.Fields(aclConnection+" "+aclTracking+" "+commands)...)
	if e.ClientSetInfo() {
		rules = append(rules, aclSetInfo)
	}
	for _, p := range patterns {
		rules = append(rules, "~"+p)
	}
	if err := admin.Do(context.Background(), admin.B().AclSetuser().Username(name).Rule(rules...).Build()).Error(); err != nil {
		t.Fatalf("ACL SETUSER %s: %v", name, err)
	}
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{srv.Addr}, Username: name, Password: "pw"})
	if err != nil {
		t.Fatalf("connect as %s: %v", name, err)
	}
	t.Cleanup(c.Close)
	return c
}

// aclServer starts a server of the test's own, its ACL log emptied.
func aclServer(t *testing.T) (*redistest.Server, rueidis.Client) {
	t.Helper()
	srv, admin := redistest.Private(t)
	if err := admin.Do(context.Background(), admin.B().AclLog().Reset().Build()).Error(); err != nil {
		t.Fatal(err)
	}
	return srv, admin
}

// checkACLLog fails t for every access the ACL refused on the server of
// admin: a command or key outside a user's rules.
func checkACLLog(t *testing.T, admin rueidis.Client) {
	t.Helper()
	entries, err := admin.Do(context.Background(), admin.B().AclLog().Count(20).Build()).ToArray()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		m, _ := e.AsStrMap()
		t.Errorf("the ACL refused %s %q (user %s)", m["reason"], m["object"], m["username"])
	}
}

// checkKeyspace fails t for every key on the server of admin that is not
// in the namespace of one of the objects (inside reports whether a key
// is).
func checkKeyspace(t *testing.T, admin rueidis.Client, inside func(key string) bool) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	keys, err := redisops.ScanKeys(ctx, admin, "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !inside(k) {
			t.Errorf("key %q is outside every object's namespace", k)
		}
	}
	return len(keys)
}

// call records the outcome of one call of a package's operation: want
// is nil for a call that must succeed, else the sentinel of its refusal.
type calls struct {
	t   *testing.T
	pkg string
	n   int
}

func (c *calls) check(what string, err, want error) {
	c.t.Helper()
	c.n++
	switch {
	case want == nil && err != nil:
		c.t.Errorf("%s: %s: %v", c.pkg, what, err)
	case want != nil && !errors.Is(err, want):
		c.t.Errorf("%s: %s: %v, want %v", c.pkg, what, err, want)
	}
}

// short checks a write that waited for a replica on a server without
// any: ErrNotReplicated after a WAIT that ran (counting 0), not one the
// ACL refused.
func (c *calls) short(what string, err error) {
	c.t.Helper()
	c.n++
	if !errors.Is(err, durableErr) || !strings.Contains(err.Error(), "0 of 1 replicas") {
		c.t.Errorf("%s: %s: %v, want ErrNotReplicated after a WAIT counting 0 of 1 replicas", c.pkg, what, err)
	}
}

// durableErr is the ErrNotReplicated of every package.
var durableErr = board.ErrNotReplicated

func errOf[T any](_ T, err error) error { return err }

// quoted shortens s for a call's name.
func quoted(s string) string {
	if len(s) > 24 {
		return fmt.Sprintf("%q... (%d bytes)", s[:24], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// The table of least privilege in docs/operating.md lists what the tests
// give: each package's commands, what every client needs, and
// client|setinfo where the engine has it.
func TestACLTableIsTheDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/operating.md")
	if err != nil {
		t.Fatal(err)
	}
	cell := func(s string) string { return "`" + strings.ReplaceAll(s, "|", `\|`) + "`" }
	for _, row := range []struct{ what, commands string }{
		{"every client (rueidis asks whether the server is a cluster when it connects, and sends `PING` on a connection idle for its `Dialer.KeepAlive`, a second by default)", aclConnection},
		{"every client on Redis 7.2 or later and on Valkey", aclSetInfo},
		{"every client that keeps rueidis's client-side cache on", aclTracking},
		{"a board handle with `Options.CacheTop`", aclCaching},
		{"`board`", aclBoard},
		{"`board/league`", aclBoard},
		{"`tsid/timeline`", aclTimeline},
		{"`decimalmap`", aclDecimalmap},
		{"`ratelimit`", aclRatelimit},
		{"writes that wait for replicas", aclWait},
		{"writes that wait for the disk", aclWaitAOF},
	} {
		found := false
		for line := range strings.Lines(string(doc)) {
			if strings.HasPrefix(line, "| "+row.what) && strings.Contains(line, " | "+cell(row.commands)+" |") {
				found = true
			}
		}
		if !found {
			t.Errorf("docs/operating.md has no row %q with the commands %s", row.what, cell(row.commands))
		}
	}
}
