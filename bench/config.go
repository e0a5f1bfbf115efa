package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/internal/benchload"
)

// config is what a run measures and how. The workloads' own settings (board
// sizes, ids, messages, ...) are their parameters, declared with each
// workload in internal/benchload: one flag each.
type config struct {
	// Workloads lists the workloads to run, by name, in registry order.
	Workloads []string
	// Run holds the concurrency and every workload's parameters.
	Run benchload.Config
	// Duration is the measured time of each variant in each round; Warmup
	// runs before each measurement, unrecorded.
	Duration, Warmup time.Duration
	// Rounds is how many times each variant is measured, interleaved.
	Rounds int
	// Prefix starts every key name of the run; only [a-z0-9_].
	Prefix string
	// Out and SVG are where the JSON and the chart are written ("-": not
	// written); with Engines, each engine's go into a folder named after
	// it beside them (see forEngine), with the tables as text.
	Out, SVG string
	// Engines are the engines to run on, one after the other, each on a
	// temporary redis-server of its own; none: one run on REDIS_URL or
	// the redis-server on PATH.
	Engines []engineSpec
}

// defaultConfig is the full run (quick: the quick run).
func defaultConfig(quick bool) config {
	c := config{Workloads: workloadNames(), Run: benchload.Defaults(quick), Duration: time.Second, Warmup: 250 * time.Millisecond, Rounds: 5}
	if quick {
		c.Duration, c.Warmup, c.Rounds = 200*time.Millisecond, 50*time.Millisecond, 3
	}
	return c
}

// parseFlags reads the command line into a config. --quick starts from
// the quick settings; a flag given explicitly overrides either.
func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	f := defineFlags(fs)
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	c := defaultConfig(*f.quick)
	fs.Visit(func(fl *flag.Flag) {
		if apply, ok := f.set[fl.Name]; ok {
			apply(&c)
		}
	})
	for k, v := range f.params {
		c.Run = c.Run.With(k, v)
	}
	var err error
	if c.Workloads, err = parseWorkloads(*f.workloads); err != nil {
		return c, err
	}
	if c.Engines, err = parseEngines(*f.engines, *f.enginesDir); err != nil {
		return c, err
	}
	c.defaultPaths(*f.workloads != "all")
	return c, c.validate()
}

// flags are the command line's values: set applies a flag given
// explicitly, params the workloads' parameters given.
type flags struct {
	quick      *bool
	workloads  *string
	engines    *string
	enginesDir *string
	set        map[string]func(*config)
	params     map[string]string
}

// defineFlags declares the flags on fs, with the full run's defaults.
func defineFlags(fs *flag.FlagSet) *flags {
	full := defaultConfig(false)
	f := &flags{params: map[string]string{}}
	f.quick = fs.Bool("quick", false, "everything small: the whole run in under a minute")
	f.workloads = fs.String("workloads", "all", "comma-separated workloads to run, by name or number: "+strings.Join(workloadNames(), ","))
	f.engines = fs.String("engines", "", "run on each of these engines in turn, each on a temporary redis-server of its own (not REDIS_URL), writing each one's results, tables and chart into a folder named after it beside --out: all, or comma-separated folder names of --engines-dir and "+DefaultEngine+" (the redis-server on PATH); all is "+DefaultEngine+" and every folder")
	f.enginesDir = fs.String("engines-dir", defaultEnginesDir, "the engines directory: one folder per engine, each holding bin/redis-server (and bin/redis-cli, for the sharded workload's cluster)")
	conc := fs.Int("concurrency", full.Run.Concurrency, "goroutines issuing operations")
	dur := fs.Duration("duration", full.Duration, "measured time per variant per round (--quick 200ms)")
	warm := fs.Duration("warmup", full.Warmup, "unrecorded warm-up before each measurement (--quick 50ms)")
	rounds := fs.Int("rounds", full.Rounds, "interleaved rounds per comparison, ratios are medians over rounds (--quick 3)")
	out := fs.String("out", "", "JSON results path, - for none (default: results/results.json, in the directory it runs in, bench/ under go run -C bench ., for a full run of every workload, else in the temporary directory)")
	svg := fs.String("svg", "", "SVG chart path, - for none (default: beside the JSON, <name>-reads.svg)")
	f.set = map[string]func(*config){
		"concurrency": func(c *config) { c.Run.Concurrency = *conc }, "duration": func(c *config) { c.Duration = *dur },
		"warmup": func(c *config) { c.Warmup = *warm }, "rounds": func(c *config) { c.Rounds = *rounds },
		"out": func(c *config) { c.Out = *out }, "svg": func(c *config) { c.SVG = *svg },
	}
	for _, p := range benchload.Params() {
		fs.Func(p.Name, fmt.Sprintf("%s (default %s, --quick %s)", p.Usage, p.Full, p.Quick), func(s string) error {
			f.params[p.Name] = s
			return nil
		})
	}
	return f
}

// workloadNames returns the names of every workload, in order.
func workloadNames() []string {
	var names []string
	for _, w := range benchload.Workloads() {
		names = append(names, w.Name)
	}
	return names
}

// parseWorkloads turns "all" or "writes,2" into workload names, in
// registry order.
func parseWorkloads(s string) ([]string, error) {
	if s == "all" {
		return workloadNames(), nil
	}
	want := map[string]bool{}
	for _, w := range strings.Split(s, ",") {
		wl, ok := benchload.Lookup(strings.TrimSpace(w))
		if !ok {
			return nil, fmt.Errorf("unknown workload %q (have %s)", w, strings.Join(workloadNames(), ", "))
		}
		want[wl.Name] = true
	}
	var out []string
	for _, name := range workloadNames() {
		if want[name] {
			out = append(out, name)
		}
	}
	return out, nil
}

// defaultPaths fills Out and SVG. Only a full run of every workload writes
// into results/ (bench/results/: the command runs in its module's
// directory, go run -C bench .), so a --quick or partial run never
// overwrites the committed results. With Engines, the temporary directory's
// files go under tiebreak-bench/ in it, each engine's in a folder of its
// own (see forEngine).
func (c *config) defaultPaths(subset bool) {
	dir := "results"
	name := "results.json"
	if c.Run.Quick || subset {
		dir, name = os.TempDir(), "tiebreak-bench-quick.json"
		if len(c.Engines) > 0 {
			dir = filepath.Join(dir, "tiebreak-bench")
		}
		if !c.Run.Quick {
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
	if c.Duration <= 0 || c.Warmup < 0 || c.Rounds < 1 {
		return fmt.Errorf("duration %v, warm-up %v, rounds %d: want a positive duration and at least one round", c.Duration, c.Warmup, c.Rounds)
	}
	var ws []benchload.Workload
	for _, name := range c.Workloads {
		w, _ := benchload.Lookup(name)
		ws = append(ws, w)
	}
	return c.Run.Check(ws)
}
