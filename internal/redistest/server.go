package redistest

import "github.com/tiebreak/tiebreak/internal/redisserver"

// Server is a redis-server process started by StartServer; see
// [redisserver.Server].
type Server = redisserver.Server

// Cluster is a local Redis Cluster started by StartCluster; see
// [redisserver.Cluster].
type Cluster = redisserver.Cluster

// StartServer starts a temporary redis-server; see [redisserver.StartServer].
func StartServer(dir string) (*Server, error) { return redisserver.StartServer(dir) }

// StartServerWith is StartServer with extra redis-server arguments; see
// [redisserver.StartServerWith].
func StartServerWith(dir string, args ...string) (*Server, error) {
	return redisserver.StartServerWith(dir, args...)
}

// StartCluster starts a local Redis Cluster; see [redisserver.StartCluster].
func StartCluster(dir string, masters int) (*Cluster, error) {
	return redisserver.StartCluster(dir, masters)
}
