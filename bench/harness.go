package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/benchload"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// harness runs measurements: one Redis client, one config, one progress
// log, shared by every workload of a run.
type harness struct {
	client rueidis.Client
	cfg    config
	log    *progress
}

// Measurement is one variant measured once.
type Measurement struct {
	// Ops is the number of operations started in the measured window.
	Ops       int64   `json:"ops"`
	OpsPerSec float64 `json:"ops_per_sec"`
	P50us     float64 `json:"p50_us"`
	P99us     float64 `json:"p99_us"`
	// RedisCPUus is the CPU time the Redis server used per operation
	// (INFO cpu, user + system, warm-up included): its share of the cost,
	// which throughput hides when the client is the bottleneck.
	RedisCPUus float64 `json:"redis_cpu_us"`
	// Extra holds each counter's events per operation (warm-up included).
	Extra map[string]float64 `json:"extra,omitempty"`
}

// runWorkload builds w's fixture, measures its comparisons, makes its
// section, and drops the fixture, error or not.
func (h *harness) runWorkload(ctx context.Context, w benchload.Workload) (sec Section, err error) {
	env := benchload.Env{Client: h.client, Prefix: h.cfg.Prefix, Logf: h.log.printf}
	f, err := w.Prepare(ctx, env, h.cfg.Run)
	if f != nil {
		defer func() { err = errors.Join(err, f.Drop(context.WithoutCancel(ctx))) }()
	}
	if err != nil {
		return sec, err
	}
	sec = Section{Workload: w.Name, Title: w.Title, Kind: "throughput", RatioOf: w.RatioOf, Notes: f.Notes}
	for _, m := range f.Memory {
		if len(f.Comparisons) == 0 {
			sec.Kind = "memory"
		}
		sec.Rows = append(sec.Rows, Row{Case: m.Case, Variant: m.Variant, Extra: m.Figures, Ratio: m.Ratio, Baseline: m.Baseline, Per: m.Per})
		for _, g := range m.Goals {
			sec.addGoal(len(sec.Rows)-1, newGoal(g, m.Ratio))
		}
	}
	for _, c := range f.Comparisons {
		conc := cmp.Or(c.Callers, h.cfg.Run.Concurrency)
		ms, err := h.compare(ctx, w.Name+" "+c.Name, c.Variants, conc, c.RedisCPU)
		if err != nil {
			return sec, err
		}
		sec.addComparison(c, ms)
	}
	if f.Finish != nil {
		sec.Notes = append(slices.Clone(sec.Notes), f.Finish()...)
	}
	return sec, nil
}

// addComparison adds a row per variant of c, measured ms, and c's goals.
func (s *Section) addComparison(c benchload.Comparison, ms [][]Measurement) {
	idx := func(name string) int {
		return slices.IndexFunc(c.Variants, func(v benchload.Variant) bool { return v.Name == name })
	}
	first := len(s.Rows)
	for i, v := range c.Variants {
		row := newRow(cmp.Or(v.Case, c.Case), v.RowName(), ms[i])
		row.Size, row.Series = v.Size, v.Series
		row.Ratio, row.Baseline = ratio(ms[i], ms[idx(c.BaselineOf(v))], metricOf(c.Metric)), c.BaselineOf(v)
		s.Rows = append(s.Rows, row)
	}
	for _, g := range c.Goals {
		i := idx(g.Variant)
		value := s.Rows[first+i].Ratio
		if g.Against != "" {
			value = ratio(ms[i], ms[idx(g.Against)], metricOf(c.Metric))
		}
		s.addGoal(first+i, newGoal(g, value))
	}
}

// measure runs v on conc goroutines for the warm-up and then the measured
// duration, and returns what the measured window saw: the operations
// started in it, and their latencies. cpu reads the Redis CPU time (nil:
// the run's server's).
//
// A window in which no operation started measured nothing (every caller
// was inside one operation longer than the window, as a write is while a
// migration without pauses keeps Redis busy): it is measured again, in a
// window twice as long, up to maxWidenings times, and the log says so.
func (h *harness) measure(ctx context.Context, v benchload.Variant, conc int, cpu func(context.Context) (float64, error)) (Measurement, error) {
	if cpu == nil {
		cpu = func(ctx context.Context) (float64, error) { return redisops.CPUSeconds(ctx, h.client) }
	}
	d := h.cfg.Duration
	for i := 0; ; i++ {
		m, err := measureOnce(ctx, v, conc, cpu, h.cfg.Warmup, d)
		if err != nil || m.Ops > 0 || i == maxWidenings {
			return m, err
		}
		d *= 2
		h.log.printf("%s: no operation started in the window; measuring again in %v", v.Name, d)
	}
}

// maxWidenings bounds how often measure doubles an empty window.
const maxWidenings = 4

// measureOnce is one measurement of v: warm-up, then a window of d.
func measureOnce(ctx context.Context, v benchload.Variant, conc int, cpu func(context.Context) (float64, error), warmup, d time.Duration) (Measurement, error) {
	cpu0, err := cpu(ctx)
	if err != nil {
		return Measurement{}, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	before := counts(v.Counters)
	from := time.Now().Add(warmup)
	to := from.Add(d)
	hists := make([]*histogram, conc)
	var all atomic.Int64
	var wg sync.WaitGroup
	for w := range hists {
		hists[w] = new(histogram)
		wg.Go(func() { all.Add(work(ctx, cancel, v.Op, hists[w], from, to)) })
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return Measurement{}, fmt.Errorf("%s: %w", v.Name, err)
	}
	m := summarize(hists, d, perOp(v.Counters, before, all.Load()))
	cpu1, err := cpu(ctx)
	if n := all.Load(); n > 0 {
		m.RedisCPUus = (cpu1 - cpu0) * 1e6 / float64(n)
	}
	return m, err
}

// work is one goroutine of a measurement: it runs op until to, records
// the latency of the ops started at or after from, and returns the number
// of ops it ran in all. An error cancels the measurement.
//
// A read of the clock costs tens of nanoseconds, a fifth of an op served
// from the client's memory: once ops take under fastOp, work times one op
// in sampleEvery (its own latency, between two reads of the clock) and
// counts it for itself and the untimed ops before it; slower ops are each
// timed.
func work(ctx context.Context, cancel context.CancelCauseFunc, op func(context.Context) error, hist *histogram, from, to time.Time) int64 {
	// n ops run; the first done of them are counted in hist or were
	// warm-up. A timed op counts for itself and the untimed ops before it,
	// so that no op is counted twice when every changes.
	var n, done int64
	every := int64(1)
	for ctx.Err() == nil {
		timed := n+1-done >= every
		var t0 time.Time
		if timed {
			if t0 = time.Now(); !t0.Before(to) {
				break
			}
		}
		if err := op(ctx); err != nil {
			cancel(err)
			break
		}
		n++
		if timed {
			d := time.Since(t0)
			if !t0.Before(from) {
				hist.recordN(d, uint64(n-done))
			}
			done = n
			every = 1
			if d < fastOp {
				every = sampleEvery
			}
		}
	}
	return n
}

// fastOp and sampleEvery: see work.
const (
	fastOp      = 10 * time.Microsecond
	sampleEvery = 16
)

// summarize merges the goroutines' histograms into a Measurement.
func summarize(hists []*histogram, d time.Duration, extra map[string]float64) Measurement {
	var all histogram
	for _, hg := range hists {
		all.merge(hg)
	}
	return Measurement{
		Ops:       int64(all.n),
		OpsPerSec: float64(all.n) / d.Seconds(),
		P50us:     float64(all.quantile(0.50)) / 1e3,
		P99us:     float64(all.quantile(0.99)) / 1e3,
		Extra:     extra,
	}
}

// counts snapshots the counters.
func counts(cs []benchload.Counter) []int64 {
	out := make([]int64, len(cs))
	for i, c := range cs {
		out[i] = c.N.Load()
	}
	return out
}

// perOp returns each counter's increase since before, per op.
func perOp(cs []benchload.Counter, before []int64, ops int64) map[string]float64 {
	if len(cs) == 0 || ops == 0 {
		return nil
	}
	out := make(map[string]float64, len(cs))
	for i, c := range cs {
		out[c.Name] = float64(c.N.Load()-before[i]) / float64(ops)
	}
	return out
}

// compare measures every variant cfg.Rounds times on conc goroutines,
// interleaved and rotated (ABC, BCA, CAB, ...) so that each variant takes
// each position in turn and no moment of noise hits one variant alone. It
// returns each variant's measurements, [variant][round].
func (h *harness) compare(ctx context.Context, label string, vs []benchload.Variant, conc int, cpu func(context.Context) (float64, error)) ([][]Measurement, error) {
	out := make([][]Measurement, len(vs))
	for r := range h.cfg.Rounds {
		for k := range vs {
			j := (k + r) % len(vs)
			m, err := h.measure(ctx, vs[j], conc, cpu)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", label, err)
			}
			out[j] = append(out[j], m)
			h.log.printf("%s round %d/%d %-22s %9.0f ops/s  p50 %7.1fµs  p99 %7.1fµs",
				label, r+1, h.cfg.Rounds, vs[j].Name, m.OpsPerSec, m.P50us, m.P99us)
		}
	}
	return out, nil
}
