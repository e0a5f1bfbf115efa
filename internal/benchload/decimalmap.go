package benchload

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

// A range of 100 exact decimal keys, spread over 20 integer parts, with
// their lists: decimalmap.Range (one read-only script) against the
// two-level decimal index read bucket by bucket (121 round trips).
// Measured twice: at the run's concurrency (throughput) and with one
// caller (latency, which the goal judges). decimalmap's BenchmarkRange100
// runs it.
func init() {
	register(Workload{
		Num: 5, Name: "decimalmap", Title: "5. decimalmap range",
		RatioOf: "cN rows (N concurrent callers): throughput / the two-level index's; c1 rows: the two-level index's p50 / this p50 (times faster for one caller); in the same round",
		Rows: func(c Config) int {
			if c.Concurrency == 1 {
				return 2
			}
			return 4
		},
		Goals:   func(Config) int { return 1 },
		Prepare: prepareDecimalmap,
	})
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

// The decimalmap variants; DMBaseline is what ratios divide by.
const (
	DMMap      = "decimalmap"
	DMBaseline = "two-level"
)

// dmQuery is the range: both bounds inclusive.
var dmQuery = decimalmap.Query{Min: decimalmap.Inclusive(dmFrom), Max: decimalmap.Inclusive(dmTo)}

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

// prepareDecimalmap loads both stores, checks them, and compares the
// readers at the run's concurrency and with one caller.
func prepareDecimalmap(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	m, err := decimalmap.New(env.Client, env.Prefix+"_w5_dm", decimalmap.Options{})
	if err != nil {
		return nil, err
	}
	d := &dmData{m: m, twoLevel: baseline.NewTwoLevelIndex(env.Client, env.Prefix+"_w5_twolevel")}
	f := &Fixture{Notes: decimalmapNotes(), Drop: func(ctx context.Context) error {
		return errors.Join(d.m.Drop(ctx), dropKeys(ctx, env.Client, d.twoLevel.Keys(dmIntParts(), dmFracs)))
	}}
	if err := d.load(ctx, env); err != nil {
		return f, err
	}
	if err := d.check(ctx); err != nil {
		return f, err
	}
	if cfg.Concurrency > 1 {
		f.Comparisons = append(f.Comparisons, Comparison{Name: "parallel", Case: fmt.Sprintf("range100 c%d", cfg.Concurrency),
			Baseline: DMBaseline, Metric: Throughput, Variants: d.variants()})
	}
	f.Comparisons = append(f.Comparisons, Comparison{Name: "serial", Case: "range100 c1", Baseline: DMBaseline, Metric: SpeedP50, Callers: 1,
		Variants: d.variants(), Goals: []Goal{{Variant: DMMap, Short: "speedup", Target: 5, AtLeast: true,
			Text: "decimalmap range of 100 keys >= 5x faster than the two-level decimal index (one caller's p50)"}}})
	return f, nil
}

// load writes every key into both stores, an integer part per goroutine.
func (d *dmData) load(ctx context.Context, env Env) error {
	env.logf("decimalmap: loading %d keys into the map and the two-level index", dmInts*len(dmFracs))
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

// variants are the two readers of the range.
func (d *dmData) variants() []Variant {
	return []Variant{
		{Name: DMMap, Commands: []string{"multi", "exec"}, Op: func(ctx context.Context) error {
			_, err := d.m.Range(ctx, dmQuery)
			return err
		}},
		{Name: DMBaseline, Commands: []string{"zrange", "lrange"}, Op: func(ctx context.Context) error {
			_, err := d.twoLevel.Find(ctx, dmFrom, dmTo)
			return err
		}},
	}
}

// decimalmapNotes explains the section.
func decimalmapNotes() []string {
	return []string{
		fmt.Sprintf("%d keys (integer parts %d..%d, fractions %v, three values each) in a decimalmap and in the two-level decimal index; each operation reads [%s, %s]: 100 keys over %d integer parts, with their lists. Both stores answer it alike (checked before measuring).",
			dmInts*len(dmFracs), dmFirstInt, dmFirstInt+dmInts-1, dmFracs, dmFrom, dmTo, dmRangeInts),
		"decimalmap: Range, one read-only script (ZRANGE BYLEX and 100 LRANGE inside it), one round trip. two-level: the index's find(from, to): ZRANGE BYSCORE of the buckets, ZRANGE BYLEX per bucket, LRANGE per key, one after the other: 121 round trips.",
		"The 5x goal is judged on one caller's latency (c1 rows); the cN rows show throughput under concurrent callers, a smaller gap (bench/README.md says why).",
	}
}
