package luascript_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// ExecMany pipelines one EVALSHA per exec; after SCRIPT FLUSH each gets
// NOSCRIPT and runs once, in order, the first as EVAL (which loads the
// script) and the others as EVALSHA again; SCRIPT LOAD is never sent.
// The script counts its runs, so a run repeated or lost shows.
func TestExecMany(t *testing.T) {
	ctx := context.Background()
	_, c := redistest.Private(t)
	incr := luascript.New("return redis.call('INCRBY', KEYS[1], ARGV[1])")
	get := luascript.NewReadOnly("return redis.call('GET', KEYS[1])")
	execs := []rueidis.LuaExec{{Keys: []string{"n"}, Args: []string{"1"}}, {Keys: []string{"n"}, Args: []string{"10"}}, {Keys: []string{"n"}, Args: []string{"100"}}}
	var got []any
	for round := range 2 { // round 0 on a flushed server, round 1 with the script cached
		if round == 0 {
			if err := c.Do(ctx, c.B().ScriptFlush().Build()).Error(); err != nil {
				t.Fatal(err)
			}
		}
		c0, _ := redisops.CommandCalls(ctx, c)
		var replies []int64
		for _, r := range incr.ExecMany(ctx, c, execs...) {
			n, err := r.AsInt64()
			if err != nil {
				t.Fatal(err)
			}
			replies = append(replies, n)
		}
		v, err := get.ExecMany(ctx, c, execs[:1]...)[0].ToString()
		c1, _ := redisops.CommandCalls(ctx, c)
		calls := map[string]int64{}
		for _, name := range []string{"evalsha", "eval", "evalsha_ro", "eval_ro", "script|load"} {
			if d := c1[name] - c0[name]; d != 0 {
				calls[name] = d
			}
		}
		got = append(got, replies, v, err, calls)
	}
	want := []any{
		[]int64{1, 11, 111}, "111", nil, map[string]int64{"evalsha": 5, "eval": 1, "evalsha_ro": 1, "eval_ro": 1},
		[]int64{112, 122, 222}, "222", nil, map[string]int64{"evalsha": 3, "evalsha_ro": 1},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("replies, GET, commands sent; on a flushed server, then cached (-want +got):\n%s", diff)
	}
}

// On a cluster whose masters all flushed their scripts, ExecEach of calls
// over several hash tags (so several masters) runs each call once, in
// order within its tag, loading the script with one EVAL per tag.
func TestExecEachLoadsOncePerTag(t *testing.T) {
	ctx := context.Background()
	env := redistest.NewCluster(t, 3)
	nodes := make([]rueidis.Client, len(env.Addrs))
	for i, addr := range env.Addrs {
		c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true, DisableCache: true})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		nodes[i] = c
	}
	// A script of its own (the prefix makes it new to every run), so that
	// no other test's EVAL loads it meanwhile.
	incr := luascript.New("-- " + env.Prefix + "\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])")
	const tags, each = 6, 5
	var calls []luascript.Call
	for k := range each {
		for g := range tags {
			calls = append(calls, luascript.Call{Script: incr, Keys: []string{fmt.Sprintf("%s{t%d}:n", env.Prefix, g)}, Args: []string{strconv.Itoa(1 << k)}})
		}
	}
	evals := func() (n int64) {
		for _, c := range nodes {
			m, err := redisops.CommandCalls(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			n += m["eval"]
		}
		return n
	}
	before := evals()
	var got []int64
	for _, r := range luascript.ExecEach(ctx, env.Client, calls) {
		n, err := r.AsInt64()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
	}
	var want []int64
	for k := range each {
		for range tags {
			want = append(want, 1<<(k+1)-1) // 1, 3, 7, ...: each call ran once, in order
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replies (-want +got):\n%s", diff)
	}
	if n := evals() - before; n != tags {
		t.Errorf("%d EVAL sent, want %d: one per hash tag", n, tags)
	}
	// Calls of no keys share the tag "": one EVAL, then EVALSHA, each
	// call once and in order.
	echo := luascript.New("-- " + env.Prefix + "\nreturn ARGV[1]")
	var keyless []luascript.Call
	for i := range 12 {
		keyless = append(keyless, luascript.Call{Script: echo, Args: []string{strconv.Itoa(i)}})
	}
	for i, r := range luascript.ExecEach(ctx, env.Client, keyless) {
		if v, err := r.ToString(); err != nil || v != strconv.Itoa(i) {
			t.Errorf("keyless call %d: %q, %v", i, v, err)
		}
	}
}

// Why the read scripts carry no flags line: at the memory limit
// (maxmemory, noeviction) a read-only script without one runs as
// EVALSHA_RO and EVAL_RO, as one flagged no-writes does, which every
// engine tested takes; only a script that calls a write command is
// refused (OOM).
func TestReadOnlyWithoutFlagsAtMemoryLimit(t *testing.T) {
	ctx := context.Background()
	_, c := redistest.Private(t, "--maxmemory-policy", "noeviction")
	if err := c.Do(ctx, c.B().Set().Key("k").Value("v").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	if err := c.Do(ctx, c.B().ConfigSet().ParameterValue().ParameterValue("maxmemory", "1").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	const read = "return redis.call('GET', KEYS[1])"
	for _, s := range []*luascript.Script{luascript.NewReadOnly(read), luascript.NewReadOnly("#!lua flags=no-writes\n" + read)} {
		for round := range 2 { // EVAL_RO after the flush, then EVALSHA_RO
			if round == 0 {
				if err := c.Do(ctx, c.B().ScriptFlush().Build()).Error(); err != nil {
					t.Fatal(err)
				}
			}
			if v, err := s.Exec(ctx, c, []string{"k"}, nil).ToString(); err != nil || v != "v" {
				t.Errorf("a read at the memory limit, round %d: %q, %v; want v", round, v, err)
			}
		}
	}
	err := luascript.New("return redis.call('SET', KEYS[1], 'w')").Exec(ctx, c, []string{"k2"}, nil).Error()
	if err == nil || !strings.HasPrefix(err.Error(), "OOM") {
		t.Errorf("a write at the memory limit: %v, want OOM", err)
	}
}
