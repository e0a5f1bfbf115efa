package main

import (
	"math"
	"math/bits"
	"time"
)

// histSubBits sets the histogram's precision: 2^histSubBits buckets per
// power of two, so a quantile is off by at most 1/2^(histSubBits+1), 1.6%.
const histSubBits = 5

// histSub is the buckets per power of two; histBuckets covers every uint64.
const (
	histSub     = 1 << histSubBits
	histBuckets = (65 - histSubBits) * histSub // covers every uint64
)

// histogram counts latencies in log-linear buckets: exact below 64ns, then
// 32 buckets per power of two. Recording is a few instructions and no
// allocation; each goroutine keeps its own and they are merged afterwards.
type histogram struct {
	counts [histBuckets]uint64
	n      uint64
}

// bucketOf returns the bucket of v nanoseconds.
func bucketOf(v uint64) int {
	if v < 2*histSub {
		return int(v)
	}
	shift := bits.Len64(v) - histSubBits - 1
	return (shift+1)*histSub + int(v>>shift) - histSub
}

// bucketMid returns the middle of bucket i, in nanoseconds.
func bucketMid(i int) uint64 {
	if i < 2*histSub {
		return uint64(i)
	}
	shift := i/histSub - 1
	low := uint64(i%histSub+histSub) << shift
	return low + (uint64(1)<<shift)/2
}

// record counts one latency.
func (h *histogram) record(d time.Duration) { h.recordN(d, 1) }

// recordN counts k latencies of d: one op's, timed for k ops alike.
func (h *histogram) recordN(d time.Duration, k uint64) {
	if d < 0 {
		d = 0
	}
	h.counts[bucketOf(uint64(d))] += k
	h.n += k
}

// merge adds o's counts to h.
func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
}

// quantile returns the latency below which a fraction q of the recorded
// latencies lie (the nearest-rank method), or 0 when nothing was recorded.
func (h *histogram) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	rank = min(max(rank, 1), h.n)
	var seen uint64
	for i, c := range h.counts {
		if seen += c; seen >= rank {
			return time.Duration(bucketMid(i))
		}
	}
	return time.Duration(bucketMid(histBuckets - 1))
}
