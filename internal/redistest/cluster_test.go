package redistest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisserver"
)

func TestClusterSpreadsKeysOverAllMasters(t *testing.T) {
	env := NewCluster(t, 3)
	if got := env.Client.Mode(); got != rueidis.ClientModeCluster {
		t.Fatalf("client mode %s, want %s", got, rueidis.ClientModeCluster)
	}
	if len(env.Addrs) != 3 {
		t.Fatalf("Addrs = %v, want 3 masters", env.Addrs)
	}
	const n = 100
	for i := range n {
		set(t, env.Client, fmt.Sprintf("%s:%d", env.Prefix, i), fmt.Sprint(i))
	}
	total := 0
	for addr, count := range keysPerNode(t, env.Addrs, env.Prefix) {
		t.Logf("%s holds %d of the %d keys", addr, count, n)
		if count == 0 {
			t.Errorf("master %s holds none of the %d keys", addr, n)
		}
		total += count
	}
	if total != n {
		t.Errorf("masters hold %d keys in all, want %d", total, n)
	}
	for i := range n {
		key := fmt.Sprintf("%s:%d", env.Prefix, i)
		if got, _ := get(t, env.Client, key); got != fmt.Sprint(i) {
			t.Errorf("GET %s = %q, want %q", key, got, fmt.Sprint(i))
		}
	}
}

func TestClusterMultiKeyCommandsNeedAHashTag(t *testing.T) {
	env := NewCluster(t, 3)
	ctx := testCtx(t)
	c := env.Client
	tag := "{" + env.Prefix + "}"
	mset := c.B().Mset().KeyValue().KeyValue(tag+":a", "1").KeyValue(tag+":b", "2").Build()
	if err := c.Do(ctx, mset).Error(); err != nil {
		t.Fatalf("MSET under one hash tag: %v", err)
	}
	got, err := c.Do(ctx, c.B().Mget().Key(tag+":a", tag+":b").Build()).AsStrSlice()
	if err != nil {
		t.Fatalf("MGET under one hash tag: %v", err)
	}
	if diff := cmp.Diff([]string{"1", "2"}, got); diff != "" {
		t.Errorf("MGET mismatch (-want +got):\n%s", diff)
	}
	// Keys without a shared tag live in different slots: a real cluster
	// refuses them in one command. (rueidis' cluster client would not even
	// build such a command: it panics, so send it through a node client.)
	node, err := redisserver.DialNode(env.Addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Close)
	a, b := env.Prefix+":a", env.Prefix+":b"
	err = node.Do(ctx, node.B().Mget().Key(a, b).Build()).Error()
	if err == nil || !strings.Contains(err.Error(), "CROSSSLOT") {
		t.Errorf("MGET %s %s: %v, want a CROSSSLOT error", a, b, err)
	}
}

func TestClusterIsSharedAndCleaned(t *testing.T) {
	var prefix string
	var first *ClusterEnv
	t.Run("writer", func(t *testing.T) {
		first = NewCluster(t, 3)
		prefix = first.Prefix
		for i := range 20 {
			set(t, first.Client, fmt.Sprintf("%s:%d", prefix, i), "x")
		}
	})
	env := NewCluster(t, 3)
	if env.Client != first.Client || env.Prefix == prefix {
		t.Errorf("second NewCluster: same client %v, prefix %q vs %q; want same client, new prefix",
			env.Client == first.Client, env.Prefix, prefix)
	}
	if diff := cmp.Diff([]string(nil), keysMatching(t, env.Client, prefix)); diff != "" {
		t.Errorf("keys left after the subtest (-want +got):\n%s", diff)
	}
}

func TestStartClusterNeedsThreeMasters(t *testing.T) {
	if _, err := StartCluster(t.TempDir(), 2); err == nil {
		t.Errorf("StartCluster with 2 masters succeeded, want an error")
	}
}

// keysPerNode counts the keys containing prefix on each node, asking each
// through its own single-node client.
func keysPerNode(t *testing.T, addrs []string, prefix string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, addr := range addrs {
		node, err := redisserver.DialNode(addr)
		if err != nil {
			t.Fatal(err)
		}
		counts[addr] = len(keysMatching(t, node, prefix))
		node.Close()
	}
	return counts
}
