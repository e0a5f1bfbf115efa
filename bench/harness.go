package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
)

// harness runs measurements: one Redis client, one config, one progress
// log, shared by every workload of a run.
type harness struct {
	client rueidis.Client
	cfg    config
	log    *progress
	// seq numbers every operation of the run, across variants and rounds,
	// so that values derived from it (write points) only grow.
	seq atomic.Uint64
}

// opFunc is one operation of a variant. seq is unique in the run and
// increasing; ops derive ids and values from it. An error stops the
// measurement: a variant's own give-ups are counted, not returned.
type opFunc func(ctx context.Context, seq uint64) error

// variant is one contender of a comparison.
type variant struct {
	name string
	op   opFunc
	// counters are events the op counts (retries, give-ups), reported per
	// operation in Measurement.Extra.
	counters []counter
}

// counter is a named event count kept by a variant's op.
type counter struct {
	name string
	n    *atomic.Int64
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

// measure runs v on conc goroutines for the warm-up and then the measured
// duration, and returns what the measured window saw: the operations
// started in it, and their latencies.
func (h *harness) measure(ctx context.Context, v variant, conc int) (Measurement, error) {
	cpu0, err := redisCPU(ctx, h.client)
	if err != nil {
		return Measurement{}, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	before := counts(v.counters)
	from := time.Now().Add(h.cfg.Warmup)
	to := from.Add(h.cfg.Duration)
	hists := make([]*histogram, conc)
	var all atomic.Int64
	var wg sync.WaitGroup
	for w := range hists {
		hists[w] = new(histogram)
		wg.Go(func() { all.Add(h.work(ctx, cancel, v.op, hists[w], from, to)) })
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return Measurement{}, fmt.Errorf("%s: %w", v.name, err)
	}
	m := summarize(hists, h.cfg.Duration, perOp(v.counters, before, all.Load()))
	cpu1, err := redisCPU(ctx, h.client)
	if n := all.Load(); n > 0 {
		m.RedisCPUus = (cpu1 - cpu0) * 1e6 / float64(n)
	}
	return m, err
}

// work is one goroutine of a measurement: it runs op until to, records
// the latency of each op started at or after from, and returns the number
// of ops it ran in all. An error cancels the measurement.
func (h *harness) work(ctx context.Context, cancel context.CancelCauseFunc, op opFunc, hist *histogram, from, to time.Time) int64 {
	var n int64
	for ctx.Err() == nil {
		t0 := time.Now()
		if !t0.Before(to) {
			break
		}
		if err := op(ctx, h.seq.Add(1)); err != nil {
			cancel(err)
			break
		}
		n++
		if !t0.Before(from) {
			hist.record(time.Since(t0))
		}
	}
	return n
}

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
func counts(cs []counter) []int64 {
	out := make([]int64, len(cs))
	for i, c := range cs {
		out[i] = c.n.Load()
	}
	return out
}

// perOp returns each counter's increase since before, per op.
func perOp(cs []counter, before []int64, ops int64) map[string]float64 {
	if len(cs) == 0 || ops == 0 {
		return nil
	}
	out := make(map[string]float64, len(cs))
	for i, c := range cs {
		out[c.name] = float64(c.n.Load()-before[i]) / float64(ops)
	}
	return out
}

// compare measures every variant cfg.Rounds times on cfg.Concurrency
// goroutines, interleaved and rotated (ABC, BCA, CAB, ...) so that each
// variant takes each position in turn and no moment of noise hits one
// variant alone. It returns each variant's measurements, [variant][round].
func (h *harness) compare(ctx context.Context, label string, vs []variant) ([][]Measurement, error) {
	return h.compareAt(ctx, label, vs, h.cfg.Concurrency)
}

// compareAt is compare on conc goroutines instead of cfg.Concurrency: 1
// measures the latency one caller sees, without queueing behind others.
func (h *harness) compareAt(ctx context.Context, label string, vs []variant, conc int) ([][]Measurement, error) {
	out := make([][]Measurement, len(vs))
	for r := range h.cfg.Rounds {
		for k := range vs {
			j := (k + r) % len(vs)
			m, err := h.measure(ctx, vs[j], conc)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", label, err)
			}
			out[j] = append(out[j], m)
			h.log.printf("%s round %d/%d %-22s %9.0f ops/s  p50 %7.1fµs  p99 %7.1fµs",
				label, r+1, h.cfg.Rounds, vs[j].name, m.OpsPerSec, m.P50us, m.P99us)
		}
	}
	return out, nil
}
