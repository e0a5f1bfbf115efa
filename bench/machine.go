package main

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// Machine is the computer the client ran on.
type Machine struct {
	CPU        string `json:"cpu"`
	Cores      int    `json:"cores"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	MemoryGiB  int    `json:"memory_gib,omitempty"`
	GoVersion  string `json:"go_version"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	// LoadStart and LoadEnd are the 1-minute load averages when the run
	// started and ended: how busy the (shared) machine was.
	LoadStart string `json:"load_start,omitempty"`
	LoadEnd   string `json:"load_end,omitempty"`
}

// machine describes this computer.
func machine() Machine {
	return Machine{
		CPU:        cpuModel(),
		Cores:      runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		MemoryGiB:  memoryGiB(),
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		LoadStart:  loadAverage(),
	}
}

// procField returns the value of the first "key: value" line of a /proc
// file whose key is key, or "".
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// cpuModel is the CPU's model name where the OS says (Linux), else "".
func cpuModel() string { return procField("/proc/cpuinfo", "model name") }

// memoryGiB is the machine's memory in GiB where the OS says (Linux).
func memoryGiB() int {
	kb, _ := strconv.Atoi(strings.TrimSuffix(procField("/proc/meminfo", "MemTotal"), " kB"))
	return (kb + 1<<19) >> 20
}

// loadAverage is the 1-minute load average where the OS says (Linux).
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return strings.Fields(string(data) + " ")[0]
}

// RedisInfo is the server measured and the settings that move the numbers.
type RedisInfo struct {
	Source string `json:"source"`
	// Engine names the server and its version, as "redis 7.2.6" or
	// "valkey 8.0.1 (redis_version 7.2.4)" (see internal/engine).
	Engine string `json:"engine"`
	// ServerName, ValkeyVersion and RedisVersion are INFO server's
	// server_name ("valkey" on Valkey, "" on Redis before 8),
	// valkey_version ("" on Redis) and redis_version (on Valkey, the
	// Redis version it is compatible with), as reported.
	ServerName    string `json:"server_name"`
	ValkeyVersion string `json:"valkey_version"`
	RedisVersion  string `json:"redis_version"`
	// Version is the engine's own version: valkey_version on Valkey,
	// else redis_version.
	Version string `json:"version"`
	// ZRankWithScore reports whether the engine's ZRANK takes WITHSCORE
	// (Redis 7.2+, Valkey 8), which the packed board's native write then
	// sends in place of ZSCORE and ZRANK.
	ZRankWithScore bool   `json:"zrank_withscore"`
	Mode           string `json:"mode"`
	OS             string `json:"os"`
	Memory         string `json:"allocator"`
	// Client is the Redis client module and version, with its default
	// settings for every variant.
	Client string            `json:"client"`
	Config map[string]string `json:"config"`
}

// redisConfigKeys are the CONFIG GET parameters recorded with the results.
var redisConfigKeys = []string{
	"maxmemory", "maxmemory-policy", "io-threads", "io-threads-do-reads",
	"appendonly", "appendfsync", "save", "hz", "activedefrag",
	"lazyfree-lazy-user-del", "zset-max-listpack-entries",
	"zset-max-listpack-value", "hash-max-listpack-entries",
	"hash-max-listpack-value", "lua-time-limit", "busy-reply-threshold",
}

// redisInfo reads the server's engine and version (INFO) and configuration (CONFIG
// GET, one parameter per call so older servers answer too). A parameter the
// server refuses or lacks is left out: managed services disable CONFIG.
func redisInfo(ctx context.Context, c rueidis.Client, source string) (RedisInfo, error) {
	server, err := redisops.Info(ctx, c, "server")
	if err != nil {
		return RedisInfo{}, err
	}
	mem, err := redisops.Info(ctx, c, "memory")
	if err != nil {
		return RedisInfo{}, err
	}
	e := engine.Parse(server)
	ri := RedisInfo{Source: source, Engine: e.String(), ServerName: e.ServerName, ValkeyVersion: e.ValkeyVersion,
		RedisVersion: e.RedisVersion, Version: e.Version(), ZRankWithScore: e.ZRankWithScore(), Mode: server["redis_mode"],
		OS: server["os"], Memory: mem["mem_allocator"], Client: clientVersion(), Config: map[string]string{}}
	cmds := make(rueidis.Commands, len(redisConfigKeys))
	for i, k := range redisConfigKeys {
		cmds[i] = c.B().ConfigGet().Parameter(k).Build()
	}
	for _, r := range c.DoMulti(ctx, cmds...) {
		kv, err := r.AsStrMap()
		for k, v := range kv {
			if err == nil {
				ri.Config[k] = v
			}
		}
	}
	return ri, nil
}

// clientVersion is the rueidis module version this binary was built with.
func clientVersion() string {
	const mod = "github.com/redis/rueidis"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == mod {
				return mod + " " + d.Version
			}
		}
	}
	return mod
}
