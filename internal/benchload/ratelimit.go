package benchload

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tiebreak/tiebreak/internal/baseline"
	"github.com/tiebreak/tiebreak/ratelimit"
)

// ratelimit.Allow against the peer limiter (RLPeer: the bench command
// gives go-redis/redis_rate's GCRA limiter) and the naive log limiter,
// same limit and window, in two cases: "admit" (many keys, a limit never
// reached: every call admits) and "refuse" (one key, full for the whole
// run: every call is refused); and the memory each keeps per key, with one
// request and with a full limit. ratelimit's BenchmarkAllow runs it
// without a peer.
func init() {
	register(Workload{
		Num: 6, Name: "ratelimit", Title: "6. ratelimit Allow",
		RatioOf: "throughput / the peer limiter's (go-redis/redis_rate) in the same round; memory rows: MEMORY USAGE per key / the peer's",
		Params: []Param{{Name: "rl-keys", Usage: "keys holding one request in the ratelimit workload's memory rows (a tenth of them hold a full limit)",
			Full: "20000", Quick: "2000", Min: 10, Max: 1e7}},
		Rows:    func(Config) int { return len(rlLevels)*(len(rlNames())-1) + len(rlCases)*len(rlNames()) },
		Goals:   func(Config) int { return rlGoals() },
		Prepare: prepareRatelimit,
	})
}

// The ratelimit variants. RLBaseline is what ratios divide by when no peer
// is set (the peer is, when it is); RLAdmitted counts the admissions of
// every variant, per call (1 in the admit case, 0 in the refuse case, else
// the case is not what it says).
const (
	RLAllow    = "ratelimit"
	RLBaseline = "naive-log"
	RLAdmitted = "admitted"
)

// RLPeer is a rate limiter of another module that the ratelimit workload
// measures beside ratelimit, on the same Redis: the bench command sets
// go-redis/redis_rate's, from a module of its own, so that this module
// never carries go-redis.
type RLPeer struct {
	// Name names its rows.
	Name string
	// Commands are the commandstats names of what Allow sends.
	Commands []string
	// Key returns the Redis key holding key's state.
	Key func(key string) string
	// Allow asks for one request of key under limit (limit.N requests
	// per limit.Window) and reports whether it was admitted.
	Allow func(ctx context.Context, key string, limit ratelimit.Limit) (bool, error)
}

// rlPeer is the peer set by SetRLPeer, if any.
var rlPeer *RLPeer

// SetRLPeer makes p the peer of the ratelimit workload (nil: none, and
// ratios divide by the naive log limiter). Set it before the workload is
// prepared, never while it runs.
func SetRLPeer(p *RLPeer) { rlPeer = p }

// rlBaseline is the variant ratios divide by.
func rlBaseline() string {
	if rlPeer != nil {
		return rlPeer.Name
	}
	return RLBaseline
}

// rlNames are the throughput variants: ratelimit, the peer if any, the
// naive log limiter.
func rlNames() []string {
	if rlPeer != nil {
		return []string{RLAllow, rlPeer.Name, RLBaseline}
	}
	return []string{RLAllow, RLBaseline}
}

// rlGoals is the number of goals: the refuse case's, against the peer.
func rlGoals() int {
	if rlPeer != nil {
		return 1
	}
	return 0
}

// rlCase is one throughput case: calls spread over keys limited keys,
// under limit.
type rlCase struct {
	name  string
	keys  int
	limit ratelimit.Limit
	// full: the key is filled up to its limit before measuring.
	full bool
}

// rlCases are the two cases. The refuse window is an hour so that the key
// stays full however long the run (the cost of a refusal does not depend
// on the window: nothing leaves it; and the GCRA limiter lets one request
// in every window/N, 36 s here, so none in a round).
var rlCases = []rlCase{
	{name: "admit", keys: 10_000, limit: ratelimit.Limit{N: 1000, Window: time.Second}},
	{name: "refuse", keys: 1, limit: ratelimit.Limit{N: 100, Window: time.Hour}, full: true},
}

// rlLevel is one memory row's state per key: requests admitted on each.
type rlLevel struct {
	name     string
	requests int
	// share: the keys measured are rl-keys / share.
	share int
}

// rlMemLimit is the limit of the memory rows: a full limit of 100 stays
// full while it is measured.
var rlMemLimit = ratelimit.Limit{N: 100, Window: time.Hour}

// rlLevels are the memory rows' states: one request per key, and a full
// limit on a tenth as many keys.
var rlLevels = []rlLevel{{name: "1 req/key", requests: 1, share: 1}, {name: "100 req/key", requests: 100, share: 10}}

// rlLimiter is one contender, on names of its own: name turns a limited
// key into what allow takes, key that into its Redis key.
type rlLimiter struct {
	name     string
	commands []string
	keyName  func(k string) string
	redisKey func(name string) string
	allow    func(ctx context.Context, name string, limit ratelimit.Limit) (bool, error)
}

// rlLimiters are the contenders on env, in rlNames order. Their Redis
// keys have the same length (env.Prefix, 7 bytes, then the braced key:
// "_w6_rl:", "rate:" (redis_rate's own) before the prefix and "_6" after
// it, "_w6_nv:"), so that the memory rows compare what each stores, not
// its names.
func rlLimiters(env Env) ([]rlLimiter, error) {
	pre := env.Prefix + "_w6_rl:"
	l, err := ratelimit.New(env.Client, ratelimit.Options{Prefix: pre})
	if err != nil {
		return nil, err
	}
	braced := func(p string) func(string) string { return func(k string) string { return p + "{" + k + "}" } }
	same := func(s string) string { return s }
	out := []rlLimiter{{name: RLAllow, commands: []string{"evalsha"}, keyName: same, redisKey: braced(pre),
		allow: func(ctx context.Context, k string, limit ratelimit.Limit) (bool, error) {
			r, err := l.Allow(ctx, k, limit)
			return r.Allowed == 1, err
		}}}
	if p := rlPeer; p != nil {
		out = append(out, rlLimiter{name: p.Name, commands: p.Commands, keyName: braced(env.Prefix + "_6"), redisKey: p.Key, allow: p.Allow})
	}
	return append(out, rlLimiter{name: RLBaseline, commands: []string{"evalsha"}, keyName: braced(env.Prefix + "_w6_nv:"), redisKey: same,
		allow: func(ctx context.Context, k string, limit ratelimit.Limit) (bool, error) {
			return baseline.NaiveLogAllow(ctx, env.Client, k, limit.N, limit.Window, time.Now())
		}}), nil
}

// prepareRatelimit measures the memory rows, then names every case's keys,
// fills the refuse case's, and compares the limiters in each case.
func prepareRatelimit(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	lims, err := rlLimiters(env)
	if err != nil {
		return nil, err
	}
	var keys []string
	f := &Fixture{Notes: ratelimitNotes(cfg), Drop: func(ctx context.Context) error { return dropKeys(ctx, env.Client, keys) }}
	if f.Memory, err = rlMemory(ctx, env, cfg, lims[:len(lims)-1]); err != nil {
		return f, err
	}
	for _, rc := range rlCases {
		names := make([][]string, len(lims))
		for i, lim := range lims {
			names[i] = make([]string, rc.keys)
			for j := range rc.keys {
				names[i][j] = lim.keyName(rc.name + strconv.Itoa(j))
				keys = append(keys, lim.redisKey(names[i][j]))
			}
			if rc.full {
				env.logf("ratelimit: filling the %s key of %s", rc.name, lim.name)
				if err := fillRL(ctx, lim, names[i][0], rc.limit); err != nil {
					return f, err
				}
			}
		}
		f.Comparisons = append(f.Comparisons, rlComparison(rc, lims, names))
	}
	return f, nil
}

// rlComparison measures the limiters in case rc, each on its names.
func rlComparison(rc rlCase, lims []rlLimiter, names [][]string) Comparison {
	c := Comparison{Name: rc.name, Case: rc.name, Baseline: rlBaseline(), Metric: Throughput}
	var s seq
	for i, lim := range lims {
		var admitted atomic.Int64
		c.Variants = append(c.Variants, Variant{Name: lim.name, Counters: []Counter{{RLAdmitted, &admitted}}, Commands: lim.commands,
			Op: func(ctx context.Context) error {
				ok, err := lim.allow(ctx, names[i][pick(s.next(), rc.keys)], rc.limit)
				if ok {
					admitted.Add(1)
				}
				return err
			}})
	}
	if rlPeer != nil && rc.full {
		c.Goals = []Goal{{Variant: RLAllow, Short: "vs " + rlPeer.Name, Target: 0.9, AtLeast: true,
			Text: fmt.Sprintf("ratelimit Allow >= 0.9x %s (%s)", rlPeer.Name, rc.name)}}
	}
	return c
}

// fillRL admits requests on one key until lim refuses one. The naive log
// limiter logs one request per millisecond (its member is the time), so
// every limiter is filled a millisecond apart.
func fillRL(ctx context.Context, lim rlLimiter, name string, limit ratelimit.Limit) error {
	for i := 0; ; i++ {
		ok, err := lim.allow(ctx, name, limit)
		if err != nil || !ok {
			return err
		} else if i > 2*limit.N {
			return fmt.Errorf("ratelimit: %s admitted %d requests under %v", lim.name, i, limit)
		}
		time.Sleep(time.Millisecond)
	}
}

// rlMemory measures the memory each limiter of lims (ratelimit and the
// peer: the naive log stores what ratelimit stores) keeps per key at each
// level, one limiter and level at a time, deleting its keys before the
// next.
func rlMemory(ctx context.Context, env Env, cfg Config, lims []rlLimiter) ([]MemoryRow, error) {
	var rows []MemoryRow
	for _, lv := range rlLevels {
		n := max(1, cfg.Int("rl-keys")/lv.share)
		first := len(rows)
		for _, lim := range lims {
			env.logf("ratelimit: memory of %s, %d keys with %s", lim.name, n, lv.name)
			figs, err := rlMemoryOf(ctx, env, cfg, lim, lv, n)
			if err != nil {
				return rows, err
			}
			rows = append(rows, MemoryRow{Case: lv.name, Variant: lim.name, Per: "key", Figures: figs})
		}
		// The last limiter is the baseline: the peer, else ratelimit. The
		// ratio is MEMORY USAGE's, exact per key: used_memory moves with
		// the clients' buffers by more than a key's bytes over a few
		// thousand keys.
		base := rows[len(rows)-1]
		for i := first; i < len(rows); i++ {
			rows[i].Baseline, rows[i].Ratio = base.Variant, safeDiv(rows[i].Figures[MemUsage], base.Figures[MemUsage])
		}
	}
	return rows, nil
}

// rlMemoryOf admits lv.requests requests on each of n keys through lim,
// from cfg.Concurrency goroutines, and returns its bytes per key as
// measureMemory does. The keys are deleted before it returns.
func rlMemoryOf(ctx context.Context, env Env, cfg Config, lim rlLimiter, lv rlLevel, n int) (figs map[string]float64, err error) {
	conc := cfg.Concurrency
	names := make([]string, n+conc)
	keys := make([]string, n+conc)
	for i := range names {
		names[i] = lim.keyName("m" + strconv.Itoa(i))
		keys[i] = lim.redisKey(names[i])
	}
	defer func() { err = errors.Join(err, dropKeys(context.WithoutCancel(ctx), env.Client, keys)) }()
	// A request on conc other keys first, from conc goroutines: the script
	// cache and the client's connections grow before measuring.
	if err := rlAdmitAll(ctx, conc, lim, names[n:], 1); err != nil {
		return nil, err
	}
	used0, data0, err := usedMemory(ctx, env)
	if err != nil {
		return nil, err
	}
	if err := rlAdmitAll(ctx, conc, lim, names[:n], lv.requests); err != nil {
		return nil, err
	}
	used1, data1, err := usedMemory(ctx, env)
	if err != nil {
		return nil, err
	}
	usage, err := memoryUsage(ctx, env, keys[:n])
	per := func(b int64) float64 { return float64(b) / float64(n) }
	return map[string]float64{MemUsed: per(used1 - used0), MemDataset: per(data1 - data0), MemUsage: per(usage)}, err
}

// rlAdmitAll asks for requests requests on every name through lim, from
// conc goroutines, and fails unless each is admitted.
func rlAdmitAll(ctx context.Context, conc int, lim rlLimiter, names []string, requests int) error {
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	total := int64(len(names) * requests)
	for range conc {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < total && ctx.Err() == nil; i = next.Add(1) - 1 {
				name := names[i%int64(len(names))]
				ok, err := lim.allow(ctx, name, rlMemLimit)
				if err == nil && !ok {
					err = fmt.Errorf("ratelimit: %s refused request %d of %s under %v", lim.name, i/int64(len(names))+1, name, rlMemLimit)
				}
				if err != nil {
					once.Do(func() { first = err })
					return
				}
			}
		})
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// ratelimitNotes explains the section; why a goal is missed is said in
// bench/README.md, with the figures of a committed run.
func ratelimitNotes(cfg Config) []string {
	return []string{
		"admit: 10000 keys, 1000 per second, calls spread over the keys: every call is admitted. refuse: one key, 100 per hour, filled before measuring: every call is refused. extra admitted = admissions per call, a check of the case.",
		"ratelimit: Allow, one script: Redis's TIME and ZCARD, then on admission ZREMRANGEBYSCORE, ZADD (one entry per request) and PTTL (PEXPIRE about once per window); on refusal two ZRANGE of one entry, for the exact retry and reset times, and no write. " +
			"redis_rate (go-redis/redis_rate v10, GCRA, rate = N per window, burst = N): one script: TIME, GET, and on admission SET EX of one number. naive-log: the naive log limiter, the caller's clock (ms), ZREMRANGEBYSCORE, ZCARD, ZADD with the timestamp as member; no expiry, no retry time.",
		fmt.Sprintf("Memory rows: %d keys with one admitted request each, and %d keys with a full limit (100 per hour), admitted one request per call; used_memory growth, used_memory_dataset growth and MEMORY USAGE (SAMPLES 0) per key. A sliding log keeps an entry per request in the window; GCRA one number per key.",
			cfg.Int("rl-keys"), max(1, cfg.Int("rl-keys")/rlLevels[1].share)),
	}
}
