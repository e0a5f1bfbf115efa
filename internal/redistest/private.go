package redistest

import (
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisserver"
)

// Private starts a redis-server of t's own, with its data in a temporary
// directory of t and the extra redis-server args (e.g. "--appendonly",
// "yes"), and a client on it; both are closed when t ends. It serves tests
// that count what the server does (INFO commandstats, SLOWLOG), which
// other tests on the shared server would blur, or that restart it.
func Private(t testing.TB, args ...string) (*Server, rueidis.Client) {
	t.Helper()
	srv, err := StartServerWith(t.TempDir(), args...)
	if err != nil {
		t.Fatal(failure(err))
	}
	t.Cleanup(func() { srv.Close() })
	client, err := redisserver.Dial(srv.Addr)
	if err != nil {
		t.Fatalf("redistest: connect to %s: %v", srv.Addr, err)
	}
	t.Cleanup(client.Close)
	return srv, client
}
