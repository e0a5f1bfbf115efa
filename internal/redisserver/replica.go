package redisserver

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/redis/rueidis"
)

// syncTimeout bounds the wait for a replica's first synchronization.
const syncTimeout = 15 * time.Second

// StartReplica starts a temporary redis-server replicating master
// (--replicaof), with its data in dir (a new temporary directory when
// empty) and the extra redis-server args, and returns once the replica
// has synchronized with the master and the master counts it.
func StartReplica(dir string, master *Server, args ...string) (*Server, error) {
	host, port, err := net.SplitHostPort(master.Addr)
	if err != nil {
		return nil, err
	}
	r, err := StartServerWith(dir, append([]string{"--replicaof", host, port}, args...)...)
	if err != nil {
		return nil, err
	}
	if err := WaitReplicated(master.Addr, r.Addr); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// WaitReplicated waits until the server on replica reports its link to
// its master up and the master on master lists it as online, having
// acknowledged a write made after that (a new replica acknowledges its
// first write up to a second after its synchronization; until then a
// WAIT for it may time out). It writes and deletes a key on the master,
// redisserver:replicated.
func WaitReplicated(master, replica string) error {
	if err := touch(master); err != nil {
		return err
	}
	deadline := time.Now().Add(syncTimeout)
	for time.Now().Before(deadline) {
		r, err1 := info(replica, "replication")
		m, err2 := info(master, "replication")
		if err1 == nil && err2 == nil && r["master_link_status"] == "up" && acked(m, replica) {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("redisserver: replica %s of %s not synchronized after %v", replica, master, syncTimeout)
}

// nodeTimeout bounds the commands a replica's helpers send to one node.
const nodeTimeout = 5 * time.Second

// syncKey is the key touch writes and deletes.
const syncKey = "redisserver:replicated"

// touch makes the master on addr write to its replication stream (it sets
// then deletes syncKey), so that a replica's acknowledgement of the
// master's offset is one of a write.
func touch(addr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), nodeTimeout)
	defer cancel()
	return onNode(addr, func(c rueidis.Client) error {
		for _, r := range c.DoMulti(ctx, c.B().Set().Key(syncKey).Value("1").Build(), c.B().Del().Key(syncKey).Build()) {
			if err := r.Error(); err != nil {
				return fmt.Errorf("redisserver: write to %s: %w", addr, err)
			}
		}
		return nil
	})
}

// acked reports whether the master's INFO replication m lists the replica
// on addr online with an acknowledged offset at the master's own.
func acked(m map[string]string, addr string) bool {
	_, port, _ := net.SplitHostPort(addr)
	for i := 0; ; i++ {
		line, ok := m["slave"+strconv.Itoa(i)]
		if !ok {
			return false
		}
		f := map[string]string{}
		for _, kv := range strings.Split(line, ",") {
			k, v, _ := strings.Cut(kv, "=")
			f[k] = v
		}
		if f["port"] == port {
			return f["state"] == "online" && f["offset"] == m["master_repl_offset"]
		}
	}
}

// Promote makes the replica on addr a master (REPLICAOF NO ONE), as a
// failover does, keeping the data it holds.
func Promote(addr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), nodeTimeout)
	defer cancel()
	return onNode(addr, func(c rueidis.Client) error {
		return c.Do(ctx, c.B().Replicaof().No().One().Build()).Error()
	})
}
