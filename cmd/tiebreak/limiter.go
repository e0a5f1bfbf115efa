package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/internal/hashtag"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/ratelimit"
)

//go:embed lua/limiter.lua
var limiterSource string

var limiterScript = luascript.NewReadOnly(limiterSource)

func limiterCommands() []*command {
	return []*command{{
		name: "limiter get", args: []string{"KEY"},
		help: "a rate-limited key's count in its window and when its log empties, by Redis's clock",
		setup: func(fs *flag.FlagSet) runFunc {
			var q limiterQuery
			fs.DurationVar(&q.window, "window", 0, "the limit's `window`, required (keys do not store it): 1s, 1m, 1h...")
			fs.IntVar(&q.limit, "limit", 0, "the limit's N, to show what remains (optional)")
			fs.StringVar(&q.prefix, "limiter-prefix", defaultLimiterPrefix, limiterPrefixHelp)
			return func(ctx context.Context, e *env, a []string) error { q.key = a[0]; return limiterGet(ctx, e, q) }
		},
	}}
}

// limiterQuery is limiter get's arguments.
type limiterQuery struct {
	key, prefix string
	window      time.Duration
	limit       int
}

// limiterOut is limiter get's answer in JSON. Times are RFC 3339 in UTC.
type limiterOut struct {
	Key      string `json:"key"`
	RedisKey string `json:"redisKey"`
	Window   string `json:"window"`
	Now      string `json:"now"`
	// Count is the requests admitted in the window that ends now.
	Count int64 `json:"count"`
	// Limit and Remaining, when --limit is given.
	Limit     *int   `json:"limit,omitempty"`
	Remaining *int64 `json:"remaining,omitempty"`
	// Oldest is the oldest admission in the window; Newest the last one.
	Oldest string `json:"oldest,omitempty"`
	Newest string `json:"newest,omitempty"`
	// ResetAt is when the window holds no admission any more: the newest
	// plus the window (ratelimit.Result.ResetAfter from now).
	ResetAt string `json:"resetAt,omitempty"`
	// Entries is the log's length, admissions past the window included
	// (the next admission drops them).
	Entries int64 `json:"entries"`
	// ExpireAt is when Redis deletes the idle key.
	ExpireAt string `json:"expireAt,omitempty"`
}

func (q limiterQuery) check() error {
	if err := hashtag.Check(q.key, ratelimit.MaxKeyLen, "the limited key", errNoKey); err != nil {
		return usageError{err.Error()}
	}
	if q.window == 0 {
		return usagef("--window is required, and more than 0: a limited key does not store its limit's window")
	}
	if err := (ratelimit.Limit{N: 1, Window: q.window}).Validate(); err != nil {
		return usagef("--window %v: %v", q.window, err)
	}
	if q.limit < 0 {
		return usagef("--limit %d, want 1 or more (0: not shown)", q.limit)
	}
	if len(q.prefix) > ratelimit.MaxPrefixLen || strings.ContainsAny(q.prefix, "{}") || q.prefix == "" {
		return usagef("--limiter-prefix %q: want 1 to %d bytes without a brace", q.prefix, ratelimit.MaxPrefixLen)
	}
	return nil
}

var errNoKey = fmt.Errorf("invalid key")

func limiterGet(ctx context.Context, e *env, q limiterQuery) error {
	if err := q.check(); err != nil {
		return err
	}
	if err := checkObject(ctx, e, kindLimiter, q.key, q.prefix); err != nil {
		return err
	}
	key := limiterKey(q.prefix, q.key)
	r, err := limiterScript.Exec(ctx, e.client, []string{key}, []string{strconv.FormatInt(q.window.Microseconds(), 10)}).AsStrSlice()
	if err != nil {
		return fmt.Errorf("reading %s: %w", key, err)
	}
	out, err := limiterResult(q, key, r)
	if err != nil {
		return err
	}
	return e.out.emit(out, limiterTable(out))
}

// limiterResult reads limiter.lua's reply.
func limiterResult(q limiterQuery, key string, r []string) (limiterOut, error) {
	if len(r) != 6 {
		return limiterOut{}, fmt.Errorf("reading %s: a reply of %d elements, want 6", key, len(r))
	}
	nums := make([]int64, 6)
	for _, i := range []int{0, 1, 4, 5} {
		var err error
		if nums[i], err = strconv.ParseInt(r[i], 10, 64); err != nil {
			return limiterOut{}, fmt.Errorf("reading %s: reply element %d = %q is not a whole number", key, i, r[i])
		}
	}
	now := time.UnixMicro(nums[0])
	out := limiterOut{Key: q.key, RedisKey: key, Window: q.window.String(), Now: stampMicro(now), Count: nums[1], Entries: nums[4]}
	if q.limit > 0 {
		rem := max(0, int64(q.limit)-out.Count)
		out.Limit, out.Remaining = &q.limit, &rem
	}
	if t, ok := memberTime(r[2]); ok {
		out.Oldest = stampMicro(t)
	}
	if t, ok := memberTime(r[3]); ok {
		out.Newest = stampMicro(t)
		if reset := t.Add(q.window); reset.After(now) {
			out.ResetAt = stampMicro(reset)
		}
	}
	if nums[5] >= 0 {
		out.ExpireAt = stamp(now.Add(time.Duration(nums[5]) * time.Millisecond))
	}
	return out, nil
}

// memberTime reads the admission time of a log member, "<µs>" or
// "<µs>:<position>".
func memberTime(m string) (time.Time, bool) {
	us, _, _ := strings.Cut(m, ":")
	n, err := strconv.ParseInt(us, 10, 64)
	return time.UnixMicro(n), err == nil
}

// stampMicro writes an instant in UTC to the microsecond, as the log
// keeps it.
func stampMicro(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z07:00") }

// limiterTable lays the answer out for people.
func limiterTable(o limiterOut) *table {
	t := &table{}
	t.add("key", o.Key+" ("+o.RedisKey+")")
	t.add("window", o.Window)
	t.add("now", o.Now+" (Redis's clock)")
	count := fmt.Sprint(o.Count)
	if o.Limit != nil {
		count += fmt.Sprintf(" of %d, %d remaining", *o.Limit, *o.Remaining)
	}
	t.add("count", count)
	if o.Oldest != "" {
		t.add("oldest", o.Oldest)
	}
	if o.Newest != "" {
		t.add("newest", o.Newest)
	}
	if o.ResetAt != "" {
		t.add("resets at", o.ResetAt+" (the newest admission leaves the window)")
	}
	t.add("entries", fmt.Sprintf("%d logged (%d past the window, dropped by the next admission)", o.Entries, o.Entries-o.Count))
	if o.ExpireAt != "" {
		t.add("expires at", o.ExpireAt+" (Redis deletes the idle key)")
	}
	return t
}
