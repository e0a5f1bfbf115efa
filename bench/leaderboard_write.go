package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/baseline"
)

// Workload 1: leaderboard writes, uniform over many ids and contended on a
// few hot ones. Every variant records a player's result and keeps the
// better one (board.Best and the baselines' own logic), but for plain ZADD and
// the bare EVALSHA, which overwrite: they are the limits, the least any
// write (any scripted write) can cost.
func init() {
	register(workload{num: 1, name: "writes", title: "1. Leaderboard writes", run: runWrites})
}

// The names of the write variants; writeBaseline is what ratios divide by.
const (
	writePacked     = "packed"
	writeSuffix     = "suffix"
	writeWatchMulti = "watch-multi"
	writeCASSpin    = "cas-spin"
	writeZadd       = "zadd"
	writeBaseline   = "bare-evalsha"
)

// writer is one way of writing an entry.
type writer struct {
	name string
	// load writes entries [from, to) with startEntry's values.
	load chunkFunc
	// write records e for id.
	write func(ctx context.Context, id string, e entry) error
	// counters are the writer's events (retries, give-ups).
	counters []counter
	// drop deletes the writer's keys.
	drop func(ctx context.Context) error
}

// newWriters builds every variant of the workload, each on its own keys.
func newWriters(h *harness) ([]*writer, error) {
	name := func(v string) string { return h.cfg.Prefix + "_w1_" + v }
	ws := make([]*writer, 0, 6)
	for _, s := range []board.Strategy{board.PackedScore, board.KeySuffix} {
		w, err := boardWriter(h.client, name(strategyLabel(s)), s)
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	return append(ws, watchMultiWriter(h.client, name("watch-multi")), casSpinWriter(h.client, name("cas-spin")),
		zaddWriter(h.client, name("zadd")), bareWriter(h.client, name("bare"))), nil
}

// boardWriter submits with board.Best.
func boardWriter(c rueidis.Client, name string, s board.Strategy) (*writer, error) {
	b, err := board.New(context.Background(), c, name, benchLayout, board.Options{Strategy: s})
	if err != nil {
		return nil, err
	}
	return &writer{
		name: strategyLabel(s),
		load: func(ctx context.Context, from, to int64) error { return submitChunk(ctx, b, from, to, startEntry) },
		write: func(ctx context.Context, id string, e entry) error {
			_, err := b.Submit(ctx, board.Submission{ID: id, Values: e.values(), Policy: board.Best})
			return err
		},
		drop: b.Drop,
	}, nil
}

// watchMultiWriter is the watch-multi baseline's WATCH/MULTI/EXEC.
func watchMultiWriter(c rueidis.Client, name string) *writer {
	s := newWatchMulti(c, name)
	return &writer{name: writeWatchMulti, load: s.load, write: s.submit,
		counters: []counter{{"retries", &s.retries}},
		drop:     func(ctx context.Context) error { return deleteKeys(ctx, c, s.keys()...) }}
}

// casSpinWriter is the read-then-CAS baseline's client-side read and spun
// compare-and-set.
func casSpinWriter(c rueidis.Client, name string) *writer {
	s := newCASSpin(c, name)
	return &writer{name: writeCASSpin, load: s.load, write: s.submit,
		counters: []counter{{"retries", &s.retries}, {"gave_up", &s.gaveUp}},
		drop:     func(ctx context.Context) error { return deleteKeys(ctx, c, s.keys()...) }}
}

// zaddWriter is a plain ZADD of the packed score: the limit for any write.
func zaddWriter(c rueidis.Client, name string) *writer {
	key := "bench:{" + name + "}:z"
	return &writer{
		name: writeZadd,
		load: negPackedLoader(c, key),
		write: func(ctx context.Context, id string, e entry) error {
			return c.Do(ctx, c.B().Zadd().Key(key).ScoreMember().ScoreMember(-float64(e.packed()), id).Build()).Error()
		},
		drop: func(ctx context.Context) error { return deleteKeys(ctx, c, key) },
	}
}

// bareWriter is the bare EVALSHA: the limit for a scripted write.
func bareWriter(c rueidis.Client, name string) *writer {
	key := []string{"bench:{" + name + "}:z"}
	return &writer{
		name: writeBaseline,
		load: negPackedLoader(c, key[0]),
		write: func(ctx context.Context, id string, e entry) error {
			args := []string{id, strconv.FormatInt(-int64(e.packed()), 10)}
			return baseline.BareSubmit.Exec(ctx, c, key, args).Error()
		},
		drop: func(ctx context.Context) error { return deleteKeys(ctx, c, key[0]) },
	}
}

// negPackedLoader loads startEntry's entries as a packed board stores
// them: score -packed, member id.
func negPackedLoader(c rueidis.Client, key string) chunkFunc {
	return func(ctx context.Context, from, to int64) error {
		return zaddChunk(ctx, c, key, from, to, func(i int64) float64 { return -float64(startEntry(i).packed()) })
	}
}

// writeVariant writes with w to ids drawn uniformly from the first n.
func writeVariant(w *writer, n int) variant {
	return variant{name: w.name, counters: w.counters, op: func(ctx context.Context, seq uint64) error {
		return w.write(ctx, idOf(int64(mix(^seq)%uint64(n))), writeEntry(seq))
	}}
}

// writeCase is an id distribution: writes draw uniformly from ids ids.
type writeCase struct {
	name string
	ids  int
}

// writeCases are the uniform case and the contended one.
func writeCases(c config) []writeCase {
	return []writeCase{{"uniform", c.WriteIDs}, {"hot" + strconv.Itoa(c.HotIDs), c.HotIDs}}
}

// runWrites loads every writer with the same ids, then compares them under
// each id distribution.
func runWrites(ctx context.Context, h *harness) (sec Section, err error) {
	ws, err := newWriters(h)
	if err != nil {
		return sec, err
	}
	defer func() { err = errors.Join(err, dropWriters(context.WithoutCancel(ctx), ws)) }()
	for _, w := range ws {
		label := fmt.Sprintf("writes: loading %s", w.name)
		if _, err := h.loadChunks(ctx, label, int64(h.cfg.WriteIDs), w.load); err != nil {
			return sec, err
		}
	}
	sec = Section{Workload: "writes", Title: "1. Leaderboard writes", Kind: "throughput",
		RatioOf: "throughput / bare EVALSHA (ZSCORE, ZADD, ZRANK) in the same round", Notes: writeNotes(h.cfg)}
	for _, c := range writeCases(h.cfg) {
		if err := compareWrites(ctx, h, &sec, c.name, ws, c.ids); err != nil {
			return sec, err
		}
	}
	return sec, nil
}

// compareWrites measures every writer on one case and adds its rows and
// goals to sec.
func compareWrites(ctx context.Context, h *harness, sec *Section, name string, ws []*writer, n int) error {
	vs := make([]variant, len(ws))
	idx := map[string]int{}
	for i, w := range ws {
		vs[i], idx[w.name] = writeVariant(w, n), i
	}
	ms, err := h.compare(ctx, "writes "+name, vs)
	if err != nil {
		return err
	}
	first := len(sec.Rows)
	for i, w := range ws {
		row := newRow(name, w.name, ms[i])
		row.Ratio, row.Baseline = ratio(ms[i], ms[idx[writeBaseline]], throughput), writeBaseline
		sec.Rows = append(sec.Rows, row)
	}
	at := first + idx[writePacked]
	sec.addGoal(at, newGoal("packed submit >= 0.9x bare EVALSHA ("+name+")", "vs bare", sec.Rows[at].Ratio, 0.9, true))
	if name != "uniform" {
		vsWatch := ratio(ms[idx[writePacked]], ms[idx[writeWatchMulti]], throughput)
		sec.addGoal(at, newGoal("packed submit >= 3x the watch-multi baseline under contention ("+name+")", "vs watch-multi", vsWatch, 3, true))
	}
	return nil
}

// dropWriters deletes every writer's keys.
func dropWriters(ctx context.Context, ws []*writer) error {
	var errs []error
	for _, w := range ws {
		errs = append(errs, w.drop(ctx))
	}
	return errors.Join(errs...)
}

// writeNotes explains the section.
func writeNotes(c config) []string {
	return []string{
		fmt.Sprintf("Every board starts with %d ids at zero points; a write's points grow with the run, so keeping the better result still writes.", c.WriteIDs),
		"packed, suffix: board.Submit with Policy Best. watch-multi: WATCH z m, HGET, ZSCORE, MULTI ZREM ZADD HSET EXEC, retried. cas-spin: ZSCORE, then a compare-and-set script, spun (2s limit). zadd and bare-evalsha overwrite: the limits.",
		"watch-multi WATCHes whole keys, so any two concurrent writes to the board conflict, hot ids or not.",
		"extra: retries (and gave_up) per operation.",
	}
}
