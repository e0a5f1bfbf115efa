package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// minBoardSize is the smallest board the read workload accepts: it needs a
// full deep page (50 entries) in the bottom half.
const minBoardSize = 200

// minMessages is the smallest timeline the timeline workload accepts: a
// full page (50 messages) before at least as many cursors.
const minMessages = 100

// config is what a run measures and how. Workloads read their own fields;
// a new workload that needs a setting adds a field here, its flag in
// parseFlags and its quick value in applyQuick.
type config struct {
	// Workloads lists the workloads to run, by name, in registry order.
	Workloads []string
	// Sizes are the board sizes of the read workload, ascending.
	Sizes []int64
	// Concurrency is the number of goroutines issuing operations.
	Concurrency int
	// Duration is the measured time of each variant in each round.
	Duration time.Duration
	// Warmup runs before each measurement, unrecorded.
	Warmup time.Duration
	// Rounds is how many times each variant is measured, interleaved.
	Rounds int
	// WriteIDs is the number of ids the uniform write case draws from.
	WriteIDs int
	// HotIDs is the number of ids the contended write case draws from.
	HotIDs int
	// Members is the number of entries of each memory workload board.
	Members int
	// Messages is the number of messages of the timeline workload.
	Messages int
	// Quick marks a --quick run (small everything).
	Quick bool
	// Prefix starts every board and key name of the run; only [a-z0-9_].
	Prefix string
	// Out and SVG are where the JSON and the chart are written ("-": not
	// written).
	Out, SVG string
}

// defaultConfig is the full run.
func defaultConfig() config {
	return config{
		Workloads:   registryNames(),
		Sizes:       []int64{1e4, 1e5, 1e6},
		Concurrency: 16,
		Duration:    time.Second,
		Warmup:      250 * time.Millisecond,
		Rounds:      5,
		WriteIDs:    100_000,
		HotIDs:      100,
		Members:     1_000_000,
		Messages:    100_000,
	}
}

// applyQuick shrinks every setting the user did not set explicitly so that
// the whole run takes well under a minute.
func applyQuick(c *config, set map[string]bool) {
	quick := map[string]func(){
		"sizes":    func() { c.Sizes = []int64{1e3, 1e4} },
		"duration": func() { c.Duration = 200 * time.Millisecond },
		"warmup":   func() { c.Warmup = 50 * time.Millisecond },
		"rounds":   func() { c.Rounds = 3 },
		"ids":      func() { c.WriteIDs = 10_000 },
		"members":  func() { c.Members = 30_000 },
		"messages": func() { c.Messages = 20_000 },
	}
	for name, apply := range quick {
		if !set[name] {
			apply()
		}
	}
}

// parseFlags reads the command line into a config.
func parseFlags(args []string) (config, error) {
	c := defaultConfig()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	workloads, sizes := defineFlags(fs, &c)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var err error
	if c.Workloads, err = parseWorkloads(*workloads); err != nil {
		return c, err
	}
	if c.Sizes, err = parseSizes(*sizes); err != nil {
		return c, err
	}
	if c.Quick {
		applyQuick(&c, set)
	}
	c.defaultPaths(set["workloads"])
	return c, c.validate()
}

// defineFlags declares the flags on fs, writing into c; the workloads and
// sizes come back as text, parsed after.
func defineFlags(fs *flag.FlagSet, c *config) (workloads, sizes *string) {
	workloads = fs.String("workloads", "all", "comma-separated workloads to run, by name or number: "+strings.Join(registryNames(), ","))
	sizes = fs.String("sizes", "1e4,1e5,1e6", "board sizes of the read workload (1e7 only when asked for)")
	fs.IntVar(&c.Concurrency, "concurrency", c.Concurrency, "goroutines issuing operations")
	fs.DurationVar(&c.Duration, "duration", c.Duration, "measured time per variant per round")
	fs.DurationVar(&c.Warmup, "warmup", c.Warmup, "unrecorded warm-up before each measurement")
	fs.IntVar(&c.Rounds, "rounds", c.Rounds, "interleaved rounds per comparison (ratios are medians over rounds)")
	fs.IntVar(&c.WriteIDs, "ids", c.WriteIDs, "ids of the uniform write case")
	fs.IntVar(&c.HotIDs, "hot", c.HotIDs, "ids of the contended write case")
	fs.IntVar(&c.Members, "members", c.Members, "entries per board in the memory workload")
	fs.IntVar(&c.Messages, "messages", c.Messages, "messages of the timeline workload")
	fs.BoolVar(&c.Quick, "quick", false, "everything small: the whole run in under a minute")
	fs.StringVar(&c.Out, "out", "", "JSON results path, - for none (default: bench/results/results.json for a full run of every workload, else in the temporary directory)")
	fs.StringVar(&c.SVG, "svg", "", "SVG chart path, - for none (default: beside the JSON, <name>-reads.svg)")
	return workloads, sizes
}

// parseWorkloads turns "all" or "writes,2" into registered names, in
// registry order.
func parseWorkloads(s string) ([]string, error) {
	if s == "all" {
		return registryNames(), nil
	}
	want := map[string]bool{}
	for _, w := range strings.Split(s, ",") {
		wl, ok := lookupWorkload(strings.TrimSpace(w))
		if !ok {
			return nil, fmt.Errorf("unknown workload %q (have %s)", w, strings.Join(registryNames(), ", "))
		}
		want[wl.name] = true
	}
	var out []string
	for _, name := range registryNames() {
		if want[name] {
			out = append(out, name)
		}
	}
	return out, nil
}

// parseSizes reads "1e4,1e5,100000" into sorted, distinct sizes.
func parseSizes(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || v != math.Trunc(v) || v < minBoardSize || v > 1e9 {
			return nil, fmt.Errorf("board size %q: want a whole number in [%d, 1e9], such as 1e6", f, minBoardSize)
		}
		out = append(out, int64(v))
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// defaultPaths fills Out and SVG. Only a full run of every workload writes
// into bench/results/, so a --quick or partial run never overwrites the
// committed results.
func (c *config) defaultPaths(subset bool) {
	dir := filepath.Join("bench", "results")
	name := "results.json"
	if c.Quick || subset {
		dir, name = os.TempDir(), "tiebreak-bench-quick.json"
		if !c.Quick {
			name = "tiebreak-bench.json"
		}
	}
	if c.Out == "" {
		c.Out = filepath.Join(dir, name)
	}
	if c.SVG == "" {
		c.SVG = filepath.Join(filepath.Dir(c.Out), strings.TrimSuffix(filepath.Base(c.Out), ".json")+"-reads.svg")
		if c.Out == "-" {
			c.SVG = "-"
		}
	}
}

// validate refuses settings no measurement can run with.
func (c config) validate() error {
	var errs []error
	if c.Concurrency < 1 {
		errs = append(errs, fmt.Errorf("concurrency %d: want at least 1", c.Concurrency))
	}
	if c.Duration <= 0 || c.Warmup < 0 {
		errs = append(errs, fmt.Errorf("duration %v, warm-up %v: want a positive duration", c.Duration, c.Warmup))
	}
	if c.Rounds < 1 {
		errs = append(errs, fmt.Errorf("rounds %d: want at least 1", c.Rounds))
	}
	if c.HotIDs < 1 || c.WriteIDs < c.HotIDs {
		errs = append(errs, fmt.Errorf("ids %d, hot %d: want 1 <= hot <= ids", c.WriteIDs, c.HotIDs))
	}
	if c.Members < 1 {
		errs = append(errs, fmt.Errorf("members %d: want at least 1", c.Members))
	}
	if c.Messages < minMessages {
		errs = append(errs, fmt.Errorf("messages %d: want at least %d", c.Messages, minMessages))
	}
	return errors.Join(errs...)
}
