package luascript_test

import (
	"context"
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
// NOSCRIPT and runs once, as EVAL, in order; SCRIPT LOAD is never sent.
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
		[]int64{1, 11, 111}, "111", nil, map[string]int64{"evalsha": 3, "eval": 3, "evalsha_ro": 1, "eval_ro": 1},
		[]int64{112, 122, 222}, "222", nil, map[string]int64{"evalsha": 3, "evalsha_ro": 1},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("replies, GET, commands sent; on a flushed server, then cached (-want +got):\n%s", diff)
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
