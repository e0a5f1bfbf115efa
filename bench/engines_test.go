package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeEngines makes an engines directory: "a" and "c" with an executable
// bin/redis-server holding script, "b" with one that is not executable,
// "d" with no bin/ at all.
func fakeEngines(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	for name, mode := range map[string]os.FileMode{"a": 0o755, "b": 0o644, "c": 0o755} {
		bin := filepath.Join(dir, name, "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, "redis-server"), []byte(script), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestParseEngines(t *testing.T) {
	dir := fakeEngines(t, "#!/bin/sh\n")
	names := func(es []engineSpec) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Name)
		}
		return out
	}
	for _, c := range []struct {
		arg  string
		want []string
	}{
		{"", nil},
		{"all", []string{DefaultEngine, "a", "c"}},
		{"c,default,a,c", []string{"c", DefaultEngine, "a"}},
		{" a ", []string{"a"}},
	} {
		got, err := parseEngines(c.arg, dir)
		if err != nil {
			t.Errorf("%q: %v", c.arg, err)
			continue
		}
		if diff := cmp.Diff(c.want, names(got)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.arg, diff)
		}
		for _, e := range got {
			if want := filepath.Join(dir, e.Name, "bin"); e.Name != DefaultEngine && e.Bin != want || e.Name == DefaultEngine && e.Bin != "" {
				t.Errorf("%q: engine %s in %q", c.arg, e.Name, e.Bin)
			}
		}
	}
	for _, arg := range []string{"b", "d", "nope", "a,", "../a", "a/bin", ".."} {
		if got, err := parseEngines(arg, dir); err == nil {
			t.Errorf("%q accepted: %v", arg, got)
		}
	}
	// The default engine needs no engines directory; all does.
	missing := filepath.Join(dir, "missing")
	if got, err := parseEngines(DefaultEngine, missing); err != nil || len(got) != 1 {
		t.Errorf("default without a directory: %v, %v", got, err)
	}
	if _, err := parseEngines("all", missing); err == nil {
		t.Error("all accepted without an engines directory")
	}
}

// TestEngineOutputPaths checks where a --engines run writes each engine's
// JSON, chart and tables: a folder named after the engine beside --out,
// results/<engine>/ for a full run, the temporary directory's
// tiebreak-bench/<engine>/ for a quick or partial one.
func TestEngineOutputPaths(t *testing.T) {
	dir := fakeEngines(t, "#!/bin/sh\n")
	tmp := filepath.Join(os.TempDir(), "tiebreak-bench", "a")
	for _, c := range []struct {
		args           []string
		json, svg, txt string
	}{
		{nil, "results/a/results.json", "results/a/results-reads.svg", "results/a/results.txt"},
		{[]string{"--sizes", "1e4,1e7"}, "results/a/results.json", "results/a/results-reads.svg", "results/a/results.txt"},
		{[]string{"--quick"}, tmp + "/tiebreak-bench-quick.json", tmp + "/tiebreak-bench-quick-reads.svg", tmp + "/tiebreak-bench-quick.txt"},
		{[]string{"--workloads", "writes,reads,memory"}, tmp + "/tiebreak-bench.json", tmp + "/tiebreak-bench-reads.svg", tmp + "/tiebreak-bench.txt"},
		{[]string{"--workloads", "writes", "--out", "results/results.json"}, "results/a/results.json", "results/a/results-reads.svg", "results/a/results.txt"},
		{[]string{"--out", "x/r.json", "--svg", "-"}, "x/a/r.json", "-", "x/a/r.txt"},
		{[]string{"--out", "-"}, "-", "-", "-"},
	} {
		cfg, err := parseFlags(append([]string{"--engines", "a", "--engines-dir", dir}, c.args...))
		if err != nil {
			t.Fatal(err)
		}
		e := cfg.forEngine(cfg.Engines[0].Name)
		got := []string{e.Out, e.SVG, textFile(e.Out)}
		want := []string{filepath.FromSlash(c.json), filepath.FromSlash(c.svg), filepath.FromSlash(c.txt)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v: json, svg, txt (-want +got):\n%s", c.args, diff)
		}
	}
	// Without --engines, nothing moves.
	cfg, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Engines != nil || cfg.Out != filepath.Join("results", "results.json") {
		t.Errorf("without --engines: engines %v, out %s", cfg.Engines, cfg.Out)
	}
}

// TestEnginesEndToEnd runs --quick --workloads writes on two engines: the
// default one and "fake", whose redis-server starts the one on PATH and
// leaves a mark, so that the run is seen to start each engine's binary.
// Each engine's results and tables are written, named after it.
func TestEnginesEndToEnd(t *testing.T) {
	real, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("no redis-server on PATH:", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake", "bin")
	mark := filepath.Join(dir, "started")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\ntouch '" + mark + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "redis-server"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "results.json")
	cfg, err := parseFlags([]string{"--quick", "--workloads", "writes", "--engines", "default,fake", "--engines-dir", dir,
		"--out", out, "--ids", "300", "--hot", "10", "--concurrency", "4", "--duration", "25ms", "--warmup", "5ms", "--rounds", "2"})
	if err != nil {
		t.Fatal(err)
	}
	path := os.Getenv("PATH")
	if err := runEngines(context.Background(), cfg, io.Discard, newProgress(io.Discard)); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("PATH") != path {
		t.Errorf("PATH left as %q", os.Getenv("PATH"))
	}
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("the fake engine's redis-server did not run: %v", err)
	}
	for _, name := range []string{DefaultEngine, "fake"} {
		var rep Report
		if err := json.Unmarshal(readFile(t, filepath.Join(filepath.Dir(out), name, "results.json")), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Engine != name || rep.Redis.Engine == "" || !strings.HasSuffix(rep.Redis.Source, "of engine "+name) {
			t.Errorf("%s: engine %q, Redis %q from %q", name, rep.Engine, rep.Redis.Engine, rep.Redis.Source)
		}
		if len(rep.Sections) != 1 || rep.Sections[0].Workload != "writes" || !strings.Contains(strings.Join(rep.Sections[0].Notes, "\n"), "ZRANK") {
			t.Errorf("%s: sections %+v", name, rep.Sections)
		}
		text := string(readFile(t, filepath.Join(filepath.Dir(out), name, "results.txt")))
		for _, want := range []string{"of engine " + name, "== 1. Leaderboard writes", "uniform redis-cpu", "== Goals"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: tables lack %q:\n%s", name, want, text)
			}
		}
	}
}
