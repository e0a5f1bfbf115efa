package redisserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/redis/rueidis"
)

// clusterNode is one line of CLUSTER NODES.
type clusterNode struct {
	id, addr string
	flags    []string
	master   string // the id of its master, for a replica
}

func (n clusterNode) is(flag string) bool { return slices.Contains(n.flags, flag) }

// clusterNodes asks the node addr for CLUSTER NODES.
func clusterNodes(ctx context.Context, addr string) ([]clusterNode, error) {
	var text string
	err := onNode(addr, func(c rueidis.Client) (err error) {
		text, err = c.Do(ctx, c.B().ClusterNodes().Build()).ToString()
		return err
	})
	if err != nil {
		return nil, err
	}
	var nodes []clusterNode
	for line := range strings.Lines(strings.TrimPrefix(text, "txt:")) {
		f := strings.Fields(line)
		if len(f) < 8 {
			continue
		}
		addr, _, _ := strings.Cut(f[1], "@")
		nodes = append(nodes, clusterNode{id: f[0], addr: addr, flags: strings.Split(f[2], ","), master: f[3]})
	}
	return nodes, nil
}

// onNode runs f with a client on the single node addr.
func onNode(addr string, f func(rueidis.Client) error) error {
	c, err := DialNode(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	return f(c)
}

// learnRoles sets c.Addrs and c.Replicas, in the order of all, from what
// each node says of itself (INFO replication).
func (c *Cluster) learnRoles(all []string) error {
	for _, a := range all {
		fields, err := info(a, "replication")
		if err != nil {
			return fmt.Errorf("INFO replication on %s: %w", a, err)
		}
		if fields["role"] == "master" {
			c.Addrs = append(c.Addrs, a)
		} else {
			c.Replicas = append(c.Replicas, a)
		}
	}
	return nil
}

// waitMasters waits until every node counts n masters.
func (c *Cluster) waitMasters(n int) error {
	ctx, cancel := context.WithTimeout(context.Background(), clusterReadyTimeout)
	defer cancel()
	for _, s := range c.nodes {
		for {
			nodes, err := clusterNodes(ctx, s.Addr)
			count := 0
			for _, node := range nodes {
				if node.is("master") {
					count++
				}
			}
			if err == nil && count == n {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%s sees %d masters after %v, want %d (%v)", s.Addr, count, clusterReadyTimeout, n, err)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	return nil
}

// waitReplicasSynced waits until every replica's link to its master is up.
func waitReplicasSynced(replicas []string) error {
	deadline := time.Now().Add(clusterReadyTimeout)
	for _, r := range replicas {
		for {
			fields, err := info(r, "replication")
			if err == nil && fields["master_link_status"] == "up" {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("replica %s not synchronised after %v: %v %v", r, clusterReadyTimeout, fields["master_link_status"], err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nil
}

// Masters returns the masters the cluster has now, as a live node sees
// them: the started ones, less those that failed, plus the replicas that
// took over.
func (c *Cluster) Masters(ctx context.Context) ([]string, error) {
	nodes, err := c.liveNodes(ctx)
	if err != nil {
		return nil, err
	}
	var masters []string
	for _, n := range nodes {
		if n.is("master") && !n.is("fail") && !n.is("fail?") {
			masters = append(masters, n.addr)
		}
	}
	slices.Sort(masters)
	return masters, nil
}

// liveNodes returns CLUSTER NODES from the first node that answers.
func (c *Cluster) liveNodes(ctx context.Context) ([]clusterNode, error) {
	var errs []error
	for _, s := range c.nodes {
		if !s.alive() {
			continue
		}
		nodes, err := clusterNodes(ctx, s.Addr)
		if err == nil {
			return nodes, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("no cluster node answers CLUSTER NODES: %v", errs)
}

// Kill ends the node addr at once (SIGKILL), as a crash would: it saves
// nothing. The node stays down; Close does not mind.
func (c *Cluster) Kill(addr string) error {
	for _, s := range c.nodes {
		if s.Addr == addr {
			s.Kill()
			return nil
		}
	}
	return fmt.Errorf("redisserver: no node %s in the cluster", addr)
}
