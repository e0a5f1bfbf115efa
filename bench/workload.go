package main

import (
	"context"
	"slices"
	"strconv"
)

// workload is one numbered measurement. Each lives in its own
// file (leaderboard_write.go, leaderboard_read.go, memory.go, ...) and adds
// itself to the registry from that file's init function.
type workload struct {
	// num is the workload's number; it orders the run.
	num int
	// name selects the workload on the command line (--workloads).
	name string
	// title heads its table.
	title string
	// run measures the workload and returns its section of the report. It
	// deletes every key it wrote before returning, error or not.
	run func(ctx context.Context, h *harness) (Section, error)
}

// registry holds every workload, ordered by num.
var registry []workload

// register adds w to the registry. It panics on a duplicate number or
// name: a programming error found at start-up.
func register(w workload) {
	for _, o := range registry {
		if o.num == w.num || o.name == w.name {
			panic("bench: workload registered twice: " + w.name)
		}
	}
	registry = append(registry, w)
	slices.SortFunc(registry, func(a, b workload) int { return a.num - b.num })
}

// registryNames returns the names of every workload, in order.
func registryNames() []string {
	names := make([]string, len(registry))
	for i, w := range registry {
		names[i] = w.name
	}
	return names
}

// lookupWorkload finds a workload by name or by number.
func lookupWorkload(s string) (workload, bool) {
	for _, w := range registry {
		if w.name == s || strconv.Itoa(w.num) == s {
			return w, true
		}
	}
	return workload{}, false
}
