package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseWorkloads(t *testing.T) {
	got, err := parseWorkloads("memory,1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"writes", "memory"}, got); diff != "" {
		t.Errorf("workloads (-want +got):\n%s", diff)
	}
	if _, err := parseWorkloads("writes,nope"); err == nil {
		t.Error("unknown workload accepted")
	}
}

// TestOutputPaths checks that only a full run of every workload writes
// into results/ (bench/results/ under go run -C bench .), so the committed
// results are never overwritten by a quick or partial run.
func TestOutputPaths(t *testing.T) {
	results := "results" + string(filepath.Separator)
	cases := []struct {
		args     []string
		inResult bool
	}{
		{nil, true},
		{[]string{"--quick"}, false},
		{[]string{"--workloads", "reads"}, false},
		{[]string{"--sizes", "1e4,1e7"}, true},
	}
	for _, c := range cases {
		cfg, err := parseFlags(c.args)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{cfg.Out, cfg.SVG} {
			if got := strings.HasPrefix(p, results); got != c.inResult {
				t.Errorf("%v: path %s, under %s: %v, want %v", c.args, p, results, got, c.inResult)
			}
		}
	}
}

func TestQuickKeepsExplicitFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"--duration", "3s", "--ids", "500", "--quick"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Duration != 3*time.Second || cfg.Warmup != 50*time.Millisecond || cfg.Run.Values["sizes"] != "1e3,1e4" || cfg.Run.Int("members") != 30_000 {
		t.Errorf("quick config %+v", cfg)
	}
	if cfg.Run.Int("ids") != 500 || cfg.Run.Int("hot") != 100 {
		t.Errorf("ids %d, hot %d; want 500 (given) and 100", cfg.Run.Int("ids"), cfg.Run.Int("hot"))
	}
}

func TestValidate(t *testing.T) {
	for _, args := range [][]string{
		{"--concurrency", "0"}, {"--duration", "0s"}, {"--rounds", "0"},
		{"--hot", "10", "--ids", "5"}, {"--members", "0"}, {"--messages", "99"}, {"extra"},
		{"--sizes", "1e2"}, {"--sizes", "1e4,ten"}, {"--ids", "1,2"}, {"--warmup", "-1s"},
	} {
		if _, err := parseFlags(args); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}
