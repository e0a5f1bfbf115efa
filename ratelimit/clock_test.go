package ratelimit

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// clocked is allow.lua with Redis's TIME replaced by a clock the test
// sets (ARGV[6] seconds, ARGV[7] µs), so boundaries and a clock stepping
// backward can be checked to the microsecond. Everything else is the
// production script.
var clocked = func() *rueidis.Lua {
	const call = "redis.call('TIME')"
	if strings.Count(allowSrc, call) != 1 {
		panic("allow.lua does not read TIME exactly once")
	}
	return rueidis.NewLuaScript(strings.Replace(allowSrc, call, "{ARGV[6], ARGV[7]}", 1))
}()

// clockT0 is the fake clock's origin, in µs: a realistic Unix time.
const clockT0 = int64(1_718_000_000_000_000)

// allowAt runs the production logic for key at fake time clockT0 + at.
func allowAt(t *testing.T, env *redistest.Env, key string, limit Limit, n int, at time.Duration) Result {
	t.Helper()
	now := clockT0 + at.Microseconds()
	a := newLimitArgs(limit)
	args := []string{a.n, a.window, strconv.Itoa(n), a.ttlMin, a.ttlSet, strconv.FormatInt(now/1e6, 10), strconv.FormatInt(now%1e6, 10)}
	res, err := parseResult(limit, n, clocked.Exec(context.Background(), env.Client, []string{key}, args))
	if err != nil {
		t.Fatalf("allow at %v: %v", at, err)
	}
	if got := res.At.UnixMicro(); got != now {
		t.Fatalf("allow at %v: At %d, want %d", at, got, now)
	}
	return res
}

// TestBoundaries checks the window's edges to the microsecond: an entry
// counts while now - W < s, RetryAfter and ResetAfter are exact, and a
// retry one microsecond early is refused.
func TestBoundaries(t *testing.T) {
	env := redistest.New(t)
	key := "rl:{" + env.Prefix + "}"
	lim := Limit{N: 3, Window: time.Second}
	ms := time.Millisecond
	for _, at := range []time.Duration{0, 100 * ms, 250 * ms} {
		if r := allowAt(t, env, key, lim, 1, at); r.Allowed != 1 {
			t.Fatalf("at %v: refused: %+v", at, r)
		}
	}
	res := allowAt(t, env, key, lim, 1, 400*ms)
	want := Result{Limit: lim, RetryAfter: 600 * ms, ResetAfter: 850 * ms, At: time.UnixMicro(clockT0 + 400_000)}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("4th call (-want +got):\n%s", diff)
	}
	two := allowAt(t, env, key, lim, 2, 400*ms) // two must wait for the 2nd oldest
	if two.RetryAfter != 700*ms {
		t.Errorf("AllowN(2) RetryAfter = %v, want 700ms", two.RetryAfter)
	}
	if r := allowAt(t, env, key, lim, 1, time.Second-time.Microsecond); r.Allowed != 0 || r.RetryAfter != time.Microsecond {
		t.Errorf("1µs before the oldest leaves: %+v, want refused, RetryAfter 1µs", r)
	}
	if r := allowAt(t, env, key, lim, 1, time.Second); r.Allowed != 1 || r.Remaining != 0 {
		t.Errorf("when the oldest leaves: %+v, want admitted, Remaining 0", r)
	}
	if r := allowAt(t, env, key, lim, 3, 2*time.Second-time.Microsecond); r.Allowed != 0 || r.ResetAfter != time.Microsecond || r.Remaining != 2 {
		t.Errorf("1µs before the log empties: %+v, want refused, ResetAfter 1µs, Remaining 2", r)
	}
	if r := allowAt(t, env, key, lim, 3, 2*time.Second); r.Allowed != 3 {
		t.Errorf("when the log empties: %+v, want 3 admitted", r)
	}
}

// TestSameMicrosecond: requests of one microsecond are all logged, from
// one AllowN or from separate calls, so the limit holds (the naive limiter's
// member = timestamp would have kept one entry and admitted more).
func TestSameMicrosecond(t *testing.T) {
	env := redistest.New(t)
	key := "rl:{" + env.Prefix + "}"
	lim := Limit{N: 5, Window: time.Second}
	if r := allowAt(t, env, key, lim, 3, 0); r.Allowed != 3 {
		t.Fatalf("AllowN(3): %+v", r)
	}
	for i, want := range []int{1, 1, 0} {
		if r := allowAt(t, env, key, lim, 1, 0); r.Allowed != want {
			t.Errorf("call %d at the same µs: Allowed %d, want %d", i+1, r.Allowed, want)
		}
	}
	if got := zcard(t, env.Client, key); got != 5 {
		t.Errorf("ZCARD = %d, want 5", got)
	}
}

// TestClockStepsBack replays a backward step of Redis's clock, the one
// case where members' positions may already be taken in their microsecond:
// each request takes the next free member, nothing is lost, the limit
// holds, and entries logged "in the future" keep counting.
func TestClockStepsBack(t *testing.T) {
	env := redistest.New(t)
	key := "rl:{" + env.Prefix + "}"
	lim := Limit{N: 10, Window: 10 * time.Second}
	s := time.Second
	allowAt(t, env, key, lim, 3, 0)    // T0:1 T0:2 T0:3
	allowAt(t, env, key, lim, 2, 5*s)  // T5:4 T5:5
	allowAt(t, env, key, lim, 1, 12*s) // drops T0:*; T12
	// Back to 5s: 3 entries count, so positions 4 and 5, both taken.
	if r := allowAt(t, env, key, lim, 2, 5*s); r.Allowed != 2 || r.Remaining != 5 {
		t.Errorf("AllowN(2) at taken positions: %+v, want admitted, Remaining 5", r)
	}
	allowAt(t, env, key, lim, 1, 5*s) // T5, free
	if r := allowAt(t, env, key, lim, 1, 5*s); r.Allowed != 1 || r.Remaining != 3 {
		t.Errorf("Allow at a taken time: %+v, want admitted, Remaining 3", r)
	}
	t5 := stampOf(5 * s)
	want := []string{t5, t5 + ":4", t5 + ":5", t5 + ":6", t5 + ":7", t5 + ":8", stampOf(12 * s)}
	got, err := env.Client.Do(context.Background(), env.Client.B().Zrange().Key(key).Min("0").Max("-1").Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
	full := Limit{N: 7, Window: lim.Window}
	r := allowAt(t, env, key, full, 1, 5*s)
	want1 := Result{Limit: full, RetryAfter: 10 * s, ResetAfter: 17 * s, At: time.UnixMicro(clockT0 + 5e6)}
	if diff := cmp.Diff(want1, r); diff != "" {
		t.Errorf("full log after the step (-want +got):\n%s", diff)
	}
}

// TestExpiryNeverEarlier: an admission under a shorter window, while the
// longer window's entry is still inside the shorter one, leaves the expiry
// the longer window set. (Once the entry has left the shorter window, that
// call drops it: keep one Window per key.) On the fake clock, so the two
// calls are 500µs apart however slow the machine.
func TestExpiryNeverEarlier(t *testing.T) {
	env := redistest.New(t)
	key := "rl:{" + env.Prefix + "}"
	allowAt(t, env, key, PerHour(10), 1, 0)
	if r := allowAt(t, env, key, Limit{N: 10, Window: time.Millisecond}, 1, 500*time.Microsecond); r.Remaining != 8 {
		t.Errorf("1ms window 500µs later: %+v, want Remaining 8 (the hour's entry still counts)", r)
	}
	if got := pttl(t, env.Client, key); got < 2*time.Hour-time.Minute {
		t.Errorf("PTTL after an admission with a 1ms window = %v, want about 2h (the hour window's)", got)
	}
}

// stampOf is the plain member of an entry at fake time clockT0 + at.
func stampOf(at time.Duration) string {
	return strconv.FormatInt(clockT0+at.Microseconds(), 10)
}
