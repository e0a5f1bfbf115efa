package benchload

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/tiebreak/tiebreak/internal/baseline"
	"github.com/tiebreak/tiebreak/ratelimit"
)

// ratelimit.Allow against the naive log limiter, same limit and window,
// same keys' hash tags, in two cases: "admit" (many keys, a limit never
// reached: every call logs a request) and "refuse" (one key, full for the
// whole run: every call is refused). ratelimit's BenchmarkAllow runs it.
func init() {
	register(Workload{
		Num: 6, Name: "ratelimit", Title: "6. ratelimit Allow",
		RatioOf: "throughput / the naive log limiter in the same round",
		Rows:    func(Config) int { return 2 * len(rlCases) },
		Goals:   func(Config) int { return len(rlCases) },
		Prepare: prepareRatelimit,
	})
}

// The ratelimit variants; RLBaseline is what ratios divide by.
const (
	RLAllow    = "ratelimit"
	RLBaseline = "naive-log"
	// RLAdmitted is the counter of every variant: requests admitted per
	// call (1 in the admit case, 0 in the refuse case, else the case is
	// not what it says).
	RLAdmitted = "admitted"
)

// rlCase is one case: calls spread over keys limited keys, under limit.
type rlCase struct {
	name  string
	keys  int
	limit ratelimit.Limit
	// full: the key is filled up to its limit before measuring.
	full bool
}

// rlCases are the two cases. The refuse window is an hour so that the key
// stays full however long the run (the cost does not depend on the
// window: nothing leaves it).
var rlCases = []rlCase{
	{name: "admit", keys: 10_000, limit: ratelimit.Limit{N: 1000, Window: time.Second}},
	{name: "refuse", keys: 1, limit: ratelimit.Limit{N: 100, Window: time.Hour}, full: true},
}

// rlKeys are one case's keys: the limiter's (as passed to Allow), their
// Redis keys, and the naive limiter's, with the same hash tags.
type rlKeys struct {
	ours, redis, naive []string
}

// newRLKeys names case c's keys under prefix; the limiter logs key k at
// its Options.Prefix + "{" + k + "}".
func newRLKeys(prefix string, c rlCase) rlKeys {
	k := rlKeys{ours: make([]string, c.keys), redis: make([]string, c.keys), naive: make([]string, c.keys)}
	for i := range c.keys {
		k.ours[i] = c.name + strconv.Itoa(i)
		k.redis[i] = prefix + "_w6_rl:{" + k.ours[i] + "}"
		k.naive[i] = prefix + "_w6_naive:{" + k.ours[i] + "}"
	}
	return k
}

// prepareRatelimit names every case's keys, fills the refuse case's, and
// compares the limiter with the naive limiter in each case.
func prepareRatelimit(ctx context.Context, env Env, _ Config) (*Fixture, error) {
	l, err := ratelimit.New(env.Client, ratelimit.Options{Prefix: env.Prefix + "_w6_rl:"})
	if err != nil {
		return nil, err
	}
	var keys []string
	f := &Fixture{Notes: ratelimitNotes(), Drop: func(ctx context.Context) error { return dropKeys(ctx, env.Client, keys) }}
	for _, rc := range rlCases {
		k := newRLKeys(env.Prefix, rc)
		keys = append(append(keys, k.redis...), k.naive...)
		if rc.full {
			env.logf("ratelimit: filling the %s key", rc.name)
			if err := fillRL(ctx, env, l, rc, k); err != nil {
				return f, err
			}
		}
		f.Comparisons = append(f.Comparisons, Comparison{Name: rc.name, Case: rc.name, Baseline: RLBaseline, Metric: Throughput,
			Variants: rlVariants(env, l, rc, k),
			Goals: []Goal{{Variant: RLAllow, Short: "vs naive-log", Target: 0.9, AtLeast: true,
				Text: fmt.Sprintf("ratelimit Allow >= 0.9x the naive log limiter (%s)", rc.name)}}})
	}
	return f, nil
}

// rlVariants are the limiter and the naive limiter on case rc's keys,
// each counting its admissions.
func rlVariants(env Env, l *ratelimit.Limiter, rc rlCase, k rlKeys) []Variant {
	var s seq
	var ours, naive atomic.Int64
	return []Variant{
		{Name: RLAllow, Counters: []Counter{{RLAdmitted, &ours}}, Commands: []string{"evalsha"}, Op: func(ctx context.Context) error {
			r, err := l.Allow(ctx, k.ours[pick(s.next(), rc.keys)], rc.limit)
			ours.Add(int64(r.Allowed))
			return err
		}},
		{Name: RLBaseline, Counters: []Counter{{RLAdmitted, &naive}}, Commands: []string{"evalsha"}, Op: func(ctx context.Context) error {
			ok, err := baseline.NaiveLogAllow(ctx, env.Client, k.naive[pick(s.next(), rc.keys)], rc.limit.N, rc.limit.Window, time.Now())
			if ok {
				naive.Add(1)
			}
			return err
		}},
	}
}

// fillRL admits requests on the case's one key, through both the limiter
// and the naive limiter, until each refuses. The naive limiter logs one
// request per millisecond (its member is the time), so it is filled a
// millisecond apart.
func fillRL(ctx context.Context, env Env, l *ratelimit.Limiter, rc rlCase, k rlKeys) error {
	for i := 0; ; i++ {
		r, err := l.Allow(ctx, k.ours[0], rc.limit)
		if err != nil {
			return err
		} else if r.Allowed == 0 {
			break
		} else if i > rc.limit.N {
			return fmt.Errorf("ratelimit: %s admitted %d requests under %v", k.ours[0], i, rc.limit)
		}
	}
	for i := 0; ; i++ {
		ok, err := baseline.NaiveLogAllow(ctx, env.Client, k.naive[0], rc.limit.N, rc.limit.Window, time.Now())
		if err != nil || !ok {
			return err
		} else if i > 2*rc.limit.N {
			return fmt.Errorf("ratelimit: the naive log limiter admitted %d requests under %v", i, rc.limit)
		}
		time.Sleep(time.Millisecond)
	}
}

// ratelimitNotes explains the section; why the goal is missed is said in
// bench/README.md, with the figures of a committed run.
func ratelimitNotes() []string {
	return []string{
		"admit: 10000 keys, 1000 per second, calls spread over the keys: every call is admitted and logged. refuse: one key, 100 per hour, filled before measuring: every call is refused. extra admitted = admissions per call, a check of the case.",
		"ratelimit: Allow, one script: Redis's TIME and ZCARD, then ZREMRANGEBYSCORE, ZADD (a member per request) and PTTL (PEXPIRE about once per window), or two ZRANGE of one entry for the exact retry and reset times. naive-log: the naive log limiter: the caller's clock (ms), ZREMRANGEBYSCORE, ZCARD, ZADD with the timestamp as member; no expiry, no retry time.",
		"Compare the redis CPU µs/op of the two: what the limiter's fixes of the naive limiter's faults cost the server (bench/README.md).",
	}
}
