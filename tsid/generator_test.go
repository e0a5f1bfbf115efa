package tsid

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeClock is a settable clock, safe for concurrent use.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func newGen(t *testing.T, o GeneratorOptions) *Generator {
	t.Helper()
	g, err := NewGenerator(o)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func next(t *testing.T, g *Generator) uint64 {
	t.Helper()
	id, err := g.Next()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestGeneratorConcurrent(t *testing.T) {
	const workers, perWorker = 8, 20000
	g := newGen(t, GeneratorOptions{Node: 7})
	ids := make([][]uint64, workers)
	var wg sync.WaitGroup
	for w := range ids {
		wg.Go(func() {
			for range perWorker {
				id, err := g.Next()
				if err != nil {
					t.Error(err)
					return
				}
				ids[w] = append(ids[w], id)
			}
		})
	}
	wg.Wait()
	seen := make(map[uint64]bool, workers*perWorker)
	for w, list := range ids {
		if len(list) != perWorker {
			t.Fatalf("worker %d made %d ids, want %d", w, len(list), perWorker)
		}
		for i, id := range list {
			if i > 0 && id <= list[i-1] {
				t.Fatalf("worker %d: id %d = %d not above id %d = %d", w, i, id, i-1, list[i-1])
			}
			if seen[id] {
				t.Fatalf("worker %d: duplicate id %d", w, id)
			}
			seen[id] = true
			if node, _ := TSID.Field(id, "node"); node != 7 {
				t.Fatalf("id %d has node %d, want 7", id, node)
			}
		}
	}
}

func TestGeneratorClockStepsBack(t *testing.T) {
	base := TSIDEpoch.Add(1000 * time.Millisecond)
	clock := &fakeClock{now: base}
	g := newGen(t, GeneratorOptions{Node: 3, Clock: clock.Now})
	type part struct{ Time, Node, Counter uint64 }
	var got []part
	step := func(at time.Time, n int) {
		clock.Set(at)
		for range n {
			id := next(t, g)
			p, rest, _ := TSID.Parts(id)
			got = append(got, part{p, rest >> 12, rest & 4095})
		}
	}
	step(base, 2)                            // 1000/0, 1000/1
	step(base.Add(-500*time.Millisecond), 2) // clock back: stay at 1000
	step(base.Add(-time.Hour), 1)            // further back
	step(TSIDEpoch.Add(-time.Hour), 1)       // before the epoch: still counts on
	step(base, 1)                            // caught up to the same ms: counts on
	step(base.Add(time.Millisecond), 1)      // a new ms: counter restarts
	want := []part{{1000, 3, 0}, {1000, 3, 1}, {1000, 3, 2}, {1000, 3, 3}, {1000, 3, 4}, {1000, 3, 5}, {1000, 3, 6}, {1001, 3, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
}

func TestGeneratorCounterOverflow(t *testing.T) {
	at := TSIDEpoch.Add(5 * time.Millisecond)
	g := newGen(t, GeneratorOptions{NodeBits: 12, Node: 4095, Clock: func() time.Time { return at }})
	if g.CounterBits() != 10 || g.NodeBits() != 12 || g.Node() != 4095 || g.Layout() != TSID {
		t.Fatalf("generator: counter %d bits, node %d bits, node %d", g.CounterBits(), g.NodeBits(), g.Node())
	}
	ids := make([]uint64, 3*1024+1)
	for i := range ids {
		ids[i] = next(t, g)
	}
	if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Fatal("ids not strictly increasing")
	}
	rows := []uint64{ids[0], ids[1023], ids[1024], ids[2047], ids[2048], ids[3072]}
	want := []uint64{5<<22 | 4095<<10, 5<<22 | 4095<<10 | 1023, 6<<22 | 4095<<10, 6<<22 | 4095<<10 | 1023,
		7<<22 | 4095<<10, 8<<22 | 4095<<10}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("ids at 0, 1023, 1024, 2047, 2048, 3072 (-want +got):\n%s", diff)
	}
}

func TestGeneratorExhausted(t *testing.T) {
	l, err := NewLayoutSpec(LayoutSpec{Name: "small", TimeBits: 2, RestBits: 3})
	if err != nil {
		t.Fatal(err)
	}
	g := newGen(t, GeneratorOptions{Layout: l, NodeBits: -1, Clock: func() time.Time { return time.UnixMilli(1) }})
	var ids []uint64
	for range 3 * 8 {
		ids = append(ids, next(t, g))
	}
	want := make([]uint64, 0, 24)
	for id := uint64(8); id < 32; id++ {
		want = append(want, id)
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if id, err := g.Next(); !errors.Is(err, ErrRange) {
		t.Errorf("Next after the last time part = %d, %v; want ErrRange", id, err)
	}
}

func TestGeneratorRefusals(t *testing.T) {
	cases := map[string]struct {
		o    GeneratorOptions
		want error
	}{
		"node bits = rest": {GeneratorOptions{NodeBits: 22}, ErrOptions},
		"node bits < -1":   {GeneratorOptions{NodeBits: -2}, ErrOptions},
		"node too big":     {GeneratorOptions{Node: 1024}, ErrOptions},
		"node with none":   {GeneratorOptions{NodeBits: -1, Node: 1}, ErrOptions},
		"node 21 bits":     {GeneratorOptions{NodeBits: 21, Node: 1 << 21}, ErrOptions},
	}
	for name, c := range cases {
		if g, err := NewGenerator(c.o); !errors.Is(err, c.want) {
			t.Errorf("%s: NewGenerator(%+v) = %v, %v; want %v", name, c.o, g, err, c.want)
		}
	}
	if _, err := NewGenerator(GeneratorOptions{NodeBits: 21, Node: 1<<21 - 1}); err != nil {
		t.Errorf("21 node bits, node 2^21-1: %v", err)
	}
	early := newGen(t, GeneratorOptions{Clock: func() time.Time { return TSIDEpoch.Add(-time.Millisecond) }})
	if id, err := early.Next(); !errors.Is(err, ErrRange) {
		t.Errorf("first Next before the epoch = %d, %v; want ErrRange", id, err)
	}
}

func TestGeneratorDefaults(t *testing.T) {
	before := time.Now()
	g := newGen(t, GeneratorOptions{})
	id := next(t, g)
	after := time.Now()
	got := TSID.Time(id)
	if got.Before(before.Truncate(time.Millisecond)) || got.After(after) {
		t.Errorf("default clock: id time %v not within [%v, %v]", got, before, after)
	}
	if g.NodeBits() != DefaultNodeBits || g.CounterBits() != 12 {
		t.Errorf("defaults: %d node bits, %d counter bits; want 10, 12", g.NodeBits(), g.CounterBits())
	}
}
