package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// Workload 3: memory per member of each strategy against a plain sorted
// set of the same ids and scores. The boards are loaded one at a time, each
// measured alone and deleted before the next.
func init() {
	register(workload{num: 3, name: "memory", title: "3. Memory per member", run: runMemory})
}

// memorySamples is MEMORY USAGE's SAMPLES: 0 counts every element. A
// sampled estimate (SAMPLES 1000) differed by 7% between two identical
// sorted sets of 20,000 members, as the skiplist levels it samples are
// random: too coarse for a goal of 1.1x.
const memorySamples = 0

// The Extra keys of a memory row, in bytes per member.
const (
	memUsed    = "used_memory_B"
	memDataset = "dataset_B"
	memUsage   = "memory_usage_B"
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

// runMemory measures every variant with cfg.Members entries.
func runMemory(ctx context.Context, h *harness) (Section, error) {
	n := int64(h.cfg.Members)
	sec := Section{Workload: "memory", Title: "3. Memory per member", Kind: "memory",
		RatioOf: "used_memory growth per member / the plain sorted set's", Notes: memoryNotes(n)}
	var plain float64
	for i, v := range memVariants {
		figs, err := measureMemory(ctx, h, v, n)
		if err != nil {
			return sec, err
		}
		if i == 0 {
			plain = figs[memUsed]
		}
		sec.Rows = append(sec.Rows, Row{Case: sizeLabel(n), Variant: v.name, Extra: figs,
			Ratio: safeDiv(figs[memUsed], plain), Baseline: memVariants[0].name})
	}
	sec.addGoal(1, newGoal("packed memory per member <= 1.1x the plain sorted set", "vs plain", sec.Rows[1].Ratio, 1.1, false))
	return sec, nil
}

// measureMemory loads v with n entries and returns its bytes per member:
// growth of used_memory and of used_memory_dataset, and the sum of MEMORY
// USAGE over its keys. The keys are deleted before it returns.
func measureMemory(ctx context.Context, h *harness, v memVariant, n int64) (figs map[string]float64, err error) {
	name := h.cfg.Prefix + "_w3_" + v.name
	used0, data0, err := usedMemory(ctx, h.client)
	if err != nil {
		return nil, err
	}
	keys, err := loadMemVariant(ctx, h, v, name, n)
	defer func() { err = errors.Join(err, deleteKeys(context.WithoutCancel(ctx), h.client, keys...)) }()
	if err != nil {
		return nil, err
	}
	used1, data1, err := usedMemory(ctx, h.client)
	if err != nil {
		return nil, err
	}
	usage, err := memoryUsage(ctx, h, keys)
	per := func(b int64) float64 { return float64(b) / float64(n) }
	return map[string]float64{memUsed: per(used1 - used0), memDataset: per(data1 - data0), memUsage: per(usage)}, err
}

// loadMemVariant writes n entries as v stores them and returns the keys
// written.
func loadMemVariant(ctx context.Context, h *harness, v memVariant, name string, n int64) ([]string, error) {
	label := "memory: loading " + v.name
	if v.plain {
		key := "bench:{" + name + "}:z"
		_, err := h.loadPlain(ctx, label, key, n)
		return []string{key}, err
	}
	b, err := board.New(ctx, h.client, name, benchLayout, v.opts)
	if err != nil {
		return nil, err
	}
	_, err = h.loadBoard(ctx, label, b, n, loadEntry)
	keys, kerr := redisops.ScanKeys(ctx, h.client, "*{"+name+"}*")
	return keys, errors.Join(err, kerr)
}

// memoryUsage sums MEMORY USAGE over keys.
func memoryUsage(ctx context.Context, h *harness, keys []string) (int64, error) {
	var sum int64
	for _, k := range keys {
		n, err := h.client.Do(ctx, h.client.B().MemoryUsage().Key(k).Samples(memorySamples).Build()).AsInt64()
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
		"plain-zset: ZADD id score with the packed board's stored score. suffix adds a HASH id -> member; -dense adds the distinct-tuple index (nearly one entry per member here, as values rarely tie).",
		"Measured on a single Redis node: with a cluster REDIS_URL, INFO would read one node only.",
	}
}
