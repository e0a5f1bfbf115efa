package redisconn

import (
	"context"
	"strings"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func ping(t *testing.T, c *Conn) {
	t.Helper()
	if err := c.Client.Do(context.Background(), c.Client.B().Ping().Build()).Error(); err != nil {
		t.Fatalf("PING through %s: %v", c.Where, err)
	}
}

// With REDIS_URL set, Connect uses it.
func TestConnectREDIS_URL(t *testing.T) {
	env := redistest.New(t)
	t.Setenv("REDIS_URL", "redis://"+env.Addr)
	c, err := Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ping(t, c)
	if !strings.HasPrefix(c.Where, "REDIS_URL") {
		t.Errorf("Where = %q", c.Where)
	}
	t.Setenv("REDIS_URL", "::not a url")
	if _, err := Connect(); err == nil {
		t.Error("a malformed REDIS_URL was accepted")
	}
}

// Without REDIS_URL, Connect starts a redis-server from PATH (the tests
// need one anyway) and stops it on Close.
func TestConnectRedisServer(t *testing.T) {
	t.Setenv("REDIS_URL", "")
	c, err := Connect()
	if err != nil {
		t.Fatal(err)
	}
	ping(t, c)
	if !strings.Contains(c.Where, "redis-server") {
		t.Errorf("Where = %q", c.Where)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
