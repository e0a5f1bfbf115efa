package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// model is the in-memory specification of one key's log: the admission
// times, in µs, in ascending order, that count in the window of the last
// call (log), and all of them since the key was last reset (all).
type model struct{ log, all []int64 }

// allowN decides as the limiter must at time now (µs).
func (m *model) allowN(now int64, limit Limit, n int) Result {
	w := limit.Window.Microseconds()
	m.log = slices.DeleteFunc(m.log, func(s int64) bool { return s <= now-w })
	count := len(m.log)
	res := Result{Limit: limit, At: time.UnixMicro(now)}
	if count+n <= limit.N {
		for range n {
			m.log, m.all = append(m.log, now), append(m.all, now)
		}
		slices.Sort(m.log)
		slices.Sort(m.all)
		res.Allowed, res.Remaining, res.RetryAfter, res.ResetAfter = n, limit.N-count-n, -1, limit.Window
		return res
	}
	res.Remaining = max(limit.N-count, 0)
	if count > 0 {
		res.ResetAfter = usec(m.log[count-1] + w - now)
	}
	res.RetryAfter = usec(m.log[count+n-limit.N-1] + w - now)
	return res
}

// inWindow counts the logged requests that count at time now: by brute
// force, independently of allowN's arithmetic.
func (m *model) inWindow(now int64, w time.Duration) int {
	c := 0
	for _, s := range m.log {
		if now-w.Microseconds() < s && s <= now {
			c++
		}
	}
	return c
}

func usec(us int64) time.Duration { return time.Duration(us) * time.Microsecond }

// checkRetry checks RetryAfter against its definition: n fits at
// At + RetryAfter, not one microsecond earlier.
func checkRetry(t *testing.T, m *model, res Result, n int) {
	t.Helper()
	if res.Allowed > 0 {
		return
	}
	at := res.At.UnixMicro() + res.RetryAfter.Microseconds()
	if got := m.inWindow(at, res.Limit.Window); got+n > res.Limit.N {
		t.Errorf("RetryAfter %v: %d logged at +%v, %d more do not fit in %v", res.RetryAfter, got, res.RetryAfter, n, res.Limit)
	}
	if got := m.inWindow(at-1, res.Limit.Window); got+n <= res.Limit.N {
		t.Errorf("RetryAfter %v: %d more would already fit 1µs earlier (%d logged)", res.RetryAfter, n, got)
	}
}

// checkLog compares the key's sorted set with the model: one entry per
// admitted request, score its time in µs, member that time, maybe followed
// by ":<position>". The log holds what the model's counts, and maybe older
// entries that have left the window but are not dropped yet: a suffix of
// all the model's admissions. Or it is gone, if the key expired while
// idle, its entries all out of the window by the time it was read. It
// returns how many entries were kept that the model had dropped.
func checkLog(t *testing.T, env *redistest.Env, key string, m *model, w time.Duration) (stale int) {
	t.Helper()
	c := env.Client
	r := c.DoMulti(context.Background(), c.B().Zrange().Key(key).Min("0").Max("-1").Withscores().Build(), c.B().Time().Build())
	zs, err := r[0].AsZScores()
	if err != nil {
		t.Fatalf("ZRANGE %s: %v", key, err)
	}
	tm, err := r[1].AsStrSlice()
	if err != nil {
		t.Fatalf("TIME: %v", err)
	}
	got := make([]int64, len(zs))
	for i, z := range zs {
		got[i] = int64(z.Score)
		stamp, pos, cut := strings.Cut(z.Member, ":")
		if p, err := strconv.Atoi(pos); stamp != strconv.FormatInt(got[i], 10) || cut && (err != nil || p < 1) {
			t.Errorf("member %q with score %d", z.Member, got[i])
		}
	}
	if read := redisTime(t, tm).UnixMicro(); len(got) == 0 && m.inWindow(read, w) == 0 {
		return 0
	}
	want := m.log
	if len(got) > len(m.log) && len(got) <= len(m.all) {
		want = m.all[len(m.all)-len(got):]
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("log of %s (-want +got):\n%s", key, diff)
	}
	return len(got) - len(m.log)
}

// TestDifferential runs random AllowN and Reset calls on a few keys, with
// short windows that slide during the test, and checks every Result and
// every log against the model, at the time Redis decided.
func TestDifferential(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	limits := []Limit{{N: 3, Window: 15 * time.Millisecond}, {N: 5, Window: 25 * time.Millisecond}, {N: 1, Window: 4 * time.Millisecond}}
	models := make([]model, len(limits))
	rng := rand.New(rand.NewPCG(1, 2))
	counts := map[string]int{}
	for op := range 600 {
		i := rng.IntN(len(limits))
		key := "k" + strconv.Itoa(i)
		limit := limits[i]
		if i == 1 && rng.IntN(3) == 0 { // key 1 is also checked under a lower N
			limit.N = 2
		}
		if rng.IntN(40) == 0 {
			if err := l.Reset(context.Background(), key); err != nil {
				t.Fatal(err)
			}
			models[i], counts["reset"] = model{}, counts["reset"]+1
			continue
		}
		n := 1 + rng.IntN(limit.N+1)*rng.IntN(2) // half the calls n = 1; up to N+1
		if n > limit.N {
			if _, err := l.AllowN(context.Background(), key, limit, n); !errors.Is(err, ErrExceedsLimit) {
				t.Fatalf("op %d: AllowN(%s, %v, %d) err = %v, want ErrExceedsLimit", op, key, limit, n, err)
			}
			counts["exceeds"]++
			continue
		}
		res := mustAllowN(t, l, key, limit, n)
		want := models[i].allowN(res.At.UnixMicro(), limit, n)
		if diff := cmp.Diff(want, res); diff != "" {
			t.Fatalf("op %d: AllowN(%s, %v, %d) (-want +got):\n%s", op, key, limit, n, diff)
		}
		checkRetry(t, &models[i], res, n)
		if checkLog(t, env, l.prefix+"{"+key+"}", &models[i], limit.Window) > 0 {
			counts["stale kept"]++
		}
		counts[fmt.Sprintf("allowed=%t", res.Allowed > 0)]++
		time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
	}
	t.Logf("outcomes: %v", counts)
	for _, c := range []string{"allowed=true", "allowed=false", "exceeds", "reset", "stale kept"} {
		if counts[c] == 0 {
			t.Errorf("no call had outcome %q: the workload does not cover it", c)
		}
	}
}
