package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
)

func testLimiter(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := context.Background()
	key := env.Prefix + ":user:42"
	seedLimiter(t, ctx, env.Client, key, ratelimit.PerMinute(10), 3)
	members, err := env.Client.Do(ctx, env.Client.B().Zrange().Key("rl:{"+key+"}").Min("0").Max("-1").Build()).AsStrSlice()
	if err != nil || len(members) != 3 {
		t.Fatalf("the log holds %q, %v; want 3 members", members, err)
	}
	at := func(m string) time.Time {
		us, err := strconv.ParseInt(strings.SplitN(m, ":", 2)[0], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return time.UnixMicro(us)
	}
	oldest, newest := at(members[0]), at(members[2])

	var got limiterOut
	c.json(&got, "limiter", "get", key, "--window", "1m", "--limit", "10")
	ten, seven := 10, int64(7)
	want := limiterOut{Key: key, RedisKey: "rl:{" + key + "}", Window: "1m0s", Count: 3, Limit: &ten, Remaining: &seven,
		Oldest: stampMicro(oldest), Newest: stampMicro(newest), ResetAt: stampMicro(newest.Add(time.Minute)), Entries: 3}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(limiterOut{}, "Now", "ExpireAt")); diff != "" {
		t.Errorf("limiter get --json (-want +got):\n%s", diff)
	}
	now, err := time.Parse(time.RFC3339Nano, got.Now)
	if err != nil || now.Before(newest) {
		t.Errorf("now = %q (%v), want Redis's clock, after the newest admission %s", got.Now, err, stampMicro(newest))
	}
	if exp, err := time.Parse(time.RFC3339Nano, got.ExpireAt); err != nil || exp.Before(newest.Add(time.Minute)) {
		t.Errorf("expireAt = %q (%v), want at least a window after the newest admission", got.ExpireAt, err)
	}

	// A window of 1µs has let every admission go by now.
	time.Sleep(2 * time.Millisecond)
	var gone limiterOut
	c.json(&gone, "limiter", "get", key, "--window", "1us")
	want = limiterOut{Key: key, RedisKey: "rl:{" + key + "}", Window: "1µs", Newest: stampMicro(newest), Entries: 3}
	if diff := cmp.Diff(want, gone, cmpopts.IgnoreFields(limiterOut{}, "Now", "ExpireAt")); diff != "" {
		t.Errorf("limiter get --window 1us --json (-want +got):\n%s", diff)
	}

	out := c.ok("limiter", "get", key, "--window", "1m", "--limit", "10")
	for _, line := range []string{
		"key         " + key + " (rl:{" + key + "})\n",
		"count       3 of 10, 7 remaining\n",
		"resets at   " + stampMicro(newest.Add(time.Minute)) + " (the newest admission leaves the window)\n",
		"entries     3 logged (0 past the window, dropped by the next admission)\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("limiter get lacks %q:\n%s", line, out)
		}
	}
	c.fails(exitUsage, []string{"--window is required"}, "limiter", "get", key)
	// A window a limit would refuse (ratelimit.Limit.Validate) is refused.
	c.fails(exitUsage, []string{"--window 1.5µs", "not a whole number of microseconds"}, "limiter", "get", key, "--window", "1.5us")
	c.fails(exitUsage, []string{"--window 876001h0m0s", "Limit.Window"}, "limiter", "get", key, "--window", "876001h")
	c.fails(exitFailure, []string{`no limiter named "` + key + `x"`}, "limiter", "get", key+"x", "--window", "1m")
}
