package benchload

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/baseline"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// Leaderboard writes, uniform over many ids and contended on a few hot
// ones. Every variant records a player's result and keeps the better one
// (board.Best and the baselines' own logic, and ZADD LT CH, Redis's own
// keep-best, the least any such write can cost), but for the bare EVALSHA,
// which overwrites: the least any scripted write can cost. The uniform
// case is measured again at 64 callers (throughput) and by Redis's CPU per
// write, against ZADD LT CH; and the key-suffix Submit against the packed
// one at 64 callers, on ids already on the board and on new ids. board's
// BenchmarkSubmit, BenchmarkSubmitHot, BenchmarkSubmitNative and
// BenchmarkSubmitSuffix run it.
func init() {
	register(Workload{
		Num: 1, Name: "writes", Title: "1. Leaderboard writes",
		RatioOf: "throughput / bare EVALSHA (ZSCORE, ZADD, ZRANK) in the same round",
		Params: []Param{
			{Name: "ids", Usage: "ids of the uniform write case", Full: "100000", Quick: "10000", Min: 1, Max: 1e8},
			{Name: "hot", Usage: "ids of the contended write case", Full: "100", Quick: "100", Min: 1, Max: 1e8},
		},
		Validate: func(c Config) error {
			if c.Int("hot") > c.Int("ids") {
				return fmt.Errorf("ids %d, hot %d: want hot <= ids", c.Int("ids"), c.Int("hot"))
			}
			return nil
		},
		Rows:    func(Config) int { return 2*len(WriteVariants) + 8 },
		Goals:   func(Config) int { return 7 },
		Prepare: prepareWrites,
	})
}

// The names of the write variants, in order; BareEvalsha is what ratios
// divide by.
const (
	WritePacked     = "packed"
	WriteSuffix     = "suffix"
	WriteWatchMulti = "watch-multi"
	WriteCASSpin    = "cas-spin"
	WriteZadd       = "zadd"
	BareEvalsha     = "bare-evalsha"
)

// WriteVariants are the write variants, in order.
var WriteVariants = []string{WritePacked, WriteSuffix, WriteWatchMulti, WriteCASSpin, WriteZadd, BareEvalsha}

// Writer is one way of writing an entry, on its own keys.
type Writer struct {
	// Name names its row; bench its Go sub-benchmark, if not Name.
	Name, bench string
	// Write records e for id.
	Write func(ctx context.Context, id string, e Entry) error
	// Points reads back the points stored for id (the tests' model check).
	Points func(ctx context.Context, id string) (int64, error)
	// KeepsBest is false for the writers that overwrite (the limits).
	KeepsBest bool
	// load writes entries [from, to) with StartEntry's values.
	load     chunkFunc
	counters []Counter
	// keys are the writer's keys, deleted by drop unless drop is set
	// (a board drops itself).
	keys []string
	drop func(ctx context.Context) error
}

// Writers builds every write variant on env, each on its own keys (not
// loaded), and a function deleting them all.
func Writers(ctx context.Context, env Env) ([]*Writer, func(ctx context.Context) error, error) {
	name := func(v string) string { return env.Prefix + "_w1_" + v }
	c := env.Client
	ws := make([]*Writer, 0, len(WriteVariants))
	for _, s := range []board.Strategy{board.PackedScore, board.KeySuffix} {
		w, err := boardWriter(ctx, c, name(StrategyLabel(s)), s)
		if err != nil {
			return nil, nil, err
		}
		ws = append(ws, w)
	}
	ws = append(ws, watchMultiWriter(c, name(WriteWatchMulti)), casSpinWriter(c, name(WriteCASSpin)),
		zaddWriter(c, name(WriteZadd)), bareWriter(c, name("bare")))
	drop := func(ctx context.Context) error {
		var errs []error
		for _, w := range ws {
			if w.drop != nil {
				errs = append(errs, w.drop(ctx))
			} else {
				errs = append(errs, dropKeys(ctx, c, w.keys))
			}
		}
		return errors.Join(errs...)
	}
	return ws, drop, nil
}

// boardWriter submits with board.Best.
func boardWriter(ctx context.Context, c rueidis.Client, name string, s board.Strategy) (*Writer, error) {
	b, err := board.New(ctx, c, name, Layout, board.Options{Strategy: s})
	if err != nil {
		return nil, err
	}
	return &Writer{
		Name: StrategyLabel(s), bench: s.String(), KeepsBest: true,
		load: func(ctx context.Context, from, to int64) error { return submitChunk(ctx, b, from, to, StartEntry) },
		Write: func(ctx context.Context, id string, e Entry) error {
			_, err := b.Submit(ctx, board.Submission{ID: id, Values: e.Values(), Policy: board.Best})
			return err
		},
		Points: func(ctx context.Context, id string) (int64, error) {
			e, err := b.Get(ctx, id)
			return int64(e.Values[0]), err
		},
		drop: b.Drop,
	}, nil
}

// watchMultiWriter is the watch-multi baseline's WATCH/MULTI/EXEC.
func watchMultiWriter(c rueidis.Client, name string) *Writer {
	s := baseline.NewWatchMulti(c, name)
	return &Writer{
		Name: WriteWatchMulti, KeepsBest: true, keys: s.Keys(),
		counters: []Counter{{"retries", &s.Retries}},
		load: func(ctx context.Context, from, to int64) error {
			var ids []string
			var points []int64
			var rests []uint64
			for i := from; i < to; i++ {
				ids, points, rests = append(ids, IDOf(i)), append(points, 0), append(rests, StartEntry(i).Rest())
			}
			return s.Seed(ctx, ids, points, rests)
		},
		Write: func(ctx context.Context, id string, e Entry) error { return s.Submit(ctx, id, e.Points, e.Rest()) },
		Points: func(ctx context.Context, id string) (int64, error) {
			m, err := c.Do(ctx, c.B().Hget().Key(s.M).Field(id).Build()).ToString()
			if err != nil {
				return 0, err
			}
			p, err := c.Do(ctx, c.B().Zscore().Key(s.Z).Member(m).Build()).AsFloat64()
			return int64(p), err
		},
	}
}

// casSpinWriter is the read-then-CAS baseline's client-side read and spun
// compare-and-set.
func casSpinWriter(c rueidis.Client, name string) *Writer {
	s := baseline.NewCASSpin(c, name)
	return &Writer{
		Name: WriteCASSpin, KeepsBest: true, keys: s.Keys(),
		counters: []Counter{{"retries", &s.Retries}, {"gave_up", &s.GaveUp}},
		load: func(ctx context.Context, from, to int64) error {
			return zaddChunk(ctx, c, s.Z, from, to, func(i int64) float64 { return float64(StartEntry(i).Packed()) })
		},
		Write:  func(ctx context.Context, id string, e Entry) error { return s.Submit(ctx, id, e.Packed()) },
		Points: zsetPoints(c, s.Z, 1),
	}
}

// zaddWriter is ZADD LT CH of the negated packed score, Redis's own
// keep-best: the limit for a best-policy write.
func zaddWriter(c rueidis.Client, name string) *Writer {
	key := "bench:{" + name + "}:z"
	return &Writer{
		Name: WriteZadd, keys: []string{key}, load: negPackedLoader(c, key), Points: zsetPoints(c, key, -1),
		Write: func(ctx context.Context, id string, e Entry) error {
			return c.Do(ctx, c.B().Zadd().Key(key).Lt().Ch().ScoreMember().ScoreMember(-float64(e.Packed()), id).Build()).Error()
		},
	}
}

// bareWriter is the bare EVALSHA: the limit for a scripted write.
func bareWriter(c rueidis.Client, name string) *Writer {
	key := []string{"bench:{" + name + "}:z"}
	return &Writer{
		Name: BareEvalsha, keys: key, load: negPackedLoader(c, key[0]), Points: zsetPoints(c, key[0], -1),
		Write: func(ctx context.Context, id string, e Entry) error {
			args := []string{id, strconv.FormatInt(-int64(e.Packed()), 10)}
			return baseline.BareSubmit.Exec(ctx, c, key, args).Error()
		},
	}
}

// negPackedLoader loads StartEntry's entries as a packed board stores
// them: score -packed, member id.
func negPackedLoader(c rueidis.Client, key string) chunkFunc {
	return func(ctx context.Context, from, to int64) error {
		return zaddChunk(ctx, c, key, from, to, func(i int64) float64 { return -float64(StartEntry(i).Packed()) })
	}
}

// zsetPoints reads an id's points from a sorted set of packed scores
// (times sign).
func zsetPoints(c rueidis.Client, key string, sign float64) func(ctx context.Context, id string) (int64, error) {
	return func(ctx context.Context, id string) (int64, error) {
		s, err := c.Do(ctx, c.B().Zscore().Key(key).Member(id).Build()).AsFloat64()
		return PointsOf(uint64(sign * s)), err
	}
}

// Load writes entries [0, n) of w with StartEntry's values.
func (w *Writer) Load(ctx context.Context, env Env, n int64) error {
	_, err := loadChunks(ctx, env, "writes: loading "+w.Name, n, w.load)
	return err
}

// prepareWrites loads every writer with the same ids, and compares them
// under each id distribution.
func prepareWrites(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	ws, drop, err := Writers(ctx, env)
	if err != nil {
		return nil, err
	}
	f := &Fixture{Drop: drop, Notes: writeNotes(cfg)}
	for _, w := range ws {
		if err := w.Load(ctx, env, int64(cfg.Int("ids"))); err != nil {
			return f, err
		}
	}
	var s seq
	for _, c := range []struct {
		name string
		ids  int
	}{{"uniform", cfg.Int("ids")}, {"hot" + strconv.Itoa(cfg.Int("hot")), cfg.Int("hot")}} {
		f.Comparisons = append(f.Comparisons, writeComparison(c.name, ws, c.ids, &s))
	}
	f.Comparisons = append(f.Comparisons, nativeComparisons(ws, cfg.Int("ids"), &s)...)
	f.Comparisons = append(f.Comparisons, suffixComparisons(ws, cfg.Int("ids"), &s)...)
	return f, nil
}

// suffixComparisons hold the key-suffix Submit (Best) to the packed one at
// 64 callers, in throughput: on the uniform ids (each already on the
// board) and on new ids (none on the board yet: each write adds one).
func suffixComparisons(ws []*Writer, n int, s *seq) []Comparison {
	var out []Comparison
	for _, c := range []struct {
		name, text string
		id         func(q uint64) string
	}{
		{"suffix-c64", "ids on the board", func(q uint64) string { return IDOf(int64(pick(^q, n))) }},
		{"suffix-new-c64", "new ids", func(q uint64) string { return IDOf(int64(n) + int64(q)) }},
	} {
		var vs []Variant
		for _, w := range ws {
			if w.Name == WritePacked || w.Name == WriteSuffix {
				vs = append(vs, Variant{Name: w.Name, Bench: w.bench, Commands: writeCommands[w.Name],
					Op: func(ctx context.Context) error {
						q := s.next()
						return w.Write(ctx, c.id(q), WriteEntry(q))
					}})
			}
		}
		out = append(out, Comparison{Name: c.name, Case: strings.TrimSuffix(c.name, "-c64") + " c64", Baseline: WritePacked, Metric: Throughput, Callers: 64, Variants: vs,
			Goals: []Goal{{Variant: WriteSuffix, Short: "vs packed", Target: 0.7, AtLeast: true,
				Text: "key-suffix submit (Best) >= 0.7x the throughput of packed at 64 callers (" + c.text + ")"}}})
	}
	return out
}

// nativeComparisons hold the packed Submit (Best) to Redis's own
// keep-best, ZADD LT CH, on uniform ids: its throughput at 64 callers, and
// the Redis CPU it costs per write.
func nativeComparisons(ws []*Writer, n int, s *seq) []Comparison {
	var vs []Variant
	for _, v := range writeComparison("", ws, n, s).Variants {
		if v.Name == WritePacked || v.Name == WriteZadd {
			vs = append(vs, v)
		}
	}
	return []Comparison{
		{Name: "uniform-c64", Case: "uniform c64", Baseline: WriteZadd, Metric: Throughput, Callers: 64, Variants: vs,
			Goals: []Goal{{Variant: WritePacked, Short: "vs ZADD LT", Target: 0.8, AtLeast: true,
				Text: "packed submit (Best) >= 0.8x the throughput of ZADD LT CH at 64 callers"}}},
		{Name: "uniform-cpu", Case: "uniform redis-cpu", Baseline: WriteZadd, Metric: RedisCPU, Variants: vs,
			Goals: []Goal{{Variant: WritePacked, Short: "cpu vs ZADD LT", Target: 1.6,
				Text: "packed submit (Best) costs Redis <= 1.6x the CPU of ZADD LT CH per write"}}},
	}
}

// writeCommands are the commands each writer sends (commandstats names).
// The read-then-CAS baseline has none: its script's ZSCORE is counted
// again as a ZSCORE, like its own.
var writeCommands = map[string][]string{
	WritePacked: {"multi", "exec"}, WriteSuffix: {"evalsha"}, BareEvalsha: {"evalsha"}, WriteZadd: {"zadd"},
	WriteWatchMulti: {"watch", "hget", "zscore", "unwatch", "multi", "exec"},
}

// writeComparison writes with every writer to ids drawn uniformly from
// the first n, and holds packed to its goals.
func writeComparison(name string, ws []*Writer, n int, s *seq) Comparison {
	c := Comparison{Name: name, Case: name, Baseline: BareEvalsha, Metric: Throughput}
	for _, w := range ws {
		c.Variants = append(c.Variants, Variant{Name: w.Name, Bench: w.bench, Counters: w.counters, Commands: writeCommands[w.Name],
			Op: func(ctx context.Context) error {
				q := s.next()
				return w.Write(ctx, IDOf(int64(pick(^q, n))), WriteEntry(q))
			}})
	}
	c.Goals = []Goal{{Variant: WritePacked, Text: "packed submit >= 0.9x bare EVALSHA (" + name + ")", Short: "vs bare", Target: 0.9, AtLeast: true}}
	if name != "uniform" {
		c.Goals = append(c.Goals, Goal{Variant: WritePacked, Against: WriteWatchMulti, Short: "vs watch-multi", Target: 3, AtLeast: true,
			Text: "packed submit >= 3x the watch-multi baseline under contention (" + name + ")"})
	}
	return c
}

// dropKeys deletes keys, if any.
func dropKeys(ctx context.Context, c rueidis.Client, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	return redisops.Unlink(ctx, c, keys...)
}

// writeNotes explains the section.
func writeNotes(c Config) []string {
	return []string{
		fmt.Sprintf("Every board starts with %d ids at zero points; a write's points grow with the run, so keeping the better result still writes.", c.Int("ids")),
		"packed, suffix: board.Submit with Policy Best (packed: MULTI, ZADD LT CH, ZRANK WITHSCORE, EXEC on Redis and Valkey 7.2+, ZSCORE and ZRANK on 7.0; suffix: submitlean.lua; under load both batch concurrent callers' writes, packed up to 64 in a MULTI/EXEC, suffix up to 64 in one script call). watch-multi: WATCH z m, HGET, ZSCORE, MULTI ZREM ZADD HSET EXEC, retried. cas-spin: ZSCORE, then a compare-and-set script, spun (2s limit). zadd: ZADD LT CH, Redis's own keep-best. bare-evalsha overwrites. zadd and bare-evalsha are the limits.",
		"watch-multi WATCHes whole keys, so any two concurrent writes to the board conflict, hot ids or not.",
		"extra: retries (and gave_up) per operation.",
	}
}

// StrategyLabel is the short name of a strategy in tables and charts.
func StrategyLabel(s board.Strategy) string {
	if s == board.KeySuffix {
		return "suffix"
	}
	return "packed"
}
