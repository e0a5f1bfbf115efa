package tsid

import (
	"fmt"
	"strconv"
	"sync"
	"time"
)

// DefaultNodeBits is the node width of a Generator whose GeneratorOptions
// leave NodeBits zero: with TSID, 1,024 nodes and 4,096 IDs per millisecond each.
const DefaultNodeBits = 10

// GeneratorOptions configures NewGenerator. The zero value is a TSID
// generator for node 0 with 10 node bits, reading time.Now. Two processes
// that make IDs at the same time need different nodes: with the same
// node they make the same IDs (and a timeline keeps one message per ID).
type GeneratorOptions struct {
	// Layout is the layout of the IDs. Default TSID. The node field takes
	// the highest rest bits and the counter the rest, as in TSID, Twitter's
	// Snowflake and Discord (whose worker and process make one 10-bit node).
	// Sonyflake puts its sequence above its machine id, so a generator
	// for it makes valid, unique, increasing IDs but with the node in the
	// sequence bits.
	Layout *Layout

	// NodeBits is the width of the node field. Default (0)
	// DefaultNodeBits, 10; -1 means no node field, all rest bits counting.
	// Otherwise 1 to RestBits-1, leaving the counter at least 1 bit.
	// Outside [-1, RestBits-1] is refused with ErrOptions.
	NodeBits int

	// Node is this generator's node id, 0 to 2^NodeBits-1 (a larger one is
	// refused with ErrOptions). Default 0.
	// Generators that run at the same time must have different nodes (or
	// different layouts) for their IDs to be unique across them.
	Node uint64

	// Clock returns the current time. Default time.Now. Next calls it
	// outside any lock, so it must be safe for concurrent use.
	Clock func() time.Time
}

// Generator makes IDs that are unique and strictly increasing across all
// goroutines using it: time part, then node, then a counter that starts at
// 0 in each new time unit and counts up within it. It never goes back in
// time: while the clock reads earlier than the last ID (a clock stepped
// back, or one before the epoch or past the layout's last time part once
// an ID was made), it keeps the last time part and counts on; when the
// counter overflows, it moves to the next time unit before the clock does.
// IDs can thus run ahead of the clock by one unit per 2^CounterBits IDs.
// A Generator is safe for concurrent use. One not made by NewGenerator (a
// zero Generator, or nil) refuses Next (ErrArgument).
type Generator struct {
	layout      *Layout
	clock       func() time.Time
	node        uint64
	nodeBits    uint
	counterBits uint
	counterMax  uint64

	mu      sync.Mutex
	started bool   // guarded by mu: last and counter hold a generated ID
	last    uint64 // guarded by mu: time part of the last ID
	counter uint64 // guarded by mu: counter of the last ID
}

// NewGenerator returns a generator configured by o. It refuses, with
// ErrOptions, NodeBits outside [-1, RestBits-1] and a Node outside
// [0, 2^NodeBits-1]; the error names the setting, its value and the range.
func NewGenerator(o GeneratorOptions) (*Generator, error) {
	g := &Generator{layout: o.Layout, clock: o.Clock, node: o.Node}
	if g.layout == nil {
		g.layout = TSID
	}
	if g.clock == nil {
		g.clock = time.Now
	}
	rest := g.layout.RestBits()
	switch nb := o.NodeBits; {
	case nb == 0:
		g.nodeBits = DefaultNodeBits
	case nb == -1:
		g.nodeBits = 0
	case nb > 0:
		g.nodeBits = uint(nb)
	}
	if o.NodeBits < -1 || int(g.nodeBits) >= rest {
		given := strconv.Itoa(o.NodeBits)
		if o.NodeBits == 0 {
			given = fmt.Sprintf("0 (the default, %d)", DefaultNodeBits)
		}
		return nil, fmt.Errorf("tsid: generator for %s: NodeBits = %s out of range [-1, %d] (the layout has %d bits after its time): %w",
			g.layout.Name(), given, rest-1, rest, ErrOptions)
	}
	if o.Node>>g.nodeBits != 0 {
		return nil, fmt.Errorf("tsid: generator for %s: Node = %d out of range [0, %d] (%d node bits): %w",
			g.layout.Name(), o.Node, uint64(1)<<g.nodeBits-1, g.nodeBits, ErrOptions)
	}
	g.counterBits = uint(rest) - g.nodeBits
	g.counterMax = 1<<g.counterBits - 1
	return g, nil
}

// Layout returns the layout of the generator's IDs.
func (g *Generator) Layout() *Layout {
	if g == nil {
		return nil
	}
	return g.layout
}

// Node returns the generator's node id.
func (g *Generator) Node() uint64 {
	if g == nil {
		return 0
	}
	return g.node
}

// NodeBits returns the width of the node field.
func (g *Generator) NodeBits() int {
	if g == nil {
		return 0
	}
	return int(g.nodeBits)
}

// CounterBits returns the width of the counter: RestBits-NodeBits.
func (g *Generator) CounterBits() int {
	if g == nil {
		return 0
	}
	return int(g.counterBits)
}

// unmade refuses a Generator not made by NewGenerator (ErrArgument).
func (g *Generator) unmade() error {
	if g == nil || g.layout == nil {
		return fmt.Errorf("tsid: a Generator not made by NewGenerator (a zero value or nil): %w", ErrArgument)
	}
	return nil
}

// Next returns a new ID, greater than every ID the generator returned
// before. It fails with ErrRange if the first call finds the clock before
// the layout's epoch or past its last time part, or if the time part would
// pass the layout's last one (for TSID, in 2159).
func (g *Generator) Next() (uint64, error) {
	if err := g.unmade(); err != nil {
		return 0, err
	}
	now := g.clock()
	p, clockErr := g.layout.timePart(now)
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case clockErr == nil && (!g.started || p > g.last):
		g.last, g.counter = p, 0
	case !g.started:
		return 0, inputError(g.layout.Name(), "Next", now.Format(time.RFC3339Nano),
			"clock "+clockErr.Error(), ErrRange)
	case g.counter < g.counterMax:
		g.counter++ // same unit, or the clock is behind the last ID
	case g.last < g.layout.MaxTime():
		g.last, g.counter = g.last+1, 0 // counter overflow: borrow the next unit
	default:
		return 0, inputError(g.layout.Name(), "Next", now.Format(time.RFC3339Nano),
			"no time part left after the last one", ErrRange)
	}
	g.started = true
	return g.last<<g.layout.restBits | g.node<<g.counterBits | g.counter, nil
}
