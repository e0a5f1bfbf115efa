package redistest

import (
	"context"
	"testing"
)

func TestCommandStats(t *testing.T) {
	env := New(t)
	ctx := context.Background()
	_, c0, err := CommandStats(ctx, env.Client, "zadd", "zcard")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		env.Client.Do(ctx, env.Client.B().Zadd().Key(env.Prefix+":z").ScoreMember().ScoreMember(1, "m").Build())
		env.Client.Do(ctx, env.Client.B().Zcard().Key(env.Prefix+":z").Build())
	}
	u1, c1, err := CommandStats(ctx, env.Client, "zadd", "zcard")
	if err != nil || c1-c0 != 10 || u1 <= 0 {
		t.Errorf("CommandStats: %v more calls, %v µs in all, %v; want 10 more calls", c1-c0, u1, err)
	}
	if _, c, _ := CommandStats(ctx, env.Client, "nosuchcommand"); c != 0 {
		t.Errorf("calls of an unknown command = %v", c)
	}
}
