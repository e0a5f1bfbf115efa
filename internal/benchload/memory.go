package benchload

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// Memory per member of each strategy against a plain sorted set of the
// same ids and scores. The variants are loaded one at a time, each
// measured alone and deleted before the next: the figures are made while
// preparing, and there is nothing to compare in rounds.
func init() {
	register(Workload{
		Num: 3, Name: "memory", Title: "3. Memory per member",
		RatioOf: "used_memory growth per member / the plain sorted set's",
		Params:  []Param{{Name: "members", Usage: "entries per board in the memory workload", Full: "1000000", Quick: "30000", Min: 1, Max: 1e9}},
		Rows:    func(Config) int { return len(memVariants) },
		Goals:   func(Config) int { return 2 },
		Prepare: prepareMemory,
	})
}

// memorySamples is MEMORY USAGE's SAMPLES: 0 counts every element. A
// sampled estimate (SAMPLES 1000) differed by 7% between two identical
// sorted sets of 20,000 members, as the skiplist levels it samples are
// random: too coarse for a goal of 1.1x.
const memorySamples = 0

// The figures of a memory row, in bytes per member.
const (
	MemUsed    = "used_memory_B"
	MemDataset = "dataset_B"
	MemUsage   = "memory_usage_B"
)

// memVariant is one way of storing the same entries.
type memVariant struct {
	name  string
	plain bool // a plain sorted set (ZADD id score), the baseline
	opts  board.Options
}

// memVariants are measured in this order; the first is the baseline.
var memVariants = []memVariant{
	{name: "plain-zset", plain: true},
	{name: "packed", opts: board.Options{Strategy: board.PackedScore}},
	{name: "suffix", opts: board.Options{Strategy: board.KeySuffix}},
	{name: "packed-dense", opts: board.Options{Strategy: board.PackedScore, DenseRanks: true}},
	{name: "suffix-dense", opts: board.Options{Strategy: board.KeySuffix, DenseRanks: true}},
}

// prepareMemory measures every variant with the members setting.
func prepareMemory(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	n := int64(cfg.Int("members"))
	f := &Fixture{Notes: memoryNotes(n), Drop: func(context.Context) error { return nil }}
	var plain float64
	for i, v := range memVariants {
		figs, err := measureMemory(ctx, env, v, n)
		if err != nil {
			return f, err
		}
		if i == 0 {
			plain = figs[MemUsed]
		}
		f.Memory = append(f.Memory, MemoryRow{Case: SizeLabel(n), Variant: v.name, Baseline: memVariants[0].name, Per: "member",
			Figures: figs, Ratio: safeDiv(figs[MemUsed], plain)})
	}
	f.Memory[1].Goals = []Goal{{Variant: "packed", Text: "packed memory per member <= 1.1x the plain sorted set", Short: "vs plain", Target: 1.1}}
	f.Memory[2].Goals = []Goal{{Variant: "suffix", Text: "key-suffix memory per member <= 1.4x the plain sorted set", Short: "vs plain", Target: 1.4}}
	return f, nil
}

// measureMemory loads v with n entries and returns its bytes per member:
// growth of used_memory and of used_memory_dataset, and the sum of MEMORY
// USAGE over its keys. The keys are deleted before it returns.
func measureMemory(ctx context.Context, env Env, v memVariant, n int64) (figs map[string]float64, err error) {
	name := env.Prefix + "_w3_" + v.name
	used0, data0, err := usedMemory(ctx, env)
	if err != nil {
		return nil, err
	}
	keys, err := loadMemVariant(ctx, env, v, name, n)
	defer func() { err = errors.Join(err, dropKeys(context.WithoutCancel(ctx), env.Client, keys)) }()
	if err != nil {
		return nil, err
	}
	used1, data1, err := usedMemory(ctx, env)
	if err != nil {
		return nil, err
	}
	usage, err := memoryUsage(ctx, env, keys)
	per := func(b int64) float64 { return float64(b) / float64(n) }
	return map[string]float64{MemUsed: per(used1 - used0), MemDataset: per(data1 - data0), MemUsage: per(usage)}, err
}

// loadMemVariant writes n entries as v stores them and returns the keys
// written: the plain set gets the same ids and the same stored scores as
// a packed board (ZADD key -packed id).
func loadMemVariant(ctx context.Context, env Env, v memVariant, name string, n int64) ([]string, error) {
	label := "memory: loading " + v.name
	if v.plain {
		key := "bench:{" + name + "}:z"
		score := func(i int64) float64 { return -float64(LoadEntry(i).Packed()) }
		_, err := loadChunks(ctx, env, label, n, func(ctx context.Context, from, to int64) error {
			return zaddChunk(ctx, env.Client, key, from, to, score)
		})
		return []string{key}, err
	}
	b, err := board.New(ctx, env.Client, name, Layout, v.opts)
	if err != nil {
		return nil, err
	}
	_, err = loadBoard(ctx, env, label, b, n, LoadEntry)
	keys, kerr := redisops.ScanKeys(ctx, env.Client, "*{"+name+"}*")
	return keys, errors.Join(err, kerr)
}

// safeDiv returns a / b, or 0 when b is not positive.
func safeDiv(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// usedMemory returns INFO memory's used_memory and used_memory_dataset, in
// bytes, once the server has no objects left to free in the background.
func usedMemory(ctx context.Context, env Env) (used, dataset int64, err error) {
	for {
		m, err := redisops.Info(ctx, env.Client, "memory")
		if err != nil {
			return 0, 0, err
		}
		if m["lazyfree_pending_objects"] == "0" || m["lazyfree_pending_objects"] == "" {
			used, err1 := strconv.ParseInt(m["used_memory"], 10, 64)
			dataset, err2 := strconv.ParseInt(m["used_memory_dataset"], 10, 64)
			return used, dataset, errors.Join(err1, err2)
		}
		select {
		case <-ctx.Done():
			return 0, 0, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// memoryUsage sums MEMORY USAGE over keys.
func memoryUsage(ctx context.Context, env Env, keys []string) (int64, error) {
	c := env.Client
	var sum int64
	for _, k := range keys {
		n, err := c.Do(ctx, c.B().MemoryUsage().Key(k).Samples(memorySamples).Build()).AsInt64()
		if err != nil {
			return 0, fmt.Errorf("MEMORY USAGE %s: %w", k, err)
		}
		sum += n
	}
	return sum, nil
}

// memoryNotes explains the section.
func memoryNotes(n int64) []string {
	return []string{
		fmt.Sprintf("Each variant holds the same %d ids with the same values, loaded alone into the server, measured, and deleted.", n),
		"used_memory_B: growth of INFO used_memory per member (the goal's figure). dataset_B: growth of used_memory_dataset. memory_usage_B: MEMORY USAGE (SAMPLES 0: every element) summed over the variant's keys.",
		"plain-zset: ZADD id score with the packed board's stored score. suffix stores a prefix of the other fields before each id, and its id lookup: the ids with their prefixes in HASH buckets of about 8 ids each; -dense adds the distinct-tuple index (nearly one entry per member here, as values rarely tie).",
		"Measured on a single Redis node: with a cluster REDIS_URL, INFO would read one node only.",
	}
}
