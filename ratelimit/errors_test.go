package ratelimit

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// Every refusal names what failed, with its value and range, and says
// "ratelimit: " once.
func TestErrorsNameWhatFailed(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	ctx := context.Background()
	_, optErr := New(env.Client, Options{Prefix: "a{"})
	for _, c := range []struct {
		err  error
		want string
	}{
		{errOf(l.AllowN(ctx, "k", PerHour(3), 0)), "n = 0 out of range [1, limit.N = 3]"},
		{errOf(l.AllowN(ctx, "k", PerHour(3), 4)), "n = 4, limit.N = 3"},
		{errOf(l.AllowN(ctx, "k", PerHour(MaxN), MaxAllowN+1)), "n = 1001 over MaxAllowN = 1000"},
		{errOf(New(env.Client, Options{Prefix: strings.Repeat("p", 65)})), "Options.Prefix of 65 bytes, over 64"},
		{errOf(l.Allow(ctx, "k", Limit{N: 0, Window: time.Second})), "Limit.N = 0 out of range"},
		{errOf(l.Allow(ctx, "k", Limit{N: 1, Window: time.Nanosecond})), "Limit.Window = 1ns out of range"},
		{errOf(l.Allow(ctx, "", PerHour(3))), "key is empty"},
		{errOf(l.Allow(ctx, strings.Repeat("k", MaxKeyLen+1), PerHour(3))), "out of range [1, 512]"},
		{l.Reset(ctx, "a}b"), "holds a brace"},
		{optErr, `Options.Prefix = "a{"`},
	} {
		if c.err == nil {
			t.Errorf("want an error saying %q, got nil", c.want)
			continue
		}
		if !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %q does not say %q", c.err, c.want)
		}
		if n := strings.Count(c.err.Error(), "ratelimit: "); n != 1 {
			t.Errorf("error %q says %q %d times", c.err, "ratelimit: ", n)
		}
	}
}

func errOf[T any](_ T, err error) error { return err }

// A log written by another program (a member that is no time) is
// ErrReply naming the member, whichever entry the call reads: the j-th
// newest (whether n fits) or the newest (when the log empties), and
// nothing is added to it.
func TestForeignLogIsErrReply(t *testing.T) {
	env := redistest.New(t)
	l := newLimiter(t, env.Client, env.Prefix)
	ctx := context.Background()
	c := env.Client
	now, err := c.Do(ctx, c.B().Time().Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	stamp := now[0] + strings.Repeat("0", 6-len(now[1])) + now[1]
	for _, tc := range []struct {
		key   string
		limit Limit
		zadd  []string // score member ...
	}{
		{"jth", PerSecond(1), []string{"5", "garbage", "-1e300", "x"}},
		{"newest", Limit{N: 2, Window: time.Hour}, []string{stamp, stamp, stamp + "1", "garbage"}},
		// Text Lua's tonumber reads as a number is no time either.
		{"nan", PerSecond(1), []string{"5", "nan"}},
		{"hex", PerSecond(1), []string{"5", "0x10"}},
		{"exp", PerSecond(1), []string{"5", "1e999"}},
		{"colon", PerSecond(1), []string{"5", "12:x"}},
	} {
		key := env.Prefix + ":{" + tc.key + "}"
		if err := c.Do(ctx, c.B().Arbitrary("ZADD").Keys(key).Args(tc.zadd...).Build()).Error(); err != nil {
			t.Fatal(err)
		}
		_, err := l.Allow(ctx, tc.key, tc.limit)
		foreign := strconv.Quote(tc.zadd[len(tc.zadd)-1])
		if tc.key == "jth" || tc.key == "newest" {
			foreign = `"garbage"`
		}
		if !errors.Is(err, ErrReply) || !strings.Contains(err.Error(), foreign) || errors.Is(err, ErrRedis) {
			t.Errorf("%s: Allow over a foreign log = %v; want ErrReply naming the member", tc.key, err)
		}
		if named := "ratelimit: key " + strconv.Quote(tc.key) + ": Allow: "; err == nil || !strings.HasPrefix(err.Error(), named) {
			t.Errorf("%s: Allow over a foreign log = %v; want it to start %q", tc.key, err, named)
		}
		if n, err := c.Do(ctx, c.B().Zcard().Key(key).Build()).AsInt64(); err != nil || n != int64(len(tc.zadd)/2) {
			t.Errorf("%s: the log holds %d entries, %v; want the %d written, nothing added", tc.key, n, err, len(tc.zadd)/2)
		}
	}
}
