package main

import (
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
