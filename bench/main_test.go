package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/bench/internal/redisrate"
	"github.com/tiebreak/tiebreak/internal/benchload"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// tinyConfig runs every workload in a second or two: small boards, short
// measurements, two rounds so that interleaving is exercised.
func tinyConfig(prefix string) config {
	c := defaultConfig(false)
	for k, v := range map[string]string{"sizes": "200,1000", "ids": "300", "hot": "10", "members": "2000", "messages": "1000",
		"friends-board": "1000", "friends": "5,50", "migrate-board": "1000", "rl-keys": "200",
		"sharded-board": "2000", "sharded-shards": "1,4", "sharded-cpu-writes": "200",
		"readcost-board": "1000", "hot-board": "1000", "hot-readers": "4", "hot-calm": "200"} {
		c.Run = c.Run.With(k, v)
	}
	c.Run.Concurrency = 4
	c.Duration = 25 * time.Millisecond
	c.Warmup = 5 * time.Millisecond
	c.Rounds = 2
	c.Prefix = prefix
	return c
}

// TestEveryWorkloadTiny runs the whole command, every registered workload,
// against real Redis, and checks the report's shape, its figures, its
// outputs and that no key is left behind.
func TestEveryWorkloadTiny(t *testing.T) {
	env := redistest.New(t)
	usePeer(t, env)
	cfg := tinyConfig(env.Prefix)
	rep, err := run(context.Background(), env.Client, env.Source, cfg, newProgress(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range rep.Sections {
		got = append(got, s.Workload)
	}
	if diff := cmp.Diff(workloadNames(), got); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
	for _, s := range rep.Sections {
		checkSection(t, s, cfg)
	}
	checkOutputs(t, rep, cfg)
	if keys := keysLeft(t, env); len(keys) > 0 {
		t.Errorf("keys left behind: %q", keys)
	}
	if rep.Redis.Version == "" || rep.Redis.RedisVersion == "" || rep.Redis.Engine == "" || rep.Machine.Cores < 1 || rep.Machine.GoVersion == "" {
		t.Errorf("machine or Redis not described: %+v %+v", rep.Machine, rep.Redis)
	}
}

// usePeer gives the ratelimit workload redis_rate on env's server, as the
// command does, until t ends.
func usePeer(t *testing.T, env *redistest.Env) {
	t.Helper()
	rdb, err := redisrate.Connect(env.Addr)
	if err != nil {
		t.Fatal(err)
	}
	benchload.SetRLPeer(redisrate.Peer(rdb))
	t.Cleanup(func() {
		benchload.SetRLPeer(nil)
		rdb.Close()
	})
}

// checkSection checks a section's row and goal counts and that every
// figure is present and plausible.
func checkSection(t *testing.T, s Section, cfg config) {
	t.Helper()
	w, _ := benchload.Lookup(s.Workload)
	if rows, goals := w.Rows(cfg.Run), w.Goals(cfg.Run); len(s.Rows) != rows || len(s.Goals) != goals {
		t.Errorf("%s: %d rows, %d goals; want %d, %d", s.Workload, len(s.Rows), len(s.Goals), rows, goals)
	}
	if s.Kind == "memory" {
		checkMemory(t, s)
		return
	}
	if s.Workload == "ratelimit" {
		checkAdmitted(t, s)
	}
	for _, r := range s.Rows {
		if r.Per != "" {
			checkMemoryRow(t, s, r)
			continue
		}
		if !(r.Ratio > 0) || r.Baseline == "" {
			t.Errorf("%s %s %s: ratio %v against %q", s.Workload, r.Case, r.Variant, r.Ratio, r.Baseline)
		}
		if len(r.Rounds) != 2 || !(r.OpsPerSec > 0 && r.P50us > 0 && r.P99us >= r.P50us && r.RedisCPUus > 0) {
			t.Errorf("%s %s %s: %d rounds, %.0f ops/s, p50 %.1f, p99 %.1f, cpu %.1f",
				s.Workload, r.Case, r.Variant, len(r.Rounds), r.OpsPerSec, r.P50us, r.P99us, r.RedisCPUus)
		}
	}
}

// checkMemory checks that every variant uses memory, and that the packed
// board, whose sorted set holds what the plain one holds, uses the same
// (MEMORY USAGE, exact per key; used_memory may move with other clients of
// a shared REDIS_URL server, so it is not checked).
func checkMemory(t *testing.T, s Section) {
	t.Helper()
	for _, r := range s.Rows {
		if !(r.Extra[benchload.MemUsage] > 0) {
			t.Errorf("memory %s: %v", r.Variant, r.Extra)
		}
	}
	plain, packed := s.Rows[0].Extra[benchload.MemUsage], s.Rows[1].Extra[benchload.MemUsage]
	if s.Rows[1].Variant != "packed" || packed < plain*0.98 || packed > plain*1.02 {
		t.Errorf("%s uses %.1f B/member by MEMORY USAGE, the plain set %.1f", s.Rows[1].Variant, packed, plain)
	}
}

// checkMemoryRow checks a memory row of a throughput section: every
// figure present and a ratio against its baseline.
func checkMemoryRow(t *testing.T, s Section, r Row) {
	t.Helper()
	if !(r.Extra[benchload.MemUsage] > 0) || !(r.Ratio > 0) || r.Baseline == "" || len(r.Rounds) > 0 {
		t.Errorf("%s %s %s: memory row %v, ratio %v against %q, %d rounds", s.Workload, r.Case, r.Variant, r.Extra, r.Ratio, r.Baseline, len(r.Rounds))
	}
}

// checkAdmitted checks that the ratelimit cases are what they say: every
// call of the admit case admitted, none of the refuse case.
func checkAdmitted(t *testing.T, s Section) {
	t.Helper()
	for _, r := range s.Rows {
		if r.Per != "" {
			continue
		}
		got, ok := r.Extra[benchload.RLAdmitted]
		want := map[string]float64{"admit": 1, "refuse": 0}[r.Case]
		if !ok || got != want {
			t.Errorf("ratelimit %s %s: %v admitted per call, want %v", r.Case, r.Variant, r.Extra, want)
		}
	}
}

// checkOutputs checks the table, the JSON and the chart built from rep.
func checkOutputs(t *testing.T, rep *Report, cfg config) {
	t.Helper()
	var out bytes.Buffer
	cfg.Out, cfg.SVG = t.TempDir()+"/r.json", t.TempDir()+"/r.svg"
	if err := output(&out, rep, cfg, newProgress(io.Discard)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{benchload.WriteWatchMulti, benchload.WriteCASSpin, benchload.BareEvalsha, "page-cursor suffix", "plain-zset",
		benchload.TLBaseline, benchload.TLRaw, benchload.DMBaseline, "range100 c1", benchload.RLBaseline, redisrate.Name, "MEMORY USAGE B/key", "== Goals"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	var back Report
	if err := json.Unmarshal(readFile(t, cfg.Out), &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rep.Sections, back.Sections); diff != "" {
		t.Errorf("JSON round trip (-want +got):\n%s", diff)
	}
	if len(readFile(t, cfg.SVG)) == 0 {
		t.Error("no chart written")
	}
}

// keysLeft lists the keys holding env's prefix.
func keysLeft(t *testing.T, env *redistest.Env) []string {
	t.Helper()
	keys, err := redisops.ScanKeys(context.Background(), env.Client, "*"+env.Prefix+"*")
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// readFile returns path's contents, failing t on error.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
