package redistest

import (
	"context"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// CommandStats returns the microseconds Redis has spent in the commands
// whose INFO commandstats name starts with one of prefixes, and their
// number of calls: benchmarks difference two readings to report what an
// operation costs the server itself. See [redisops.CommandStats].
func CommandStats(ctx context.Context, client rueidis.Client, prefixes ...string) (usec, calls float64, err error) {
	return redisops.CommandStats(ctx, client, prefixes...)
}
