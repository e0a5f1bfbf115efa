package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/baseline"
)

// Workload 5: a range of 100 exact decimal keys, spread over 20 integer
// parts, with their lists: decimalmap.Range (one read-only script) against
// the two-level decimal index read bucket by bucket (121 round trips). The
// data and the range are those of decimalmap/bench_test.go's
// BenchmarkRange100. Measured twice: at the run's concurrency (throughput)
// and with one caller (latency, which the goal judges).
func init() {
	register(workload{num: 5, name: "decimalmap", title: "5. decimalmap range", run: runDecimalmap})
}

// The data: dmInts integer parts from dmFirstInt, each with dmFracs, three
// values per key. The range reads dmRangeInts integer parts from 25500:
// dmRangeInts * len(dmFracs) = 100 keys.
const (
	dmFirstInt  = 25400
	dmInts      = 200
	dmRangeInts = 20
	dmFrom      = "25500.00001"
	dmTo        = "25519.99999"
)

// dmFracs are the fraction digits of every integer part.
var dmFracs = []string{"1", "12345", "2", "5", "98765"}

// The decimalmap variants; dmBaseline is what ratios divide by.
const (
	dmMap      = "decimalmap"
	dmBaseline = "two-level"
)

// dmQuery is the range: both bounds inclusive.
var dmQuery = decimalmap.Query{Min: decimalmap.Inclusive(dmFrom), Max: decimalmap.Inclusive(dmTo)}

// speedP50 is the inverse of p50 latency: its ratio to a baseline's is
// the baseline's p50 over this one's, how many times faster one call is.
var speedP50 metric = func(m Measurement) float64 { return safeDiv(1, m.P50us) }

// dmData is the workload's two stores of the same keys and values.
type dmData struct {
	m        *decimalmap.Map
	twoLevel baseline.TwoLevelIndex
}

// dmIntParts returns the integer parts of the data, as text.
func dmIntParts() []string {
	out := make([]string, dmInts)
	for i := range out {
		out[i] = strconv.Itoa(dmFirstInt + i)
	}
	return out
}

// dmValues are the values of key (i, j): three, one repeated.
func dmValues(i, j int) []string {
	return []string{"user" + strconv.Itoa(i%7), "user" + strconv.Itoa(j), "user" + strconv.Itoa(i%7)}
}

// load writes every key into both stores, an integer part per goroutine.
func (d *dmData) load(ctx context.Context, h *harness) error {
	h.log.printf("decimalmap: loading %d keys into the map and the two-level index", dmInts*len(dmFracs))
	errs := make([]error, dmInts)
	var wg sync.WaitGroup
	for i, ip := range dmIntParts() {
		wg.Go(func() {
			for j, f := range dmFracs {
				_, err := d.m.Add(ctx, ip+"."+f, dmValues(i, j)...)
				if errs[i] = errors.Join(err, d.twoLevel.Save(ctx, ip, f, dmValues(i, j))); errs[i] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// check makes sure both stores answer the range with the same 100 keys
// and values, so that the variants do the same work.
func (d *dmData) check(ctx context.Context) error {
	want, err := d.twoLevel.Find(ctx, dmFrom, dmTo)
	if err != nil {
		return err
	}
	got, err := d.m.Range(ctx, dmQuery)
	if err != nil {
		return err
	}
	same := slices.EqualFunc(want, got, func(a baseline.Price, b decimalmap.Entry) bool {
		return a.Key == b.Key && slices.Equal(a.Values, b.Values)
	})
	if !same || len(got) != dmRangeInts*len(dmFracs) {
		return fmt.Errorf("decimalmap: the range holds %d keys in the map, %d in the two-level index, or they differ", len(got), len(want))
	}
	return nil
}

// drop deletes both stores.
func (d *dmData) drop(ctx context.Context, h *harness) error {
	return errors.Join(d.m.Drop(ctx), deleteKeys(ctx, h.client, d.twoLevel.Keys(dmIntParts(), dmFracs)...))
}

// variants are the two readers of the range.
func (d *dmData) variants() []variant {
	return []variant{
		{name: dmMap, op: func(ctx context.Context, _ uint64) error {
			_, err := d.m.Range(ctx, dmQuery)
			return err
		}},
		{name: dmBaseline, op: func(ctx context.Context, _ uint64) error {
			_, err := d.twoLevel.Find(ctx, dmFrom, dmTo)
			return err
		}},
	}
}

// runDecimalmap loads both stores, checks them, and compares the readers
// at the run's concurrency and with one caller.
func runDecimalmap(ctx context.Context, h *harness) (sec Section, err error) {
	m, err := decimalmap.New(h.client, h.cfg.Prefix+"_w5_dm", decimalmap.Options{})
	if err != nil {
		return sec, err
	}
	d := &dmData{m: m, twoLevel: baseline.NewTwoLevelIndex(h.client, h.cfg.Prefix+"_w5_twolevel")}
	defer func() { err = errors.Join(err, d.drop(context.WithoutCancel(ctx), h)) }()
	if err := d.load(ctx, h); err != nil {
		return sec, err
	}
	if err := d.check(ctx); err != nil {
		return sec, err
	}
	sec = Section{Workload: "decimalmap", Title: "5. decimalmap range", Kind: "throughput",
		RatioOf: fmt.Sprintf("c%d rows: throughput / the two-level index's; c1 rows: the two-level index's p50 / this p50 (times faster for one caller); in the same round", h.cfg.Concurrency)}
	vs := d.variants()
	concs := []int{h.cfg.Concurrency, 1}
	if h.cfg.Concurrency == 1 {
		concs = concs[1:]
	}
	for _, conc := range concs {
		if err := compareDM(ctx, h, &sec, vs, conc); err != nil {
			return sec, err
		}
	}
	sec.Notes = decimalmapNotes(h.cfg, sec.Rows)
	return sec, nil
}

// compareDM measures both readers on conc goroutines and adds their rows
// to sec; with one caller, the ratio is the speedup and holds the goal.
func compareDM(ctx context.Context, h *harness, sec *Section, vs []variant, conc int) error {
	c := fmt.Sprintf("range100 c%d", conc)
	ms, err := h.compareAt(ctx, "decimalmap "+c, vs, conc)
	if err != nil {
		return err
	}
	f := throughput
	if conc == 1 {
		f = speedP50
	}
	first, base := len(sec.Rows), variantIndex(vs, dmBaseline)
	for i, v := range vs {
		row := newRow(c, v.name, ms[i])
		row.Ratio, row.Baseline = ratio(ms[i], ms[base], f), dmBaseline
		sec.Rows = append(sec.Rows, row)
	}
	if conc == 1 {
		at := first + variantIndex(vs, dmMap)
		sec.addGoal(at, newGoal("decimalmap range of 100 keys >= 5x faster than the two-level decimal index (one caller's p50)", "speedup", sec.Rows[at].Ratio, 5, true))
	}
	return nil
}

// decimalmapNotes explains the section, with the figures of its rows.
func decimalmapNotes(c config, rows []Row) []string {
	notes := []string{
		fmt.Sprintf("%d keys (integer parts %d..%d, fractions %v, three values each) in a decimalmap and in the two-level decimal index; each operation reads [%s, %s]: 100 keys over %d integer parts, with their lists. Both stores answer it alike (checked before measuring).",
			dmInts*len(dmFracs), dmFirstInt, dmFirstInt+dmInts-1, dmFracs, dmFrom, dmTo, dmRangeInts),
		"decimalmap: Range, one read-only script (ZRANGE BYLEX and 100 LRANGE inside it), one round trip. two-level: the index's find(from, to): ZRANGE BYSCORE of the buckets, ZRANGE BYLEX per bucket, LRANGE per key, one after the other: 121 round trips.",
	}
	cN := fmt.Sprintf("range100 c%d", c.Concurrency)
	mapN, twoN, map1, two1 := rowOf(rows, cN, dmMap), rowOf(rows, cN, dmBaseline), rowOf(rows, "range100 c1", dmMap), rowOf(rows, "range100 c1", dmBaseline)
	if c.Concurrency == 1 || mapN == nil || twoN == nil || map1 == nil || two1 == nil {
		return append(notes, "The run's concurrency is 1: the goal's case only.")
	}
	return append(notes, fmt.Sprintf("The 5x goal is judged on one caller's latency (c1, the p50 of a whole range call): decimalmap is %.1fx faster. "+
		"The c%d rows show throughput under %d concurrent callers: %.1fx the two-level index's, a smaller gap. There the two-level index's round trips overlap with the other callers' "+
		"and rueidis pipelines them, so Redis reads and answers many commands per system call: the two-level index's redis CPU per range falls from %.0f µs (c1) to %.0f µs (c%d), "+
		"decimalmap's stays about %.0f µs; what is left is the work per command on the server and the client, not the wait one caller sees, which the goal is about.",
		map1.Ratio, c.Concurrency, c.Concurrency, mapN.Ratio, two1.RedisCPUus, twoN.RedisCPUus, c.Concurrency, mapN.RedisCPUus))
}

// rowOf returns the row of case c and variant v, or nil.
func rowOf(rows []Row, c, v string) *Row {
	for i := range rows {
		if rows[i].Case == c && rows[i].Variant == v {
			return &rows[i]
		}
	}
	return nil
}
