package main

import "testing"

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.xs); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

// TestRatioWithinRounds checks that a ratio pairs measurements of the same
// round: a variant always twice as fast is 2, however the rounds swing.
func TestRatioWithinRounds(t *testing.T) {
	a := []Measurement{{OpsPerSec: 200}, {OpsPerSec: 20}, {OpsPerSec: 2000}}
	b := []Measurement{{OpsPerSec: 100}, {OpsPerSec: 10}, {OpsPerSec: 1000}}
	if got := ratio(a, b, throughput); got != 2 {
		t.Errorf("ratio = %v, want 2", got)
	}
	if got := ratio(a, []Measurement{{}, {}, {}}, throughput); got != 0 {
		t.Errorf("ratio against zeros = %v, want 0", got)
	}
}
