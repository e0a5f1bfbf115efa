package engine_test

import (
	"context"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func TestParse(t *testing.T) {
	for _, c := range []struct {
		info       map[string]string
		name, str  string
		at72, at80 bool
	}{
		{map[string]string{"redis_version": "7.0.15"}, "redis", "redis 7.0.15", false, false},
		{map[string]string{"redis_version": "7.2.6"}, "redis", "redis 7.2.6", true, false},
		{map[string]string{"redis_version": "255.255.255"}, "redis", "redis 255.255.255", true, true},
		{map[string]string{"redis_version": "8.0.0", "server_name": "redis"}, "redis", "redis 8.0.0", true, true},
		{map[string]string{"redis_version": "7.2.4", "server_name": "valkey", "valkey_version": "8.0.1"}, "valkey",
			"valkey 8.0.1 (redis_version 7.2.4)", true, false},
		{map[string]string{"redis_version": "garbage"}, "redis", "redis garbage", false, false},
	} {
		e := engine.Parse(c.info)
		if e.Name() != c.name || e.String() != c.str || e.AtLeast(7, 2) != c.at72 || e.AtLeast(8, 0) != c.at80 ||
			e.ClientSetInfo() != c.at72 || e.ZRankWithScore() != c.at72 {
			t.Errorf("Parse(%v) = %v: name %q, AtLeast(7,2) %v, AtLeast(8,0) %v; want %q, %q, %v, %v",
				c.info, e, e.Name(), e.AtLeast(7, 2), e.AtLeast(8, 0), c.name, c.str, c.at72, c.at80)
		}
	}
}

// What Of says an engine supports is what the engine does: CLIENT
// SETINFO, an ACL rule naming it, ZRANK ... WITHSCORE.
func TestOfMatchesTheServer(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	c := env.Client
	e, err := engine.Of(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("engine: %v", e)
	if again, err := engine.Of(ctx, c); err != nil || again != e {
		t.Errorf("Of again = %v, %v; want %v", again, err, e)
	}
	setinfo := c.Do(ctx, c.B().Arbitrary("CLIENT", "SETINFO", "LIB-NAME", "tiebreak-test").Build()).Error()
	if (setinfo == nil) != e.ClientSetInfo() {
		t.Errorf("%v: CLIENT SETINFO: %v, but ClientSetInfo() = %v", e, setinfo, e.ClientSetInfo())
	}
	rule := c.Do(ctx, c.B().AclSetuser().Username(env.Prefix+"u").Rule("+client|setinfo").Build()).Error()
	if (rule == nil) != e.ClientSetInfo() {
		t.Errorf("%v: ACL SETUSER +client|setinfo: %v, but ClientSetInfo() = %v", e, rule, e.ClientSetInfo())
	}
	c.Do(ctx, c.B().AclDeluser().Username(env.Prefix+"u").Build())
	zrank := c.Do(ctx, c.B().Zrank().Key(env.Prefix+":z").Member("m").Withscore().Build()).Error()
	if rueidis.IsRedisNil(zrank) { // no such member: the command ran
		zrank = nil
	}
	if (zrank == nil) != e.ZRankWithScore() {
		t.Errorf("%v: ZRANK WITHSCORE: %v, but ZRankWithScore() = %v", e, zrank, e.ZRankWithScore())
	}
}
