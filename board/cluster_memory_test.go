package board

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// The beyond-one-node demonstration's sizes: the board's entries, the
// entries whose memory sets the bytes per entry, the entries per
// SubmitMany, the shards, and each node's room for the board's data as a
// share of the whole board's: below 1, so no node can hold the board, and
// well above 1/3, so three nodes can.
const (
	beyondEntries = 40_000
	beyondSample  = 5_000
	beyondChunk   = 1_000
	beyondShards  = 6
	beyondRoom    = 0.6
)

// nodeMemory reads used_memory and maxmemory of every master.
func nodeMemory(t *testing.T, nodes map[string]rueidis.Client) (used, limit map[string]int64) {
	t.Helper()
	used, limit = map[string]int64{}, map[string]int64{}
	for addr, c := range nodes {
		info, err := redisops.Info(t.Context(), c, "memory")
		if err != nil {
			t.Fatalf("INFO memory on %s: %v", addr, err)
		}
		used[addr], err = strconv.ParseInt(info["used_memory"], 10, 64)
		if err != nil {
			t.Fatalf("used_memory on %s: %q", addr, info["used_memory"])
		}
		limit[addr], _ = strconv.ParseInt(info["maxmemory"], 10, 64)
	}
	return used, limit
}

// settledMemory waits for every node's used_memory to stop falling (a
// dropped key is freed in the background) and returns it.
func settledMemory(t *testing.T, nodes map[string]rueidis.Client) map[string]int64 {
	t.Helper()
	prev, _ := nodeMemory(t, nodes)
	for range 50 {
		time.Sleep(50 * time.Millisecond)
		cur, _ := nodeMemory(t, nodes)
		if cmp.Equal(cur, prev) {
			return cur
		}
		prev = cur
	}
	return prev
}

// dialMasters connects to every master on its own.
func dialMasters(t *testing.T, c *redistest.Cluster) map[string]rueidis.Client {
	t.Helper()
	nodes := map[string]rueidis.Client{}
	for _, addr := range c.Addrs {
		n, err := redisserver.DialNode(addr)
		if err != nil {
			t.Fatalf("connect to %s: %v", addr, err)
		}
		t.Cleanup(n.Close)
		nodes[addr] = n
	}
	return nodes
}

// beyondLoad submits entries [from, to) of subs in chunks through
// submitMany and returns how many were stored before the first error, and
// that error.
func beyondLoad(ctx context.Context, subs []Submission, submitMany func(context.Context, []Submission) []ManyResult) (int, error) {
	stored := 0
	for from := 0; from < len(subs); from += beyondChunk {
		for _, r := range submitMany(ctx, subs[from:min(from+beyondChunk, len(subs))]) {
			if r.Err != nil {
				return stored, r.Err
			}
			stored++
		}
	}
	return stored, nil
}

// beyondEntriesOf draws n entries with many ties (2,000 distinct tuples),
// so that ties ordered by id run across shards.
func beyondEntriesOf(rng *rand.Rand, n int) []Submission {
	subs := make([]Submission, n)
	for i := range subs {
		subs[i] = Submission{ID: fmt.Sprintf("player:%06d", rng.IntN(10*n)),
			Values: []float64{float64(rng.IntN(100)), float64(rng.IntN(2)), float64(rng.IntN(10))}}
	}
	return subs
}

// A board too large for any node of a 3-master cluster whose nodes each
// have a maxmemory of 0.6 times the board's size: a board, on one node, is
// refused with OOM part way; the same entries sharded over the three
// nodes fit, each node below its maxmemory, and every read answers what
// the model does.
func TestShardedBeyondOneNode(t *testing.T) {
	ctx := t.Context()
	cluster, client := redistest.PrivateCluster(t, redistest.ClusterOptions{Masters: 3})
	nodes := dialMasters(t, cluster)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	l := testLayout(t)

	// Bytes per entry: a board of a sample of entries, on its node.
	base := settledMemory(t, nodes)
	sample, err := New(ctx, client, "sample", l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := beyondLoad(ctx, beyondEntriesOf(rng, beyondSample), sample.SubmitMany); err != nil {
		t.Fatalf("loading the sample: %v", err)
	}
	n, err := sample.Len(ctx)
	if err != nil {
		t.Fatal(err)
	}
	loaded, _ := nodeMemory(t, nodes)
	var grown int64
	for addr := range nodes {
		grown = max(grown, loaded[addr]-base[addr])
	}
	perEntry := float64(grown) / float64(n)
	if err := sample.Drop(ctx); err != nil {
		t.Fatal(err)
	}

	// Every node gets room for 0.6 times the board.
	subs := beyondEntriesOf(rng, beyondEntries)
	model := newModel(l)
	for _, s := range subs {
		model.vals[s.ID] = s.Values
	}
	room := int64(beyondRoom * perEntry * float64(len(model.vals)))
	base = settledMemory(t, nodes)
	for addr, c := range nodes {
		for _, kv := range [][2]string{{"maxmemory-policy", "noeviction"}, {"maxmemory", strconv.FormatInt(base[addr]+room, 10)}} {
			if err := c.Do(ctx, c.B().ConfigSet().ParameterValue().ParameterValue(kv[0], kv[1]).Build()).Error(); err != nil {
				t.Fatalf("CONFIG SET %s on %s: %v", kv[0], addr, err)
			}
		}
	}
	t.Logf("%d entries of %.0f bytes (%.1f MB); maxmemory per node: used %v + %d bytes of room",
		len(model.vals), perEntry, perEntry*float64(len(model.vals))/1e6, base, room)

	// A board lives on one node: refused part way.
	plain, err := New(ctx, client, "plain", l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := beyondLoad(ctx, subs, plain.SubmitMany)
	if !errors.Is(err, ErrRedis) || !strings.Contains(err.Error(), "OOM") {
		t.Fatalf("a board of %d entries on one node: stored %d, err = %v; want an OOM wrapping ErrRedis", len(subs), stored, err)
	}
	t.Logf("a board on one node: refused after %d of %d submissions: %v", stored, len(subs), err)
	if err := plain.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	settledMemory(t, nodes)

	// The same entries over the shards, which spread over the nodes.
	sb, err := New(ctx, client, "sharded", l, Options{Shards: beyondShards})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := beyondLoad(ctx, subs, sb.SubmitMany); err != nil {
		t.Fatalf("the sharded board: %v", err)
	}
	checkSpread(t, cluster, nodes, sb, base, len(model.vals))
	checkBeyondReads(t, sb, model)
}

// checkSpread asserts that every node holds at least one shard and a fair
// share of the entries, and is below its maxmemory.
func checkSpread(t *testing.T, cluster *redistest.Cluster, nodes map[string]rueidis.Client, sb *Board, base map[string]int64, total int) {
	t.Helper()
	ctx := t.Context()
	shards, entries := map[string]int{}, map[string]int64{}
	for i, s := range sb.sh.view.Load().shards {
		key := s.gen.Load().keys.z
		slot, err := cluster.SlotOf(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		owner, err := cluster.SlotOwner(ctx, slot)
		if err != nil {
			t.Fatal(err)
		}
		n, err := nodes[owner].Do(ctx, nodes[owner].B().Zcard().Key(key).Build()).AsInt64()
		if err != nil {
			t.Fatalf("ZCARD of shard %d on %s: %v", i, owner, err)
		}
		shards[owner]++
		entries[owner] += n
	}
	used, limit := nodeMemory(t, nodes)
	for addr := range nodes {
		t.Logf("node %s: %d shards, %d entries, used_memory %d (%d over the start: %.0f bytes per entry) of maxmemory %d",
			addr, shards[addr], entries[addr], used[addr], used[addr]-base[addr], float64(used[addr]-base[addr])/float64(max(entries[addr], 1)), limit[addr])
		if shards[addr] < 1 {
			t.Errorf("node %s holds no shard", addr)
		}
		if share := float64(entries[addr]) / float64(total); share < 0.2 {
			t.Errorf("node %s holds %.0f%% of the entries, want at least 20%%", addr, 100*share)
		}
		if used[addr] >= limit[addr] || limit[addr] == 0 {
			t.Errorf("node %s: used_memory %d, maxmemory %d", addr, used[addr], limit[addr])
		}
	}
}

// checkBeyondReads compares every kind of read of sb, at rest, with the
// model's answer.
func checkBeyondReads(t *testing.T, sb *Board, m *model) {
	t.Helper()
	ctx := t.Context()
	m.ranks = readConfig{comp: true}
	withComp := m.sorted()
	plain := make([]Entry, len(withComp))
	for i, e := range withComp {
		e.Competition = 0
		plain[i] = e
	}
	total := int64(len(plain))
	page := func(all []Entry, offset, n int) List {
		return List{Total: -1, Entries: append([]Entry{}, all[min(offset, len(all)):min(offset+n, len(all))]...)}
	}
	comp := WithRanks(Competition)
	check := func(what string, want, got any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", what, diff)
		}
	}

	n, err := sb.Len(ctx)
	check("Len", total, n, err)
	top, err := sb.Top(ctx, 100)
	check("Top(100)", page(plain, 0, 100), top, err)
	for _, off := range []int{0, 1, 950, 999, 1000, 1001, 2500, 12_345, int(total) / 2, int(total) - 60, int(total) - 1, int(total)} {
		got, err := sb.Page(ctx, int64(off), 50)
		check(fmt.Sprintf("Page(%d, 50)", off), page(plain, off, 50), got, err)
		got, err = sb.Page(ctx, int64(off), 7, comp)
		check(fmt.Sprintf("Page(%d, 7, Competition)", off), page(withComp, off, 7), got, err)
	}
	for _, r := range []int{0, 1, 5, 500, 1000, 7000, int(total) / 3, int(total) - 3, int(total) - 1} {
		e := plain[r]
		got, err := sb.Around(ctx, e.ID, 11)
		start := max(0, min(r-5, int(total)-11))
		check("Around("+e.ID+", 11)", page(plain, start, 11), got, err)
	}
	for i := 0; i < 200; i++ {
		e := withComp[rand.IntN(len(withComp))]
		got, err := sb.Get(ctx, e.ID, comp)
		check("Get("+e.ID+", Competition)", e, got, err)
		r, err := sb.Rank(ctx, e.ID, Ordinal)
		check("Rank("+e.ID+", Ordinal)", e.Rank, r, err)
		r, err = sb.Rank(ctx, e.ID, Competition)
		check("Rank("+e.ID+", Competition)", e.Competition, r, err)
	}
	if _, err := sb.Get(ctx, "player:absent"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get of an absent id: err = %v, want ErrNotFound", err)
	}
	scanned, err := scanAll(ctx, sb, maxCount)
	check("Scan through all, 1000 a page", page(plain, 0, len(plain)), scanned, err)

	var between []Entry
	for _, e := range plain {
		if e.Values[0] >= 40 && e.Values[0] <= 60 {
			between = append(between, e)
		}
	}
	for _, off := range []int{0, 900, 3000} {
		got, err := sb.Between(ctx, 40, 60, int64(off), 100)
		check(fmt.Sprintf("Between(40, 60, %d, 100)", off), page(between, off, 100), got, err)
	}

	ids := []string{"player:absent"}
	for i := 0; i < 300; i++ {
		ids = append(ids, plain[rand.IntN(len(plain))].ID)
	}
	m.ranks = readConfig{}
	among, err := sb.Among(ctx, ids)
	check("Among(300 ids)", m.among(ids), among, err)
}
