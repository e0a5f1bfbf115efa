package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// slack covers the difference between Go's monotonic clock, which
// time.Sleep follows, and Redis's wall clock, which NTP may slew.
const slack = 2 * time.Millisecond

// modelled calls AllowN and checks the Result against the model at the
// time Redis decided, so the test holds however the calls are scheduled.
func modelled(t *testing.T, l *Limiter, m *model, key string, lim Limit, n int) Result {
	t.Helper()
	r := mustAllowN(t, l, key, lim, n)
	if diff := cmp.Diff(m.allowN(r.At.UnixMicro(), lim, n), r); diff != "" {
		t.Fatalf("AllowN(%s, %v, %d) (-want +got):\n%s", key, lim, n, diff)
	}
	return r
}

// TestRetryAfterHonest waits the RetryAfter a refusal gave, on the real
// clock, and the retry succeeds; RetryAfter is exact against the admission
// times Redis reported.
func TestRetryAfterHonest(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	lim := Limit{N: 3, Window: 300 * time.Millisecond}
	var m model
	first := modelled(t, l, &m, "k", lim, 1)
	modelled(t, l, &m, "k", lim, 2)
	refused := modelled(t, l, &m, "k", lim, 1)
	if refused.Allowed != 0 {
		t.Fatalf("4th request admitted %v after the 1st, under %v: %+v", refused.At.Sub(first.At), lim, refused)
	}
	if want := first.At.Add(lim.Window).Sub(refused.At); refused.RetryAfter != want {
		t.Fatalf("RetryAfter %v, want %v", refused.RetryAfter, want)
	}
	time.Sleep(refused.RetryAfter + slack)
	retry := modelled(t, l, &m, "k", lim, 1)
	if waited := retry.At.Sub(refused.At); retry.Allowed != 1 || waited < refused.RetryAfter {
		t.Errorf("retry %v (Redis clock) after a RetryAfter of %v: %+v, want admitted", waited, refused.RetryAfter, retry)
	}
}

// TestResetAfter waits the ResetAfter a refusal gave: then the whole limit
// is available again at once.
func TestResetAfter(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	lim := Limit{N: 3, Window: 300 * time.Millisecond}
	var m model
	if r := modelled(t, l, &m, "k", lim, 2); r.ResetAfter != lim.Window {
		t.Errorf("ResetAfter after an admission = %v, want the window %v", r.ResetAfter, lim.Window)
	}
	time.Sleep(20 * time.Millisecond)
	last := modelled(t, l, &m, "k", lim, 1)
	refused := modelled(t, l, &m, "k", lim, 1)
	if want := last.At.Add(lim.Window).Sub(refused.At); refused.Allowed != 0 || refused.ResetAfter != want {
		t.Fatalf("refused: %+v, want ResetAfter %v", refused, want)
	}
	time.Sleep(refused.ResetAfter + slack)
	if r := modelled(t, l, &m, "k", lim, 3); r.Allowed != 3 || r.Remaining != 0 {
		t.Errorf("%v (Redis clock) after a ResetAfter of %v: %+v, want all 3 admitted", r.At.Sub(refused.At), refused.ResetAfter, r)
	}
}

// TestReset forgets a key's log and no other key's.
func TestReset(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	lim := PerHour(2)
	for _, k := range []string{"a", "b"} {
		mustAllowN(t, l, k, lim, 2)
	}
	ctx := context.Background()
	if err := l.Reset(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := l.Reset(ctx, "never-used"); err != nil {
		t.Errorf("Reset of an unused key: %v", err)
	}
	if r := mustAllowN(t, l, "a", lim, 1); r.Allowed != 1 || r.Remaining != 1 {
		t.Errorf("a after Reset: %+v, want admitted, Remaining 1", r)
	}
	if r := mustAllowN(t, l, "b", lim, 1); r.Allowed != 0 {
		t.Errorf("b (not reset): %+v, want refused", r)
	}
}

// TestIdleKeyExpires: after each admission the key expires no earlier than
// the admitted entry leaves the window and no later than two windows
// after it (checked with PEXPIRETIME against Redis's own admission time),
// and an idle key disappears.
//
// The expiry counts from the clock of the PEXPIRE, the admission time from
// the script's TIME before it: they differ by the +1 ms of the TTL, the
// rounding to a millisecond, and whatever time the server spent between
// the two (a loaded machine deschedules it for milliseconds: CI saw 2.2
// ms in all). expirySlack allows 10 ms, still under a third window.
func TestIdleKeyExpires(t *testing.T) {
	const expirySlack = 10_000 // µs
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	lim := Limit{N: 1000, Window: 20 * time.Millisecond}
	w := lim.Window.Microseconds()
	rng := rand.New(rand.NewPCG(3, 4))
	refreshes, last := 0, int64(0)
	for i := range 60 {
		r := mustAllowN(t, l, "k", lim, 1)
		exp := pexpiretime(t, env.Client, l.prefix+"{k}") * 1000
		at := r.At.UnixMicro()
		if exp < at+w || exp > at+2*w+expirySlack {
			t.Fatalf("admission %d at %d: expires at %d, want in [%d, %d]", i, at, exp, at+w, at+2*w+expirySlack)
		}
		if exp != last {
			refreshes, last = refreshes+1, exp
		}
		time.Sleep(time.Duration(rng.IntN(15000)) * time.Microsecond)
	}
	if refreshes < 3 {
		t.Errorf("the expiry was set %d times over about 20 windows: the refresh went untested", refreshes)
	}
	// The expiry is at most 2W+1ms after the admission's millisecond, and a
	// key counts as expired only after that millisecond.
	time.Sleep(2*lim.Window + 3*time.Millisecond + slack)
	if got := pttl(t, env.Client, l.prefix+"{k}"); got != -2 {
		t.Errorf("PTTL of a key idle for two windows = %v, want -2 (gone)", got)
	}
}

// TestPersistedKeyExpiresAgain: a key that lost its expiry (PERSIST, a
// RESTORE without TTL) gets one back at its next admission, so it still
// disappears once idle.
func TestPersistedKeyExpiresAgain(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	lim := Limit{N: 100, Window: time.Second}
	key := l.prefix + "{p}"
	mustAllowN(t, l, "p", lim, 1)
	if err := env.Client.Do(context.Background(), env.Client.B().Persist().Key(key).Build()).Error(); err != nil {
		t.Fatal(err)
	}
	mustAllowN(t, l, "p", lim, 1)
	if got := pttl(t, env.Client, key); got <= lim.Window || got > 2*lim.Window+time.Millisecond {
		t.Errorf("PTTL after an admission on a persisted key = %v, want in (%v, %v]", got, lim.Window, 2*lim.Window+time.Millisecond)
	}
}

// TestExceedsLimit: asking for more than N at once is an error that says
// so, sent to no Redis, and logs nothing.
func TestExceedsLimit(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	lim := PerHour(3)
	mustAllowN(t, l, "k", lim, 1)
	for _, n := range []int{4, 100, MaxN} {
		_, err := l.AllowN(context.Background(), "k", lim, n)
		if !errors.Is(err, ErrExceedsLimit) {
			t.Errorf("AllowN(%d) err = %v, want ErrExceedsLimit", n, err)
		}
		if err != nil && (!strings.Contains(err.Error(), fmt.Sprintf("n = %d", n)) || strings.Count(err.Error(), "ratelimit: ") != 1) {
			t.Errorf("AllowN(%d) error %q: want n named and the package once", n, err)
		}
	}
	if got := zcard(t, env.Client, l.prefix+"{k}"); got != 1 {
		t.Errorf("ZCARD = %d, want 1", got)
	}
	_, err := l.AllowN(context.Background(), "e", lim, 4)
	if got := pttl(t, env.Client, l.prefix+"{e}"); !errors.Is(err, ErrExceedsLimit) || got != -2 {
		t.Errorf("n > N on an empty key: err %v, PTTL %v; want ErrExceedsLimit and no key", err, got)
	}
}

// An admission says RetryAfter -1, as redis_rate does.
func TestAdmittedRetryAfterIsMinusOne(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	r := mustAllowN(t, l, "k", PerHour(3), 2)
	if r.Allowed != 2 || r.RetryAfter != -1 || r.ResetAfter != time.Hour {
		t.Errorf("admission: %+v, want Allowed 2, RetryAfter -1, ResetAfter 1h", r)
	}
}

// TestLargestN logs MaxAllowN requests in one call, and refuses one more
// (ErrArgument), changing nothing.
func TestLargestN(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	lim := PerHour(2*MaxAllowN + 500)
	for i := 1; i <= 2; i++ {
		if r := mustAllowN(t, l, "k", lim, MaxAllowN); r.Allowed != MaxAllowN || r.Remaining != lim.N-i*MaxAllowN {
			t.Fatalf("AllowN(MaxAllowN) #%d: %+v", i, r)
		}
	}
	if _, err := l.AllowN(context.Background(), "k", PerHour(MaxN), MaxAllowN+1); !errors.Is(err, ErrArgument) {
		t.Errorf("AllowN(MaxAllowN+1): err = %v, want ErrArgument", err)
	}
	if got := zcard(t, env.Client, l.prefix+"{k}"); got != 2*MaxAllowN {
		t.Errorf("ZCARD = %d, want %d", got, 2*MaxAllowN)
	}
	if r := mustAllowN(t, l, "k", lim, 501); r.Allowed != 0 || r.RetryAfter <= 0 {
		t.Errorf("AllowN(501): %+v, want refused with a RetryAfter", r)
	}
	if r := mustAllowN(t, l, "k", lim, 500); r.Allowed != 500 || r.Remaining != 0 {
		t.Errorf("AllowN(500): %+v, want admitted", r)
	}
}

// An admission drops at most MaxAllowN entries that left the window, and
// counts none of those it leaves: a log of 2,500 entries that all left the
// window (logged under a one-hour window, read a second later under a
// one-second one) loses 1,000 of them in each admission until 1,000 or
// fewer are left, then all; the admissions' own entries, in the window,
// stay and count. (A shorter window would expire the key, two windows
// after an admission, between the test's round trips on a loaded machine.)
func TestAdmissionDropsABoundedBacklog(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	key := l.prefix + "{k}"
	for _, n := range []int{MaxAllowN, MaxAllowN, 500} {
		mustAllowN(t, l, "k", Limit{N: 5000, Window: time.Hour}, n)
	}
	short := Limit{N: 5000, Window: time.Second}
	time.Sleep(short.Window + 100*time.Millisecond) // the backlog leaves the short window
	var got []int64
	for range 3 {
		r := mustAllowN(t, l, "k", short, 1)
		got = append(got, int64(r.Allowed), int64(r.Remaining), zcard(t, env.Client, key))
	}
	if diff := cmp.Diff([]int64{1, 4999, 1501, 1, 4998, 502, 1, 4997, 3}, got); diff != "" {
		t.Errorf("Allowed, Remaining, ZCARD of three admissions after the backlog (-want +got):\n%s", diff)
	}
}

// TestClockIsRedis: At is Redis's TIME, whatever the caller's clock says.
func TestClockIsRedis(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	ctx := context.Background()
	before, err := env.Client.Do(ctx, env.Client.B().Time().Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	r := mustAllowN(t, l, "k", PerHour(1), 1)
	after, err := env.Client.Do(ctx, env.Client.B().Time().Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := redisTime(t, before), redisTime(t, after)
	if r.At.Before(lo) || r.At.After(hi) {
		t.Errorf("At %v outside Redis's TIME before and after [%v, %v]", r.At, lo, hi)
	}
}

func redisTime(t *testing.T, secUsec []string) time.Time {
	t.Helper()
	s, err1 := strconv.ParseInt(secUsec[0], 10, 64)
	us, err2 := strconv.ParseInt(secUsec[1], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatalf("TIME reply %q: %v", secUsec, err)
	}
	return time.UnixMicro(s*1e6 + us)
}

// TestKeys: a limited key k is logged at Prefix{k}; the default prefix is
// "rl:".
func TestKeys(t *testing.T) {
	env := redistest.New(t)
	l, err := New(env.Client, Options{})
	if err != nil {
		t.Fatal(err)
	}
	key := env.Prefix + ":user:42"
	mustAllowN(t, l, key, PerHour(1), 1)
	if got := zcard(t, env.Client, "rl:{"+key+"}"); got != 1 {
		t.Errorf("ZCARD rl:{%s} = %d, want 1", key, got)
	}
}

// TestBadInput: every refused input gets its sentinel and writes nothing.
func TestBadInput(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	ok := PerSecond(10)
	cases := []struct {
		name  string
		key   string
		limit Limit
		n     int
		want  error
	}{
		{"empty key", "", ok, 1, ErrKey},
		{"open brace", "a{b", ok, 1, ErrKey},
		{"close brace", "a}", ok, 1, ErrKey},
		{"long key", strings.Repeat("k", MaxKeyLen+1), ok, 1, ErrKey},
		{"N 0", "k", Limit{N: 0, Window: time.Second}, 1, ErrLimit},
		{"N negative", "k", Limit{N: -5, Window: time.Second}, 1, ErrLimit},
		{"N over MaxN", "k", Limit{N: MaxN + 1, Window: time.Second}, 1, ErrLimit},
		{"zero limit", "k", Limit{}, 1, ErrLimit},
		{"window 0", "k", Limit{N: 1}, 1, ErrLimit},
		{"window negative", "k", Limit{N: 1, Window: -time.Second}, 1, ErrLimit},
		{"window under 1µs", "k", Limit{N: 1, Window: 999}, 1, ErrLimit},
		{"window not whole µs", "k", Limit{N: 1, Window: 1500}, 1, ErrLimit},
		{"window over MaxWindow", "k", Limit{N: 1, Window: MaxWindow + time.Microsecond}, 1, ErrLimit},
		{"n 0", "k", ok, 0, ErrArgument},
		{"n negative", "k", ok, -1, ErrArgument},
		{"n over MaxAllowN", "k", Limit{N: MaxN, Window: time.Second}, MaxAllowN + 1, ErrArgument},
	}
	ctx := context.Background()
	for _, c := range cases {
		if _, err := l.AllowN(ctx, c.key, c.limit, c.n); !errors.Is(err, c.want) {
			t.Errorf("%s: AllowN error %v, want %v", c.name, err, c.want)
		}
		if c.n == 1 {
			if _, err := l.Allow(ctx, c.key, c.limit); !errors.Is(err, c.want) {
				t.Errorf("%s: Allow error %v, want %v", c.name, err, c.want)
			}
		}
	}
	for _, key := range []string{"", "{", "}"} {
		if err := l.Reset(ctx, key); !errors.Is(err, ErrKey) {
			t.Errorf("Reset(%q) error %v, want ErrKey", key, err)
		}
	}
	if _, err := New(nil, Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("New(nil) error %v, want ErrOptions", err)
	}
	if _, err := New(env.Client, Options{Prefix: "a{"}); !errors.Is(err, ErrOptions) {
		t.Errorf("New with a brace in the prefix: error %v, want ErrOptions", err)
	}
	if _, err := New(env.Client, Options{Prefix: strings.Repeat("p", MaxPrefixLen+1)}); !errors.Is(err, ErrOptions) {
		t.Errorf("New with a prefix over MaxPrefixLen: error %v, want ErrOptions", err)
	}
	if _, err := New(env.Client, Options{Prefix: strings.Repeat("p", MaxPrefixLen)}); err != nil {
		t.Errorf("New with a prefix of MaxPrefixLen bytes: %v", err)
	}
	keys, err := env.Client.Do(ctx, env.Client.B().Keys().Pattern("*"+env.Prefix+"*").Build()).AsStrSlice()
	if err != nil || len(keys) != 0 {
		t.Errorf("keys written by refused calls: %v (err %v)", keys, err)
	}
}

// TestValidLimits are the edges Validate accepts.
func TestValidLimits(t *testing.T) {
	for _, l := range []Limit{PerSecond(1), PerMinute(100), PerHour(MaxN), {N: 1, Window: time.Microsecond}, {N: 1, Window: MaxWindow}} {
		if err := l.Validate(); err != nil {
			t.Errorf("%v: %v", l, err)
		}
	}
	if got, want := PerMinute(100).String(), "100 per 1m0s"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestRedisErrors: a key of another type wraps ErrRedis; a cancelled
// context wraps context.Canceled and not ErrRedis.
func TestRedisErrors(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Allow(ctx, "k", PerSecond(1)); errors.Is(err, ErrRedis) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Allow: error %v, want context.Canceled and not ErrRedis", err)
	}
	if err := l.Reset(ctx, "k"); errors.Is(err, ErrRedis) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Reset: error %v, want context.Canceled and not ErrRedis", err)
	}
	bg := context.Background()
	if err := env.Client.Do(bg, env.Client.B().Set().Key(l.prefix+"{str}").Value("x").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Allow(bg, "str", PerSecond(1)); !errors.Is(err, ErrRedis) {
		t.Errorf("Allow on a string key: error %v, want ErrRedis", err)
	}
}
