package redisserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// ErrNoBinary reports that redis-server or redis-cli is not on PATH.
var ErrNoBinary = errors.New("no Redis binary")

const (
	clusterCreateTimeout = time.Minute
	clusterReadyTimeout  = 30 * time.Second
	clusterSlots         = 16384
)

// DefaultNodeTimeout is a cluster's cluster-node-timeout unless
// ClusterOptions say otherwise.
const DefaultNodeTimeout = 5 * time.Second

// clusterArgs turn a node's redis-server into a cluster node; its nodes.conf
// lives in the node's own directory.
func clusterArgs(nodeTimeout time.Duration) []string {
	return []string{
		"--cluster-enabled", "yes",
		"--cluster-config-file", "nodes.conf",
		"--cluster-node-timeout", strconv.FormatInt(nodeTimeout.Milliseconds(), 10),
	}
}

// ClusterOptions shape a cluster. The zero value is 3 masters without
// replicas and a node timeout of DefaultNodeTimeout.
type ClusterOptions struct {
	Masters     int           // at least 3; default 3
	Replicas    int           // replicas per master; default 0
	NodeTimeout time.Duration // cluster-node-timeout; default DefaultNodeTimeout
}

// Cluster is a local Redis Cluster, one redis-server process per node,
// started by this package.
type Cluster struct {
	Addrs    []string // one "127.0.0.1:port" per master, as started
	Replicas []string // one "127.0.0.1:port" per replica, as started
	Dir      string   // absolute directory holding one sub-directory per node

	nodes  []*Server
	ownDir bool
}

// StartCluster starts masters (at least 3) redis-server cluster nodes with
// their data under dir, joins them with redis-cli --cluster create and
// returns once every node reports cluster_state:ok. An empty dir means a new
// temporary directory, removed by Close.
func StartCluster(dir string, masters int) (*Cluster, error) {
	return StartClusterWith(dir, ClusterOptions{Masters: masters})
}

// StartClusterWith is StartCluster shaped by o: with o.Replicas replicas
// per master, it returns once every replica has synchronised with its
// master too.
func StartClusterWith(dir string, o ClusterOptions) (*Cluster, error) {
	o = o.withDefaults()
	if o.Masters < 3 || o.Replicas < 0 {
		return nil, fmt.Errorf("a Redis Cluster needs at least 3 masters and no negative replica count, got %d and %d", o.Masters, o.Replicas)
	}
	if err := needBinaries("redis-server", "redis-cli"); err != nil {
		return nil, fmt.Errorf("%w; a Redis Cluster is built from these binaries (REDIS_URL and Docker are not used for it)", err)
	}
	dir, own, err := serverDir(dir)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, ownDir: own}
	if err := c.start(o); err != nil {
		return nil, errors.Join(err, c.Close())
	}
	return c, nil
}

func (o ClusterOptions) withDefaults() ClusterOptions {
	if o.Masters == 0 {
		o.Masters = 3
	}
	if o.NodeTimeout == 0 {
		o.NodeTimeout = DefaultNodeTimeout
	}
	return o
}

// start starts the nodes and forms the cluster: redis-cli makes masters
// of the first o.Masters nodes given, and replicas of the others.
func (c *Cluster) start(o ClusterOptions) error {
	var all []string
	for i := range o.Masters * (1 + o.Replicas) {
		s, err := startServer(filepath.Join(c.Dir, "node-"+strconv.Itoa(i)), true, clusterArgs(o.NodeTimeout))
		if err != nil {
			return fmt.Errorf("cluster node %d: %w", i, err)
		}
		c.nodes = append(c.nodes, s)
		all = append(all, s.Addr)
	}
	if err := createCluster(all, o.Replicas); err != nil {
		return err
	}
	if err := waitClusterOK(all); err != nil {
		return err
	}
	if err := c.learnRoles(all); err != nil {
		return err
	}
	if err := waitReplicasSynced(c.Replicas); err != nil {
		return err
	}
	return c.waitMasters(o.Masters)
}

// Close stops every node and removes the directory if StartCluster created
// it.
func (c *Cluster) Close() error {
	var err error
	for _, s := range c.nodes {
		err = errors.Join(err, s.Close())
	}
	c.nodes = nil
	if c.ownDir {
		err = errors.Join(err, os.RemoveAll(c.Dir))
	}
	return err
}

// createCluster assigns the slots evenly over addrs with redis-cli, with
// replicas replicas per master.
func createCluster(addrs []string, replicas int) error {
	ctx, cancel := context.WithTimeout(context.Background(), clusterCreateTimeout)
	defer cancel()
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", strconv.Itoa(replicas), "--cluster-yes")
	out, err := exec.CommandContext(ctx, "redis-cli", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("redis-cli --cluster create: %w; output:\n%s", err, out)
	}
	return nil
}

// waitClusterOK waits until every node sees all nodes and all slots.
func waitClusterOK(addrs []string) error {
	deadline := time.Now().Add(clusterReadyTimeout)
	for {
		err := clusterOK(addrs)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cluster not ready after %v: %w", clusterReadyTimeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// clusterOK checks CLUSTER INFO on every node.
func clusterOK(addrs []string) error {
	want := map[string]string{
		"cluster_state":          "ok",
		"cluster_slots_ok":       strconv.Itoa(clusterSlots),
		"cluster_known_nodes":    strconv.Itoa(len(addrs)),
		"cluster_slots_assigned": strconv.Itoa(clusterSlots),
	}
	for _, addr := range addrs {
		fields, err := info(addr, "cluster")
		if err != nil {
			return fmt.Errorf("%s: %w", addr, err)
		}
		for k, v := range want {
			if fields[k] != v {
				return fmt.Errorf("%s: %s is %q, want %q", addr, k, fields[k], v)
			}
		}
	}
	return nil
}

// needBinaries fails with an install hint when a binary is not on PATH.
func needBinaries(names ...string) error {
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			return fmt.Errorf("%w: %s not found on PATH; install redis-server (which also provides redis-cli), "+
				"e.g. `apt-get install redis-server`", ErrNoBinary, name)
		}
	}
	return nil
}
