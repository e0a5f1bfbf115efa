package benchload

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// What a read costs Redis against the bare commands a minimal reader sends
// for the same answer, on the same board, in the same rounds: Top(10)
// against ZRANGE 0 9 WITHSCORES, Around(id, 11) against ZRANK then
// ZRANGE, Get against ZRANK ... WITHSCORE (ZSCORE and ZRANK in a
// MULTI/EXEC where the engine lacks the form: a score and a rank of one
// moment, as Get's), Rank against ZRANK. The bare reader decodes each
// reply into the answer (members and scores, a rank), as any reader that
// uses it must; it does not unpack scores into fields.
// The bare reader is handed each entry's stored member, so it makes no
// lookup; the library finds it from the id. A peer such as redis-rank
// reads with these very commands (or a script of them), so the bare
// figures are the peers' too. board's BenchmarkReadCost runs it.
func init() {
	register(Workload{
		Num: 10, Name: "readcost", Title: "10. Read cost against bare commands",
		RatioOf: "Redis CPU per read / the bare commands' Redis CPU per read, in the same round",
		Params: []Param{{Name: "readcost-board", Usage: "entries of the readcost workload's boards",
			Full: "1e5", Quick: "1e4", Min: 1000, Max: 1e8}},
		Rows:    func(Config) int { return 2 * len(rcCallers) * (2*len(costReads) + 1) },
		Goals:   func(Config) int { return 2 * len(rcCallers) * len(costReads) },
		Prepare: prepareReadCost,
	})
}

// RCBare names the bare commands' variant of every readcost comparison.
const RCBare = "bare"

// rcNoise is how far apart two runs of the very same command land in one
// round on the bench machine (top10 and a packed rank are that: 1.000 to
// 1.023 in the runs of 2026-11-26): the goals' 1.0x is judged within it.
const rcNoise = 0.03

// costBoard is one loaded board of the workload, with its ids and stored
// members in rank order.
type costBoard struct {
	b       *board.Board
	z       string // the board's sorted set
	ids     []string
	members []string
	// withScore: the engine takes ZRANK ... WITHSCORE (Redis and Valkey
	// 7.2+), the bare get's one command for a score and a rank of one
	// moment; without it, the bare get is ZSCORE and ZRANK in a
	// MULTI/EXEC.
	withScore bool
	// lookup, on a key-suffix board, is the bare reader's HASH id ->
	// stored member: what a hand-written key-suffix board keeps to find
	// an id's member ("" on a packed board, whose members are the ids).
	lookup string
}

// member is the bare reader's first step: the stored member of entry i,
// found from its id as a hand-written board would (an HGET on a key-suffix
// board; nothing on a packed one).
func (cb *costBoard) member(ctx context.Context, c rueidis.Client, i int) (string, error) {
	if cb.lookup == "" {
		return cb.members[i], nil
	}
	return c.Do(ctx, c.B().Hget().Key(cb.lookup).Field(cb.ids[i]).Build()).ToString()
}

// costRead is one read measured: the library's and the bare commands'.
type costRead struct {
	name        string
	lib         func(ctx context.Context, cb *costBoard, i int) error
	bare        func(ctx context.Context, c rueidis.Client, cb *costBoard, i int) error
	libCommands []string
	bareCmds    []string
	// pair, when not nil, is a weaker bare read measured beside: for get,
	// ZSCORE and ZRANK pipelined, which other clients' commands may come
	// between (not one snapshot); no goal divides by it.
	pair func(ctx context.Context, c rueidis.Client, cb *costBoard, i int) error
}

// RCPair names the variant of a costRead's pair.
const RCPair = "bare-pair"

// costReads are the reads of the workload, in table order.
var costReads = []costRead{
	{name: "top10",
		lib: func(ctx context.Context, cb *costBoard, _ int) error { _, err := cb.b.Top(ctx, 10); return err },
		bare: func(ctx context.Context, c rueidis.Client, cb *costBoard, _ int) error {
			_, err := c.Do(ctx, c.B().Zrange().Key(cb.z).Min("0").Max("9").Withscores().Build()).AsZScores()
			return err
		},
		libCommands: []string{"zrange"}, bareCmds: []string{"zrange"}},
	{name: "around11",
		lib: func(ctx context.Context, cb *costBoard, i int) error {
			_, err := cb.b.Around(ctx, cb.ids[i], 11)
			return err
		},
		bare: func(ctx context.Context, c rueidis.Client, cb *costBoard, i int) error {
			m, err := cb.member(ctx, c, i)
			if err != nil {
				return err
			}
			r, err := c.Do(ctx, c.B().Zrank().Key(cb.z).Member(m).Build()).AsInt64()
			if err != nil {
				return err
			}
			start := max(r-5, 0)
			_, err = c.Do(ctx, c.B().Zrange().Key(cb.z).Min(strconv.FormatInt(start, 10)).Max(strconv.FormatInt(start+10, 10)).Withscores().Build()).AsZScores()
			return err
		},
		libCommands: []string{"hget", "zrank", "zrange", "evalsha"}, bareCmds: []string{"hget", "zrank", "zrange"}},
	{name: "get",
		lib: func(ctx context.Context, cb *costBoard, i int) error { _, err := cb.b.Get(ctx, cb.ids[i]); return err },
		bare: func(ctx context.Context, c rueidis.Client, cb *costBoard, i int) error {
			m, err := cb.member(ctx, c, i)
			if err != nil {
				return err
			}
			if cb.withScore {
				vs, err := c.Do(ctx, c.B().Zrank().Key(cb.z).Member(m).Withscore().Build()).ToArray()
				return rankAndScore(vs, err, 0)
			}
			rs := c.DoMulti(ctx, c.B().Multi().Build(), c.B().Zscore().Key(cb.z).Member(m).Build(),
				c.B().Zrank().Key(cb.z).Member(m).Build(), c.B().Exec().Build())
			if err := redisops.FirstErr(rs); err != nil {
				return err
			}
			vs, err := rs[3].ToArray()
			return rankAndScore(vs, err, 1)
		},
		pair: func(ctx context.Context, c rueidis.Client, cb *costBoard, i int) error {
			m, err := cb.member(ctx, c, i)
			if err != nil {
				return err
			}
			rs := c.DoMulti(ctx, c.B().Zscore().Key(cb.z).Member(m).Build(), c.B().Zrank().Key(cb.z).Member(m).Build())
			if _, err := rs[0].AsFloat64(); err != nil {
				return err
			}
			_, err = rs[1].AsInt64()
			return err
		},
		libCommands: []string{"hget", "evalsha", "multi", "zscore", "zrank", "exec"}, bareCmds: []string{"hget", "zscore", "zrank", "multi", "exec"}},
	{name: "rank",
		lib: func(ctx context.Context, cb *costBoard, i int) error {
			_, err := cb.b.Rank(ctx, cb.ids[i], board.Ordinal)
			return err
		},
		bare: func(ctx context.Context, c rueidis.Client, cb *costBoard, i int) error {
			m, err := cb.member(ctx, c, i)
			if err != nil {
				return err
			}
			_, err = c.Do(ctx, c.B().Zrank().Key(cb.z).Member(m).Build()).AsInt64()
			return err
		},
		libCommands: []string{"hget", "zrank", "evalsha"}, bareCmds: []string{"hget", "zrank"}},
}

// rankAndScore decodes a rank and a score, as the bare get uses them:
// the reply of ZRANK ... WITHSCORE (rank at 0, score at 1), or the EXEC
// of ZSCORE and ZRANK (rank at 1, score at 0).
func rankAndScore(vs []rueidis.RedisMessage, err error, rank int) error {
	if err != nil {
		return err
	}
	if len(vs) != 2 {
		return fmt.Errorf("readcost: a rank and a score in %d values", len(vs))
	}
	if _, err := vs[rank].AsInt64(); err != nil {
		return err
	}
	_, err = vs[1-rank].AsFloat64()
	return err
}

// prepareReadCost loads a board per strategy and compares each read with
// its bare commands.
func prepareReadCost(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	size := int64(cfg.Int("readcost-board"))
	var cbs []*costBoard
	f := &Fixture{Drop: func(ctx context.Context) error {
		var errs []error
		for _, cb := range cbs {
			errs = append(errs, cb.b.Drop(ctx))
			if cb.lookup != "" {
				errs = append(errs, env.Client.Do(ctx, env.Client.B().Del().Key(cb.lookup).Build()).Error())
			}
		}
		return errors.Join(errs...)
	}}
	eng, err := engine.Detect(ctx, env.Client)
	if err != nil {
		return f, err
	}
	for _, s := range []board.Strategy{board.PackedScore, board.KeySuffix} {
		name := fmt.Sprintf("%s_w10_%s", env.Prefix, StrategyLabel(s))
		b, err := board.New(ctx, env.Client, name, Layout, board.Options{Strategy: s})
		if err != nil {
			return f, err
		}
		cb := &costBoard{b: b, z: "tb:{" + name + "}:z", withScore: eng.ZRankWithScore()}
		if s == board.KeySuffix {
			cb.lookup = "tb:{" + name + "}:bare"
		}
		cbs = append(cbs, cb)
		if _, err := loadBoard(ctx, env, "readcost: loading "+StrategyLabel(s)+" "+SizeLabel(size), b, size, LoadEntry); err != nil {
			return f, err
		}
		if err := cb.index(ctx, env.Client); err != nil {
			return f, err
		}
		if err := cb.writeLookup(ctx, env.Client); err != nil {
			return f, err
		}
	}
	var sq seq
	for _, cb := range cbs {
		label := "packed"
		if cb.b.Options().Strategy == board.KeySuffix {
			label = "suffix"
		}
		for _, callers := range rcCallers {
			for _, rd := range costReads {
				f.Comparisons = append(f.Comparisons, costComparison(env, cb, rd, label, callers, &sq))
			}
		}
	}
	f.Notes = []string{
		fmt.Sprintf("Two boards of %s entries (packed, key suffix), the reads' layout; random ids.", SizeLabel(size)),
		"bare: top10 ZRANGE 0 9 WITHSCORES; around11 ZRANK, then ZRANGE of the 11 around it (two round trips); get ZRANK ... WITHSCORE on Redis and Valkey 7.2+, ZSCORE and ZRANK in one MULTI/EXEC on 7.0 (a score and a rank of one moment, the answer Get gives), and beside it, bare-pair, ZSCORE and ZRANK pipelined (a weaker answer: other clients' commands may come between; no goal divides by it); rank ZRANK. On a key-suffix board the bare reader first finds the id's member with an HGET of a HASH id -> member, as a hand-written key-suffix board does (one more round trip); the library finds it in its id lookup. The bare reader decodes each reply into its answer (members and scores, a rank), as a reader that uses the answer must; it leaves scores packed. A peer such as redis-rank reads with the same commands.",
		"Each read at one caller (what one read costs Redis) and at 64 (c64: the callers' commands share each system call, as on a busy service; the bare reader's 64 callers share the same client as the library's).",
		"The library's reads ask for nothing more (no total, no data, no other ranks). top10, and rank on a packed board, are then the very command the bare reader sends: their ratio is the run's noise between identical commands. get on a packed board is then the bare get's very commands too, and around ZRANK then ZRANGE (a script near the last entry, or when a write moved the id between them); on a key-suffix board the same commands after one HGET of the id's lookup bucket (the bare reader's HGET reads its own id HASH).",
	}
	return f, nil
}

// rcCallers are the workload's caller counts: one caller, what a read
// costs alone; 64, what it costs when many callers' commands share each
// system call, as on a busy service.
var rcCallers = []int{1, 64}

// costComparison is read rd of cb, by the library and by the bare
// commands, at callers concurrent callers.
func costComparison(env Env, cb *costBoard, rd costRead, label string, callers int, sq *seq) Comparison {
	name, bench := rd.name+" "+label, rd.name
	if callers > 1 {
		name += fmt.Sprintf(" c%d", callers)
		bench += fmt.Sprintf("-c%d", callers)
	}
	c := Comparison{Name: name, Case: name, Baseline: RCBare, Metric: RedisCPU, Callers: callers}
	c.Variants = []Variant{
		{Name: label, Bench: label + "/" + bench, Commands: rd.libCommands,
			Op: func(ctx context.Context) error { return rd.lib(ctx, cb, pick(sq.next(), len(cb.ids))) }},
		{Name: RCBare, Bench: "bare-" + label + "/" + bench, Commands: rd.bareCmds,
			Op: func(ctx context.Context) error { return rd.bare(ctx, env.Client, cb, pick(sq.next(), len(cb.ids))) }},
	}
	if rd.pair != nil {
		c.Variants = append(c.Variants, Variant{Name: RCPair, Bench: "pair-" + label + "/" + bench, Commands: rd.bareCmds,
			Op: func(ctx context.Context) error { return rd.pair(ctx, env.Client, cb, pick(sq.next(), len(cb.ids))) }})
	}
	c.Goals = []Goal{{Variant: label, Short: "vs bare", Target: 1 + rcNoise,
		Text: fmt.Sprintf("%s: Redis CPU per read <= 1.0x the bare commands' (within %.0f%%)", name, rcNoise*100)}}
	return c
}

// index reads cb's ids (through the library) and stored members (ZRANGE),
// in rank order, a page at a time.
func (cb *costBoard) index(ctx context.Context, c rueidis.Client) error {
	for off := int64(0); ; off += 1000 {
		l, err := cb.b.Page(ctx, off, 1000)
		if err != nil {
			return err
		}
		ms, err := c.Do(ctx, c.B().Zrange().Key(cb.z).Min(strconv.FormatInt(off, 10)).Max(strconv.FormatInt(off+999, 10)).Build()).AsStrSlice()
		if err != nil {
			return err
		}
		if len(ms) != len(l.Entries) {
			return fmt.Errorf("readcost: %d members but %d entries at offset %d", len(ms), len(l.Entries), off)
		}
		for _, e := range l.Entries {
			cb.ids = append(cb.ids, e.ID)
		}
		cb.members = append(cb.members, ms...)
		if len(ms) < 1000 {
			return nil
		}
	}
}

// writeLookup writes the bare reader's HASH id -> member of a key-suffix
// board.
func (cb *costBoard) writeLookup(ctx context.Context, c rueidis.Client) error {
	if cb.lookup == "" {
		return nil
	}
	for from := 0; from < len(cb.ids); from += 1000 {
		cmd := c.B().Hset().Key(cb.lookup).FieldValue()
		for i := from; i < min(from+1000, len(cb.ids)); i++ {
			cmd = cmd.FieldValue(cb.ids[i], cb.members[i])
		}
		if err := c.Do(ctx, cmd.Build()).Error(); err != nil {
			return err
		}
	}
	return nil
}
