package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progress writes timestamped lines about a long run, to stderr in the
// command (io.Discard in tests). It is safe for concurrent use.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
}

// newProgress starts the clock.
func newProgress(w io.Writer) *progress { return &progress{w: w, start: time.Now()} }

// printf writes one line, prefixed with the time since the start.
func (p *progress) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "[%7.1fs] %s\n", time.Since(p.start).Seconds(), fmt.Sprintf(format, args...))
}

// ticker reports a count every interval until stopped: for bulk loads.
type ticker struct {
	p     *progress
	label string
	total int64
	every time.Duration
	last  time.Time
	start time.Time
	mu    sync.Mutex
}

// newTicker reports progress on label towards total, at most every 2s.
func (p *progress) newTicker(label string, total int64) *ticker {
	now := time.Now()
	return &ticker{p: p, label: label, total: total, every: 2 * time.Second, last: now, start: now}
}

// at reports that done of total are done, if the last report is old enough.
func (t *ticker) at(done int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if time.Since(t.last) < t.every {
		return
	}
	t.last = time.Now()
	t.p.printf("%s: %d/%d (%.0f/s)", t.label, done, t.total, float64(done)/time.Since(t.start).Seconds())
}

// finish reports the total and the overall rate, and returns the rate.
func (t *ticker) finish() float64 {
	rate := float64(t.total) / time.Since(t.start).Seconds()
	t.p.printf("%s: %d done in %.1fs (%.0f/s)", t.label, t.total, time.Since(t.start).Seconds(), rate)
	return rate
}
