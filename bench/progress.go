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
