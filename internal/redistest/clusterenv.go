package redistest

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisserver"
)

// ClusterEnv is one test's view of a real local Redis Cluster.
type ClusterEnv struct {
	Client rueidis.Client // cluster client, shared per test binary; do NOT close it in tests
	Addrs  []string       // "127.0.0.1:port" of every master
	Prefix string         // as Env.Prefix; every key containing it is deleted when the test ends
}

// sharedCluster is the cluster of one size shared by a test binary.
type sharedCluster struct {
	once    sync.Once
	cluster *Cluster
	client  rueidis.Client
	err     error
}

var (
	clustersMu sync.Mutex
	clusters   = map[int]*sharedCluster{}
)

// NewCluster returns a ClusterEnv on a Redis Cluster of masters masters (at
// least 3) started from the redis-server binary and shared per test binary
// per size. It fails t, saying how to install Redis, when redis-server or
// redis-cli is missing. Starting a cluster takes a few seconds.
func NewCluster(t testing.TB, masters int) *ClusterEnv {
	t.Helper()
	requireMain(t)
	sc := clusterOfSize(masters)
	sc.once.Do(func() { sc.open(masters) })
	if sc.err != nil {
		t.Fatalf("%s (NewCluster(%d))", failure(sc.err), masters)
	}
	env := &ClusterEnv{Client: sc.client, Addrs: slices.Clone(sc.cluster.Addrs), Prefix: newPrefix()}
	cleanupKeys(t, sc.client, env.Prefix)
	return env
}

// clusterOfSize returns the shared entry for clusters of masters masters.
func clusterOfSize(masters int) *sharedCluster {
	clustersMu.Lock()
	defer clustersMu.Unlock()
	sc := clusters[masters]
	if sc == nil {
		sc = &sharedCluster{}
		clusters[masters] = sc
	}
	return sc
}

// open starts the cluster and its client, both stopped by Main.
func (sc *sharedCluster) open(masters int) {
	c, err := StartCluster("", masters)
	if err != nil {
		sc.err = err
		return
	}
	atExit(c.Close)
	client, err := redisserver.Dial(c.Addrs...)
	if err != nil {
		sc.err = fmt.Errorf("connect to %v: %w", c.Addrs, err)
		return
	}
	atExit(closeClient(client))
	if mode := client.Mode(); mode != rueidis.ClientModeCluster {
		sc.err = fmt.Errorf("client to %v is in %s mode, want cluster", c.Addrs, mode)
		return
	}
	sc.cluster, sc.client = c, client
}
