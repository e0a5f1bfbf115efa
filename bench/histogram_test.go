package main

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestBucketBounds checks that buckets are ordered, cover every value, and
// that a bucket's middle is within the promised 1/64 of any value in it.
func TestBucketBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	prev := -1
	for v := uint64(0); v < 1<<16; v++ {
		b := bucketOf(v)
		if b < prev || b > prev+1 {
			t.Fatalf("bucketOf(%d) = %d after %d: buckets must be contiguous and ordered", v, b, prev)
		}
		prev = b
		checkBucket(t, v)
	}
	for range 100_000 {
		checkBucket(t, r.Uint64()>>r.UintN(64))
	}
	checkBucket(t, math.MaxUint64)
}

// checkBucket fails t unless v's bucket is in range and its middle is
// within 1/64 of v.
func checkBucket(t *testing.T, v uint64) {
	t.Helper()
	b := bucketOf(v)
	if b < 0 || b >= histBuckets {
		t.Fatalf("bucketOf(%d) = %d, outside [0, %d)", v, b, histBuckets)
	}
	mid := float64(bucketMid(b))
	if err := math.Abs(mid-float64(v)) / math.Max(float64(v), 1); err > 1.0/64 {
		t.Fatalf("value %d in bucket %d with middle %.0f: off by %.3f", v, b, mid, err)
	}
}

// TestQuantileMatchesExact compares the histogram's quantiles with the
// nearest-rank quantiles of the sorted sample, for log-uniform latencies
// split over several merged histograms.
func TestQuantileMatchesExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 20 {
		n := 1 + r.IntN(5000)
		parts := make([]histogram, 4)
		sample := make([]time.Duration, n)
		for i := range sample {
			sample[i] = time.Duration(math.Exp(r.Float64() * math.Log(1e9)))
			parts[i%4].record(sample[i])
		}
		var all histogram
		for i := range parts {
			all.merge(&parts[i])
		}
		slices.Sort(sample)
		for _, q := range []float64{0, 0.01, 0.5, 0.9, 0.99, 1} {
			rank := max(int(math.Ceil(q*float64(n))), 1)
			want, got := float64(sample[rank-1]), float64(all.quantile(q))
			if math.Abs(got-want) > want/64+1 {
				t.Errorf("trial %d, n %d: quantile(%v) = %v, exact %v", trial, n, q, got, want)
			}
		}
	}
}

func TestQuantileEmpty(t *testing.T) {
	var h histogram
	if got := h.quantile(0.5); got != 0 {
		t.Errorf("empty histogram: quantile = %v, want 0", got)
	}
}

// work times one op in sampleEvery once ops are fast, and counts it for
// the ops it stands for: the ops the histogram holds are those started in
// the window, within a sample per goroutine; slow ops are each timed.
func TestWorkSamplesFastOps(t *testing.T) {
	for name, c := range map[string]struct {
		slowEvery int // every slowEvery-th op sleeps 2*fastOp; 0: none, 1: all
		every     int64
	}{"fast": {0, sampleEvery}, "slow": {1, 1}, "mixed": {5, sampleEvery}} {
		var hist histogram
		i := 0
		op := func(context.Context) error {
			if i++; c.slowEvery > 0 && i%c.slowEvery == 0 {
				time.Sleep(2 * fastOp)
			}
			return nil
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		from := time.Now()
		n := work(ctx, cancel, op, &hist, from, from.Add(50*time.Millisecond))
		cancel(nil)
		// Each op is counted once (never twice, whatever the clock says
		// of it), but for the untimed ones after the last timed one.
		if n == 0 || int64(hist.n) > n || int64(hist.n) < n-c.every {
			t.Errorf("%s: %d ops run, the histogram counts %d: want at most %d and at least %d", name, n, hist.n, n, n-c.every)
		}
		if c.every == 1 && int64(hist.n) != n {
			t.Errorf("%s: %d ops run, %d timed: every slow op is to be timed", name, n, hist.n)
		}
	}
}

// recordN counts k latencies alike, as k calls of record would.
func TestRecordN(t *testing.T) {
	var a, b histogram
	a.recordN(3*time.Microsecond, 5)
	for range 5 {
		b.record(3 * time.Microsecond)
	}
	if a != b {
		t.Error("recordN(d, 5) differs from 5 records of d")
	}
}
