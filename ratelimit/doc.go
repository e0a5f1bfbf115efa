// Package ratelimit is a sliding-window log rate limiter in Redis that never
// admits more than its limit: in every interval of length Window, at most N
// requests of a key are admitted.
//
//	lim, _ := ratelimit.New(client, ratelimit.Options{})
//	res, err := lim.Allow(ctx, "user:42", ratelimit.PerMinute(100))
//	if err == nil && res.Allowed == 0 {
//		// refused: retry after res.RetryAfter (-1 when allowed)
//	}
//
// The API has the shape go-redis/redis_rate users know (Limit, Result with
// Allowed, Remaining, RetryAfter, ResetAfter; Allow, AllowN, Reset), with
// a log instead of GCRA: exact counts in a true sliding window, at the cost
// of one sorted-set entry per admitted request.
//
// # Storage
//
// Each limited key is one sorted set, its key the hash tag, so each key is
// one Redis Cluster slot and keys spread over the cluster:
//
//	rl:{key}   sorted set, one entry per admitted request, expires when idle
//	           score  = admission time, µs, by Redis's TIME (exact below 2^53)
//	           member = that time in decimal, e.g. "1718000000123456", or
//	                    the time and ":<position>", "1718000000123456:3",
//	                    for the requests of one AllowN and whenever the
//	                    plain time is taken (several calls in one µs)
//
//	  time ──────────────────────────────────────────────────────────▶
//	          │ dropped (s <= now-W) │    counted: now-W < s <= now     │
//	                                 └──────────── window W ───────────┘ now
//
// One Lua script does a whole call, atomically: read TIME and count the
// log; then either drop the entries that left the window, add n entries
// (all or none) and make sure the key outlives them, or read how long the
// caller must wait. The answer is exact to the microsecond:
//
//	RetryAfter = s_k + W - now, where s_k is the k-th oldest entry and
//	             k = count + n - N entries must leave for n to fit
//	ResetAfter = s_newest + W - now
//
// # What it fixes in the usual sorted-set limiter
//
// The common recipe (ZREMRANGEBYSCORE, ZCARD, ZADD with member = timestamp)
// has four faults this package does not: its clock is the caller's, so
// clients with skewed clocks disagree (here only Redis's TIME is used); its
// member is the timestamp, so requests of the same instant collapse into
// one entry and it admits more than its limit (here each request is its own
// member); its keys never expire (here a key expires two windows, rounded up
// to the millisecond, and a millisecond after its last admission); and it says nothing about when to retry (here
// RetryAfter, exact, and ErrExceedsLimit when n exceeds the limit).
//
// # Cost
//
// One script call per Allow or AllowN. An admission runs TIME, ZCARD,
// ZREMRANGEBYSCORE (ZCOUNT and ZREMRANGEBYRANK on a log of more than
// 1,000 entries), ZADD and PTTL, and PEXPIRE only when the log was empty
// (then instead of the PTTL) or its time to live has run below
// one window (about once per window per key: a key expires between one
// and two windows after its last admission). A refusal of one request
// runs TIME, ZCARD and two ZRANGE of a single entry (one when N is 1), and
// writes nothing: entries that left the window are dropped by the next
// admission. That is the bare recipe's three commands plus the price of
// its fixes: the server clock, the expiry, and exact retry times
// (BenchmarkAllow and the bench command measure both side by side). A log
// holds at most N entries in its window, plus those that left it since the
// last admission; N <= 128 stays in Redis's compact listpack encoding.
//
// # Bounds
//
// No call can stall Redis: one AllowN asks for at most MaxAllowN (1,000)
// requests, so its script adds at most 1,000 entries, and it drops at most
// 1,000 entries that left the window (a longer backlog, such as a large
// log whose entries all aged out at once, goes over the next admissions;
// they never count meanwhile). The worst call allowed, 1,000 requests
// logged and 1,000 dropped from a log of 20,000, takes about 2-3.5 ms of
// Redis time; a call over a bound is refused before reaching Redis. The
// prefix is at most MaxPrefixLen (64) bytes and a key MaxKeyLen (512).
// Reset is an UNLINK: Redis frees a long log in the background.
//
// Redis's clock is trusted. If it steps backward (NTP, a failover to a
// node whose clock lags), entries logged before the step keep counting
// until their own time plus the window, and the key's expiry is never
// moved earlier: the limiter is stricter for the length of the step, never
// looser. ResetAfter right after an admission then understates by the step.
//
// # A changing cluster
//
// On a Redis Cluster, a call that Redis refused without running it (TRYAGAIN
// while the key's slot moves between masters, CLUSTERDOWN until a replica
// takes over from a dead master, LOADING) is sent again, with waits from 1
// ms to 100 ms, within ctx and for 10 s at most. A connection error is never
// sent again; its message says whether a write may have run. Reset is safe
// to call again after such an error; Allow and AllowN are not (they log the
// requests again: the limiter errs on the strict side).
package ratelimit
