package redisops_test

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func TestCommandStats(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	_, c0, err := redisops.CommandStats(ctx, env.Client, "zadd", "zcard")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		env.Client.Do(ctx, env.Client.B().Zadd().Key(env.Prefix+":z").ScoreMember().ScoreMember(1, "m").Build())
		env.Client.Do(ctx, env.Client.B().Zcard().Key(env.Prefix+":z").Build())
	}
	u1, c1, err := redisops.CommandStats(ctx, env.Client, "zadd", "zcard")
	if err != nil || c1-c0 != 10 || u1 <= 0 {
		t.Errorf("CommandStats: %v more calls, %v µs in all, %v; want 10 more calls", c1-c0, u1, err)
	}
	if _, c, _ := redisops.CommandStats(ctx, env.Client, "nosuchcommand"); c != 0 {
		t.Errorf("calls of an unknown command = %v", c)
	}
}

func TestScanKeys(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	var want []string
	for i := range 2500 { // more than one SCAN page
		k := env.Prefix + ":" + strconv.Itoa(i)
		want = append(want, k)
		env.Client.Do(ctx, env.Client.B().Set().Key(k).Value("v").Build())
	}
	got, err := redisops.ScanKeys(ctx, env.Client, env.Prefix+":*")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ScanKeys (-want +got):\n%s", diff)
	}
}

func TestParseInfo(t *testing.T) {
	if diff := cmp.Diff(map[string]string{"cluster_state": "ok"}, redisops.ParseInfo("txt:cluster_state:ok\r\n")); diff != "" {
		t.Errorf("parseInfo of a verbatim string mismatch (-want +got):\n%s", diff)
	}
	text := "txt:# Server\r\nredis_version:7.0.15\r\nprocess_id:42\r\n\r\n# Cluster\r\ncluster_enabled:0\r\n"
	want := map[string]string{"redis_version": "7.0.15", "process_id": "42", "cluster_enabled": "0"}
	if diff := cmp.Diff(want, redisops.ParseInfo(text)); diff != "" {
		t.Errorf("parseInfo mismatch (-want +got):\n%s", diff)
	}
}

func TestCommandCalls(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	c0, err := redisops.CommandCalls(ctx, env.Client)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		env.Client.Do(ctx, env.Client.B().Zcard().Key(env.Prefix+":z").Build())
		env.Client.Do(ctx, env.Client.B().ScriptExists().Sha1("0").Build())
	}
	c1, err := redisops.CommandCalls(ctx, env.Client)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{"zcard": c1["zcard"] - c0["zcard"], "script|exists": c1["script|exists"] - c0["script|exists"]}
	if diff := cmp.Diff(map[string]int64{"zcard": 3, "script|exists": 3}, got); diff != "" {
		t.Errorf("CommandCalls, differences (-want +got):\n%s", diff)
	}
}

func TestCPUSecondsGrows(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	s0, err := redisops.CPUSeconds(ctx, env.Client)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		env.Client.Do(ctx, env.Client.B().Zadd().Key(env.Prefix+":z").ScoreMember().ScoreMember(float64(i), strconv.Itoa(i)).Build())
	}
	if s1, err := redisops.CPUSeconds(ctx, env.Client); err != nil || !(s1 > s0) {
		t.Errorf("CPU seconds %v then %v (%v): want growth after 2000 commands", s0, s1, err)
	}
}

func TestUnlinkAndFirstErr(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	keys := []string{env.Prefix + ":a", env.Prefix + ":b"}
	c := env.Client
	err := redisops.FirstErr(c.DoMulti(ctx, c.B().Set().Key(keys[0]).Value("1").Build(), c.B().Set().Key(keys[1]).Value("2").Build()))
	if err != nil {
		t.Fatal(err)
	}
	if err := redisops.Unlink(ctx, c, keys...); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Do(ctx, c.B().Exists().Key(keys...).Build()).AsInt64(); n != 0 || err != nil {
		t.Errorf("after Unlink, %d keys exist (%v)", n, err)
	}
	// LPUSH on a string key is a WRONGTYPE error: FirstErr reports it.
	c.Do(ctx, c.B().Set().Key(keys[0]).Value("s").Build())
	err = redisops.FirstErr(c.DoMulti(ctx, c.B().Get().Key(keys[0]).Build(), c.B().Lpush().Key(keys[0]).Element("x").Build()))
	if err == nil {
		t.Error("FirstErr missed a WRONGTYPE reply")
	}
	if err := redisops.NilOK(c.Do(ctx, c.B().Get().Key(env.Prefix+":none").Build()).Error()); err != nil {
		t.Errorf("NilOK(nil reply) = %v", err)
	}
}
