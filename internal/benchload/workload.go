package benchload

import (
	"context"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/redis/rueidis"
)

// Workload is one numbered measurement.
type Workload struct {
	// Num orders the run; Name selects it (bench --workloads).
	Num  int
	Name string
	// Title heads its table; RatioOf says what its ratios divide by.
	Title   string
	RatioOf string
	// Params are its settings, one flag each.
	Params []Param
	// Validate checks settings that depend on each other (optional).
	Validate func(Config) error
	// Rows and Goals are how many rows and goals a run of cfg makes.
	Rows, Goals func(cfg Config) int
	// Prepare builds and loads the fixture. A fixture returned with an
	// error still has a Drop (deleting what was written).
	Prepare func(ctx context.Context, env Env, cfg Config) (*Fixture, error)
}

// Env is where a fixture lives: a client, the prefix of every key it
// writes (only [a-zA-Z0-9_]), and where progress goes (nil: nowhere).
type Env struct {
	Client rueidis.Client
	// Caching is a client to the same server with client-side caching on
	// (the hot workload's cached reads); nil: Client, which then must
	// have it on.
	Caching rueidis.Client
	Prefix  string
	Logf    func(format string, args ...any)
}

// logf writes progress, if anyone listens.
func (e Env) logf(format string, args ...any) {
	if e.Logf != nil {
		e.Logf(format, args...)
	}
}

// Fixture is a loaded workload: what to measure, and its keys.
type Fixture struct {
	// Comparisons are measured one after another, each in its own rounds.
	Comparisons []Comparison
	// Memory holds figures measured while preparing (the memory workload).
	Memory []MemoryRow
	// Notes say what a reader must know to read the results.
	Notes []string
	// Drop deletes every key of the fixture.
	Drop func(ctx context.Context) error
	// Finish, when not nil, returns the notes known only once the
	// comparisons ran (the hot workload's staleness and watch delay).
	Finish func() []string
}

// Comparison is a set of variants measured together: in the same rounds,
// with the same number of callers.
type Comparison struct {
	// Name names it in progress lines and as a Go sub-benchmark.
	Name string
	// Case is the rows' case, unless a variant says otherwise.
	Case string
	// Baseline is the variant ratios divide by, unless a variant says
	// otherwise; Metric the figure divided.
	Baseline string
	Metric   Metric
	// Callers is the number of concurrent callers: 0 for the run's
	// concurrency, 1 for the latency one caller sees.
	Callers  int
	Variants []Variant
	Goals    []Goal
	// RedisCPU, when not nil, reads the CPU time, in seconds, of the Redis
	// the variants talk to, where that is not the run's client (a cluster
	// of the fixture's own: the sum over its masters). The harnesses read
	// it around each measurement instead of the run's server's INFO cpu.
	RedisCPU func(ctx context.Context) (float64, error)
}

// Metric is the figure a ratio divides.
type Metric int

// The metrics: throughput, p50 latency (greater is slower), speed, the
// inverse of p50 latency (the baseline's p50 over the variant's: how many
// times faster one call is), and the Redis server's CPU time per operation
// (INFO cpu; greater costs Redis more).
const (
	Throughput Metric = iota
	LatencyP50
	SpeedP50
	RedisCPU
)

// Variant is one contender of a comparison.
type Variant struct {
	// Name is unique in its comparison.
	Name string
	// Bench names its Go sub-benchmark when not Name: a strategy of the
	// library goes by its own name there ("PackedScore"), as before the
	// workloads were shared.
	Bench string
	// Row names its row when not Name (the reads: "top10 packed", in the
	// row of case "1e6"); Case overrides the comparison's.
	Row, Case string
	// Baseline overrides the comparison's.
	Baseline string
	// Size and Series place the row in the chart (the reads).
	Size   int64
	Series string
	// Op makes one operation. It draws its ids and values itself, from
	// the fixture's sequence, and may be called concurrently.
	Op func(ctx context.Context) error
	// Counters are events Op counts, reported per operation.
	Counters []Counter
	// Commands are the INFO commandstats names (prefixes) of what Op sends:
	// the Go benchmarks report the time Redis spent in them per op.
	Commands []string
}

// RowName is the name of the variant's row.
func (v Variant) RowName() string {
	if v.Row != "" {
		return v.Row
	}
	return v.Name
}

// BenchName is the name of the variant's Go sub-benchmark.
func (v Variant) BenchName() string {
	if v.Bench != "" {
		return v.Bench
	}
	return v.Name
}

// Counter is a named event count kept by a variant's Op.
type Counter struct {
	Name string
	N    *atomic.Int64
}

// Goal holds one variant to a bound on its ratio.
type Goal struct {
	// Variant is held to the goal; its ratio is taken against Against (by
	// default its baseline), in the comparison's metric.
	Variant, Against string
	// Text states the goal; Short labels it in a table cell.
	Text, Short string
	// Target is the bound: ratio >= Target when AtLeast, else <= Target.
	Target  float64
	AtLeast bool
	// Note qualifies the verdict (e.g. sizes other than the goal's).
	Note string
}

// MemoryRow is one variant measured for memory (the memory workload, the
// ratelimit workload's memory rows): bytes per member or per key by each
// figure, and its ratio to the baseline's.
type MemoryRow struct {
	Case, Variant, Baseline string
	// Per is what the bytes are counted per: "member" or "key".
	Per     string
	Figures map[string]float64
	Ratio   float64
	Goals   []Goal
}

// registry holds every workload, ordered by Num.
var registry []Workload

// register adds w to the registry. It panics on a duplicate number, name
// or parameter name (each is one flag of the bench command): a
// programming error found at start-up.
func register(w Workload) {
	for _, o := range registry {
		if o.Num == w.Num || o.Name == w.Name {
			panic("benchload: workload registered twice: " + w.Name)
		}
	}
	for _, p := range w.Params {
		if slices.ContainsFunc(Params(), func(q Param) bool { return q.Name == p.Name }) {
			panic("benchload: parameter " + p.Name + " declared twice")
		}
	}
	registry = append(registry, w)
	slices.SortFunc(registry, func(a, b Workload) int { return a.Num - b.Num })
}

// Workloads returns every workload, in order.
func Workloads() []Workload { return slices.Clone(registry) }

// Lookup finds a workload by name or by number.
func Lookup(s string) (Workload, bool) {
	for _, w := range registry {
		if w.Name == s || strconv.Itoa(w.Num) == s {
			return w, true
		}
	}
	return Workload{}, false
}

// Comparison returns the fixture's comparison named name.
func (f *Fixture) Comparison(name string) (Comparison, bool) {
	i := slices.IndexFunc(f.Comparisons, func(c Comparison) bool { return c.Name == name })
	if i < 0 {
		return Comparison{}, false
	}
	return f.Comparisons[i], true
}

// BaselineOf returns the name of the variant v's ratio divides by.
func (c Comparison) BaselineOf(v Variant) string {
	if v.Baseline != "" {
		return v.Baseline
	}
	return c.Baseline
}
