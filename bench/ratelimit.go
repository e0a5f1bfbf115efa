package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/baseline"
	"github.com/tiebreak/tiebreak/ratelimit"
)

// Workload 6: ratelimit.Allow against the naive log limiter, same limit and
// window, same keys' hash tags, in two cases as ratelimit/bench_test.go's
// BenchmarkAllow: "admit" (many keys, a limit never reached: every call
// logs a request) and "refuse" (one key, full for the whole run: every
// call is refused).
func init() {
	register(workload{num: 6, name: "ratelimit", title: "6. ratelimit Allow", run: runRatelimit})
}

// The ratelimit variants; rlBaseline is what ratios divide by.
const (
	rlAllow    = "ratelimit"
	rlBaseline = "naive-log"
	// rlAdmitted is the Extra of every row: requests admitted per call (1
	// in the admit case, 0 in the refuse case, else the case is not what
	// it says).
	rlAdmitted = "admitted"
)

// rlCase is one case: calls spread over keys limited keys, under limit.
type rlCase struct {
	name  string
	keys  int
	limit ratelimit.Limit
	// full: the key is filled up to its limit before measuring.
	full bool
}

// rlCases are the two cases. The refuse window is an hour, not
// BenchmarkAllow's minute, so that the key stays full however long the
// run (the cost does not depend on the window: nothing leaves it).
var rlCases = []rlCase{
	{name: "admit", keys: 10_000, limit: ratelimit.Limit{N: 1000, Window: time.Second}},
	{name: "refuse", keys: 1, limit: ratelimit.Limit{N: 100, Window: time.Hour}, full: true},
}

// rlKeys are one case's keys: the limiter's (as passed to Allow), their
// Redis keys, and the naive limiter's, with the same hash tags.
type rlKeys struct {
	ours, redis, naive []string
}

// rlPrefix is the limiter's Options.Prefix: key k is logged at
// rlPrefix(prefix) + "{" + k + "}".
func rlPrefix(prefix string) string { return prefix + "_w6_rl:" }

// newRLKeys names case c's keys under prefix.
func newRLKeys(prefix string, c rlCase) rlKeys {
	k := rlKeys{ours: make([]string, c.keys), redis: make([]string, c.keys), naive: make([]string, c.keys)}
	for i := range c.keys {
		k.ours[i] = c.name + strconv.Itoa(i)
		k.redis[i] = rlPrefix(prefix) + "{" + k.ours[i] + "}"
		k.naive[i] = prefix + "_w6_naive:{" + k.ours[i] + "}"
	}
	return k
}

// rlVariants are the limiter and the naive limiter on case c's keys, each
// counting its admissions.
func rlVariants(c rueidis.Client, l *ratelimit.Limiter, rc rlCase, k rlKeys) []variant {
	var ours, naive atomic.Int64
	pick := func(seq uint64) int { return int(mix(seq) % uint64(rc.keys)) }
	return []variant{
		{name: rlAllow, counters: []counter{{rlAdmitted, &ours}}, op: func(ctx context.Context, seq uint64) error {
			r, err := l.Allow(ctx, k.ours[pick(seq)], rc.limit)
			ours.Add(int64(r.Allowed))
			return err
		}},
		{name: rlBaseline, counters: []counter{{rlAdmitted, &naive}}, op: func(ctx context.Context, seq uint64) error {
			ok, err := baseline.NaiveLogAllow(ctx, c, k.naive[pick(seq)], rc.limit.N, rc.limit.Window, time.Now())
			if ok {
				naive.Add(1)
			}
			return err
		}},
	}
}

// fillRL admits requests on the case's one key, through both the limiter
// and the naive limiter, until each refuses. The naive limiter logs one request per
// millisecond (its member is the time), so it is filled a millisecond
// apart.
func fillRL(ctx context.Context, c rueidis.Client, l *ratelimit.Limiter, rc rlCase, k rlKeys) error {
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
		ok, err := baseline.NaiveLogAllow(ctx, c, k.naive[0], rc.limit.N, rc.limit.Window, time.Now())
		if err != nil || !ok {
			return err
		} else if i > 2*rc.limit.N {
			return fmt.Errorf("ratelimit: the naive log limiter admitted %d requests under %v", i, rc.limit)
		}
		time.Sleep(time.Millisecond)
	}
}

// runRatelimit compares the limiter with the naive limiter in each case.
func runRatelimit(ctx context.Context, h *harness) (sec Section, err error) {
	l, err := ratelimit.New(h.client, ratelimit.Options{Prefix: rlPrefix(h.cfg.Prefix)})
	if err != nil {
		return sec, err
	}
	sec = Section{Workload: "ratelimit", Title: "6. ratelimit Allow", Kind: "throughput",
		RatioOf: "throughput / the naive log limiter in the same round"}
	var cpu []float64 // the limiter's redis CPU per call over the naive limiter's, per case
	for _, rc := range rlCases {
		c, err := compareRL(ctx, h, &sec, l, rc)
		if err != nil {
			return sec, err
		}
		cpu = append(cpu, c)
	}
	sec.Notes = ratelimitNotes(sec.Goals, cpu)
	return sec, nil
}

// compareRL measures one case, adds its rows and goal to sec, and returns
// the ratio of the limiter's redis CPU per call to the naive limiter's.
func compareRL(ctx context.Context, h *harness, sec *Section, l *ratelimit.Limiter, rc rlCase) (cpu float64, err error) {
	k := newRLKeys(h.cfg.Prefix, rc)
	defer func() { err = errors.Join(err, dropRL(context.WithoutCancel(ctx), h, k)) }()
	if rc.full {
		h.log.printf("ratelimit: filling the %s key", rc.name)
		if err := fillRL(ctx, h.client, l, rc, k); err != nil {
			return 0, err
		}
	}
	vs := rlVariants(h.client, l, rc, k)
	ms, err := h.compare(ctx, "ratelimit "+rc.name, vs)
	if err != nil {
		return 0, err
	}
	ours, base := variantIndex(vs, rlAllow), variantIndex(vs, rlBaseline)
	first := len(sec.Rows)
	for i, v := range vs {
		row := newRow(rc.name, v.name, ms[i])
		row.Ratio, row.Baseline = ratio(ms[i], ms[base], throughput), rlBaseline
		sec.Rows = append(sec.Rows, row)
	}
	g := newGoal(fmt.Sprintf("ratelimit Allow >= 0.9x the naive log limiter (%s)", rc.name), "vs naive-log", sec.Rows[first+ours].Ratio, 0.9, true)
	sec.addGoal(first+ours, g)
	return ratio(ms[ours], ms[base], func(m Measurement) float64 { return m.RedisCPUus }), nil
}

// dropRL deletes a case's keys, the limiter's and the naive limiter's, pipelined
// (Reset would take a round trip per key).
func dropRL(ctx context.Context, h *harness, k rlKeys) error {
	return deleteKeys(ctx, h.client, append(k.redis, k.naive...)...)
}

// rlWhy says, per case, what the limiter does that the naive limiter does not:
// why it costs more.
var rlWhy = map[string]string{
	"admit": "an admission runs Redis's TIME (the naive limiter takes the caller's clock, which skews between clients), builds a member per request " +
		"(the naive limiter's member is the millisecond, so one key's requests of one millisecond collapse into one entry and it admits more than its limit: " +
		"its bug, which also makes it cheaper) and reads PTTL to keep the key alive as long as its entries, with a PEXPIRE about once per window " +
		"(the naive limiter's idle keys live forever, which also spares Redis an expiry lookup in each of its commands)",
	"refuse": "a refusal runs Redis's TIME and reads two entries (two ZRANGE of one entry: the one whose leaving lets the request in, and the newest) " +
		"for the exact RetryAfter and ResetAfter, and replies four integers; the naive limiter replies a status string and tells the caller nothing about when to retry",
}

// ratelimitNotes explains the section; goals and cpu are per case, in
// rlCases order.
func ratelimitNotes(goals []Goal, cpu []float64) []string {
	notes := []string{
		"admit: 10000 keys, 1000 per second, calls spread over the keys: every call is admitted and logged. refuse: one key, 100 per hour, filled before measuring: every call is refused. extra admitted = admissions per call, a check of the case.",
		"ratelimit: Allow, one script: Redis's TIME and ZCARD, then ZREMRANGEBYSCORE, ZADD (a member per request) and PTTL (PEXPIRE about once per window), or two ZRANGE of one entry for the exact retry and reset times. naive-log: the naive log limiter: the caller's clock (ms), ZREMRANGEBYSCORE, ZCARD, ZADD with the timestamp as member; no expiry, no retry time.",
	}
	for i, g := range goals {
		if i >= len(rlCases) || i >= len(cpu) {
			break
		}
		c := rlCases[i].name
		if g.Met {
			notes = append(notes, fmt.Sprintf("%s: goal met (%.2fx the naive limiter's throughput); Redis's own CPU per call is %.2fx the naive limiter's (redis CPU µs/op), which throughput hides while the client, not Redis, sets the pace.", c, g.Value, cpu[i]))
			continue
		}
		notes = append(notes, fmt.Sprintf("%s: goal MISSED, as expected (%.2fx the naive limiter's throughput; Redis's CPU per call %.2fx the naive limiter's): %s. "+
			"These are the fixes of the naive limiter's faults; only giving one back would close the gap, so the miss is their price, against a baseline that is cheaper because it is wrong.",
			c, g.Value, cpu[i], rlWhy[c]))
	}
	return notes
}
