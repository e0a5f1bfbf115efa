package redistest

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/redis/rueidis"
)

// CommandStats returns the microseconds Redis has spent in the commands
// whose INFO commandstats name (without "cmdstat_") starts with one of
// prefixes, and their number of calls: benchmarks difference two readings
// to report what an operation costs the server itself. Lower-case names,
// e.g. "evalsha" (which also matches evalsha_ro), "multi", "zrange".
func CommandStats(ctx context.Context, client rueidis.Client, prefixes ...string) (usec, calls float64, err error) {
	info, err := client.Do(ctx, client.B().Info().Section("commandstats").Build()).ToString()
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(info, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		name = strings.TrimPrefix(name, "cmdstat_")
		if !ok || !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(name, p) }) {
			continue
		}
		for _, kv := range strings.Split(rest, ",") {
			k, v, _ := strings.Cut(kv, "=")
			n, _ := strconv.ParseFloat(v, 64)
			switch k {
			case "usec":
				usec += n
			case "calls":
				calls += n
			}
		}
	}
	return usec, calls, nil
}
