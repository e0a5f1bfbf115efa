package main

import (
	"slices"

	"github.com/tiebreak/tiebreak/internal/benchload"
)

// metric picks one figure of a measurement.
type metric func(Measurement) float64

// The figures ratios are taken of.
var (
	throughput metric = func(m Measurement) float64 { return m.OpsPerSec }
	latencyP50 metric = func(m Measurement) float64 { return m.P50us }
	// speedP50 is the inverse of p50 latency: its ratio to a baseline's is
	// the baseline's p50 over this one's, how many times faster one call is.
	speedP50 metric = func(m Measurement) float64 { return safeDiv(1, m.P50us) }
	redisCPU metric = func(m Measurement) float64 { return m.RedisCPUus }
)

// metricOf is the figure of a workload's metric.
func metricOf(m benchload.Metric) metric {
	return map[benchload.Metric]metric{benchload.Throughput: throughput, benchload.LatencyP50: latencyP50,
		benchload.SpeedP50: speedP50, benchload.RedisCPU: redisCPU}[m]
}

// median returns the median of xs (the mean of the middle two for an even
// count), or 0 for none (JSON has no NaN).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// medianOf returns the median of f over the rounds.
func medianOf(ms []Measurement, f metric) float64 {
	xs := make([]float64, len(ms))
	for i, m := range ms {
		xs[i] = f(m)
	}
	return median(xs)
}

// ratio returns the median over rounds of f(a) / f(b) within each round:
// two measurements close in time are compared, never two medians taken
// from different moments.
func ratio(a, b []Measurement, f metric) float64 {
	n := min(len(a), len(b))
	xs := make([]float64, 0, n)
	for r := range n {
		if d := f(b[r]); d > 0 {
			xs = append(xs, f(a[r])/d)
		}
	}
	return median(xs)
}

// newRow summarizes a variant's rounds: medians of throughput and
// latencies, medians of the per-op counters, and the rounds themselves.
func newRow(c, name string, ms []Measurement) Row {
	r := Row{
		Case: c, Variant: name, Rounds: ms,
		OpsPerSec: medianOf(ms, throughput),
		P50us:     medianOf(ms, latencyP50),
		P99us:     medianOf(ms, func(m Measurement) float64 { return m.P99us }),

		RedisCPUus: medianOf(ms, func(m Measurement) float64 { return m.RedisCPUus }),
	}
	for k := range ms[0].Extra {
		if r.Extra == nil {
			r.Extra = map[string]float64{}
		}
		r.Extra[k] = medianOf(ms, func(m Measurement) float64 { return m.Extra[k] })
	}
	return r
}

// safeDiv returns a / b, or 0 when b is not positive.
func safeDiv(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}
