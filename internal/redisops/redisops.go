// Package redisops holds the few Redis reads that the tests, the
// benchmarks and the example programs share: INFO parsed into fields, the
// time Redis spent in commands (INFO commandstats), and a SCAN of every
// node. They are written once, here.
package redisops

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/redis/rueidis"
)

// ParseInfo turns INFO's "key:value" lines into a map, skipping the
// "# Section" lines. RESP3 sends INFO and CLUSTER INFO as verbatim
// strings, which rueidis returns with their "txt:" format prefix.
func ParseInfo(text string) map[string]string {
	fields := map[string]string{}
	for line := range strings.Lines(strings.TrimPrefix(text, "txt:")) {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok && !strings.HasPrefix(k, "#") {
			fields[k] = v
		}
	}
	return fields
}

// Info runs INFO section on client and returns its fields.
func Info(ctx context.Context, client rueidis.Client, section string) (map[string]string, error) {
	text, err := client.Do(ctx, client.B().Info().Section(section).Build()).ToString()
	if err != nil {
		return nil, err
	}
	return ParseInfo(text), nil
}

// CommandStats returns the microseconds Redis has spent in the commands
// whose INFO commandstats name (without "cmdstat_") starts with one of
// prefixes, and their number of calls. Lower-case names, e.g. "evalsha"
// (which also matches evalsha_ro), "multi", "zrange".
func CommandStats(ctx context.Context, client rueidis.Client, prefixes ...string) (usec, calls float64, err error) {
	stats, err := commandStats(ctx, client)
	for name, st := range stats {
		if slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(name, p) }) {
			usec += st[0]
			calls += st[1]
		}
	}
	return usec, calls, err
}

// CommandCalls returns the number of calls of every command Redis has run
// since its start or its last CONFIG RESETSTAT, by INFO commandstats name
// without "cmdstat_": "evalsha", "eval", "script|load", "zadd". Tests
// count with it the commands an operation sends.
func CommandCalls(ctx context.Context, client rueidis.Client) (map[string]int64, error) {
	stats, err := commandStats(ctx, client)
	calls := make(map[string]int64, len(stats))
	for name, st := range stats {
		calls[name] = int64(st[1])
	}
	return calls, err
}

// commandStats reads INFO commandstats: per command name, its usec and
// calls.
func commandStats(ctx context.Context, client rueidis.Client) (map[string][2]float64, error) {
	fields, err := Info(ctx, client, "commandstats")
	if err != nil {
		return nil, err
	}
	stats := make(map[string][2]float64, len(fields))
	for name, value := range fields {
		var st [2]float64
		for kv := range strings.SplitSeq(value, ",") {
			k, v, _ := strings.Cut(kv, "=")
			n, _ := strconv.ParseFloat(v, 64)
			switch k {
			case "usec":
				st[0] = n
			case "calls":
				st[1] = n
			}
		}
		stats[strings.TrimPrefix(name, "cmdstat_")] = st
	}
	return stats, nil
}

// ScanKeys returns the keys matching the glob pattern on every node of
// client (one node, or every master of a cluster).
func ScanKeys(ctx context.Context, client rueidis.Client, pattern string) ([]string, error) {
	var keys []string
	for _, node := range client.Nodes() {
		var cursor uint64
		for {
			cmd := node.B().Scan().Cursor(cursor).Match(pattern).Count(1000).Build()
			e, err := node.Do(ctx, cmd).AsScanEntry()
			if err != nil {
				return nil, err
			}
			keys = append(keys, e.Elements...)
			if cursor = e.Cursor; cursor == 0 {
				break
			}
		}
	}
	return keys, nil
}

// CPUSeconds returns the CPU time (INFO cpu, user + system, in seconds)
// the server has used: read twice around a measurement, it gives what the
// measured operations cost Redis itself, network reads and writes
// included.
func CPUSeconds(ctx context.Context, client rueidis.Client) (float64, error) {
	m, err := Info(ctx, client, "cpu")
	if err != nil {
		return 0, err
	}
	user, err1 := strconv.ParseFloat(m["used_cpu_user"], 64)
	sys, err2 := strconv.ParseFloat(m["used_cpu_sys"], 64)
	return user + sys, errors.Join(err1, err2)
}

// Unlink deletes keys, one UNLINK each (they may live in different cluster
// slots), pipelined.
func Unlink(ctx context.Context, client rueidis.Client, keys ...string) error {
	cmds := make(rueidis.Commands, len(keys))
	for i, k := range keys {
		cmds[i] = client.B().Unlink().Key(k).Build()
	}
	var errs []error
	for _, r := range client.DoMulti(ctx, cmds...) {
		errs = append(errs, r.Error())
	}
	return errors.Join(errs...)
}

// FirstErr returns the first error among the replies of a pipeline, or
// nil.
func FirstErr(replies []rueidis.RedisResult) error {
	for _, r := range replies {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

// NilOK turns Redis's nil reply (a missing key or field) into no error.
func NilOK(err error) error {
	if rueidis.IsRedisNil(err) {
		return nil
	}
	return err
}
