package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// serverEngine returns the name and major version of the redis-server on
// PATH, the engine the tests start: "Valkey" or "Redis".
func serverEngine(t *testing.T) (string, int) {
	t.Helper()
	out, err := exec.Command("redis-server", "--version").Output()
	if err != nil {
		t.Fatalf("redis-server --version: %v", err)
	}
	m := regexp.MustCompile(`^(\w+) server v=(\d+)\.`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("redis-server --version: %q names no engine and version", out)
	}
	major, _ := strconv.Atoi(m[2])
	return m[1], major
}

// board describe on a cluster gives each slot of a board, its own and its
// shards', with what CLUSTER SLOT-STATS reports of it where the engine
// answers the command (Valkey 8 and later must), and says the statistics
// are not offered where it does not.
func TestSlotStats(t *testing.T) {
	engine, major := serverEngine(t)
	bin := filepath.Join(t.TempDir(), "tiebreak")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cluster, client := redistest.PrivateCluster(t, redistest.ClusterOptions{Masters: 3})
	c := &cli{t: t, bin: bin, url: "redis://" + cluster.Addrs[0], env: withoutRedisURL()}
	ctx := t.Context()

	// Whether every master answers CLUSTER SLOT-STATS, and counts CPU
	// and network once asked to.
	offered, counting := true, true
	for _, addr := range cluster.Addrs {
		node, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true, DisableCache: true})
		if err != nil {
			t.Fatal(err)
		}
		defer node.Close()
		if err := node.Do(ctx, node.B().ClusterSlotStats().Slotsrange().StartSlot(0).EndSlot(0).Build()).Error(); err != nil {
			offered = false
		}
		if err := node.Do(ctx, node.B().ConfigSet().ParameterValue().ParameterValue("cluster-slot-stats-enabled", "yes").Build()).Error(); err != nil {
			counting = false
		}
	}
	if engine == "Valkey" && major >= 8 && (!offered || !counting) {
		t.Fatalf("%s %d: CLUSTER SLOT-STATS answered %v, cluster-slot-stats-enabled set %v; want both", engine, major, offered, counting)
	}
	t.Logf("%s %d: slot statistics offered: %v", engine, major, offered)

	name := "slotstats_" + strings.ReplaceAll(t.Name(), "/", "_")
	seedArena(t, ctx, client, name, board.Options{DenseRanks: true})
	sharded := seedArena(t, ctx, client, name+"_sharded", board.Options{Shards: 2})
	if _, err := sharded.Get(ctx, "ann"); err != nil {
		t.Fatal(err)
	}

	for _, b := range []string{name, name + "_sharded"} {
		var d description
		c.json(&d, "board", "describe", b)
		if d.SlotStats != offered {
			t.Errorf("board describe %s: slot statistics offered %v, want %v", b, d.SlotStats, offered)
		}
		tags := append([]string{b}, d.Descriptor.ShardNames...)
		if len(d.Slots) != len(tags) {
			t.Fatalf("board describe %s: slots %+v, want one for each of %q", b, d.Slots, tags)
		}
		for i, s := range d.Slots {
			slot, err := client.Do(ctx, client.B().ClusterKeyslot().Key("{"+tags[i]+"}").Build()).AsInt64()
			if err != nil {
				t.Fatal(err)
			}
			if s.Object != tags[i] || s.HashTag != tags[i] || int64(s.Slot) != slot {
				t.Errorf("board describe %s: slot %+v, want %s in slot %d", b, s, tags[i], slot)
			}
			if !offered {
				if s.Keys != nil || s.CPUUsec != nil || s.NetworkBytesIn != nil || s.NetworkBytesOut != nil {
					t.Errorf("board describe %s: statistics %+v where the server offers none", b, s)
				}
				continue
			}
			// The slot holds the object's keys and no other: the
			// cluster is the test's own.
			keys, err := redisops.ScanKeys(ctx, client, "tb:{"+tags[i]+"}:*")
			if err != nil {
				t.Fatal(err)
			}
			if s.Keys == nil || *s.Keys != int64(len(keys)) {
				t.Errorf("board describe %s: slot %d of %s holds %v keys, want %d (%q)", b, s.Slot, tags[i], s.Keys, len(keys), keys)
			}
			// Every object was written and read since the counting began.
			for what, v := range map[string]*int64{"CPU µs": s.CPUUsec, "bytes in": s.NetworkBytesIn, "bytes out": s.NetworkBytesOut} {
				if counting && (v == nil || *v <= 0) {
					t.Errorf("board describe %s: slot %d of %s: %s %v, want more than 0", b, s.Slot, tags[i], what, v)
				}
			}
		}
		out := c.ok("board", "describe", b)
		if !offered {
			if !regexp.MustCompile(`\nslot statistics +` + notOffered + `\n`).MatchString(out) {
				t.Errorf("board describe %s does not say the statistics are not offered:\n%s", b, out)
			}
			continue
		}
		for _, s := range d.Slots {
			stats := `\d+ keys?, \d+ µs CPU, \d+ bytes in, \d+ bytes out\n`
			if !counting {
				stats = `\d+ keys?, CPU and network not counted \(cluster-slot-stats-enabled no\)\n`
			}
			want := regexp.MustCompile(strconv.Itoa(s.Slot) + ` \(hash tag \{` + regexp.QuoteMeta(s.HashTag) + `\}\): ` + stats)
			if !want.MatchString(out) {
				t.Errorf("board describe %s lacks the statistics of slot %d:\n%s", b, s.Slot, out)
			}
		}
		if !regexp.MustCompile(`\nslot statistics +CLUSTER SLOT-STATS `).MatchString(out) {
			t.Errorf("board describe %s does not say where the statistics come from:\n%s", b, out)
		}
	}
	if !offered {
		return
	}
	// A user whose ACL refuses the statistics is told so, not that the
	// server has none.
	for _, addr := range cluster.Addrs {
		node, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true, DisableCache: true})
		if err != nil {
			t.Fatal(err)
		}
		defer node.Close()
		if err := node.Do(ctx, node.B().AclSetuser().Username("nostats").Rule("on", ">pw", "+@all", "-cluster|slot-stats", "~*").Build()).Error(); err != nil {
			t.Fatal(err)
		}
	}
	nc := &cli{t: t, bin: bin, url: "redis://nostats:pw@" + cluster.Addrs[0], env: withoutRedisURL()}
	var d description
	nc.json(&d, "board", "describe", name)
	if d.SlotStats || !d.SlotStatsRefused {
		t.Errorf("board describe as a user refused the statistics: offered %v, refused %v; want false, true", d.SlotStats, d.SlotStatsRefused)
	}
	if out := nc.ok("board", "describe", name); !strings.Contains(out, "slot statistics  "+refused+"\n") {
		t.Errorf("board describe as a user refused the statistics does not say so:\n%s", out)
	}
}
