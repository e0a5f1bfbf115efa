package redistest

import (
	"fmt"
	"testing"
	"time"

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

// PrivateReplicated starts a redis-server of t's own and a replica of it
// (--replicaof), both with the extra redis-server args and their data in
// temporary directories of t, and a client on the master; all are closed
// when t ends. It returns once the replica has synchronized. It serves
// tests of writes that wait for replicas (WAIT) and of failovers (kill the
// master, promote the replica with redisserver.Promote).
func PrivateReplicated(t testing.TB, args ...string) (master, replica *Server, client rueidis.Client) {
	t.Helper()
	// The master sends its first snapshot at once, not after the 5 s
	// that Redis waits by default for more replicas to share it.
	master, client = Private(t, append([]string{"--repl-diskless-sync-delay", "0"}, args...)...)
	replica, err := redisserver.StartReplica(t.TempDir(), master, args...)
	if err != nil {
		t.Fatal(failure(err))
	}
	t.Cleanup(func() { replica.Close() })
	return master, replica, client
}

// ClusterOptions shape a cluster; see [redisserver.ClusterOptions].
type ClusterOptions = redisserver.ClusterOptions

// PrivateCluster starts a Redis Cluster of t's own, shaped by o, with its
// data in a temporary directory of t, and a cluster client on it; both are
// closed when t ends. It serves tests that change the cluster's shape
// (move slots, kill a node), which would disturb the tests sharing
// NewCluster's. Starting a cluster takes a few seconds.
func PrivateCluster(t testing.TB, o ClusterOptions) (*Cluster, rueidis.Client) {
	t.Helper()
	c, err := redisserver.StartClusterWith(t.TempDir(), o)
	if err != nil {
		t.Fatal(failure(err))
	}
	t.Cleanup(func() { c.Close() })
	client, err := redisserver.Dial(c.Addrs...)
	if err != nil {
		t.Fatalf("redistest: connect to %v: %v", c.Addrs, err)
	}
	t.Cleanup(client.Close)
	return c, client
}

// ReadsWaitForRestart runs each of reads, named, while srv is down (the
// caller has crashed it), checks that none returns within 300 ms (a read
// without a deadline waits for the server), restarts srv and checks that
// each then returns nil. A read reports a wrong answer as an error.
func ReadsWaitForRestart(t testing.TB, srv *Server, reads map[string]func() error) {
	t.Helper()
	got := make(chan error, len(reads))
	for name, read := range reads {
		go func() {
			if err := read(); err != nil {
				got <- fmt.Errorf("%s: %w", name, err)
				return
			}
			got <- nil
		}()
	}
	select {
	case err := <-got:
		t.Fatalf("a read returned while the server is down: %v", err)
	case <-time.After(300 * time.Millisecond): // they wait
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	for range reads {
		if err := <-got; err != nil {
			t.Errorf("a waiting read, once the server is back: %v", err)
		}
	}
}
