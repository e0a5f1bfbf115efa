// Package redisrate is go-redis/redis_rate's GCRA limiter as the peer of
// the ratelimit workload (benchload.RLPeer): the limiter users pick
// instead of tiebreak's, measured on the same Redis in the same run. It
// lives in the bench command's module, so that go-redis never enters the
// library's.
package redisrate

import (
	"context"
	"fmt"
	"os"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
	"github.com/tiebreak/tiebreak/internal/benchload"
	"github.com/tiebreak/tiebreak/ratelimit"
)

// Name names the peer's rows.
const Name = "redis_rate"

// keyPrefix is what redis_rate puts before every key it limits.
const keyPrefix = "rate:"

// Connect returns a go-redis client of the server at REDIS_URL when set,
// else at addr (host:port): the Redis the bench command or a test
// measures.
func Connect(addr string) (*redis.Client, error) {
	if url := os.Getenv("REDIS_URL"); url != "" {
		opt, err := redis.ParseURL(url)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL for go-redis: %w", err)
		}
		return redis.NewClient(opt), nil
	}
	return redis.NewClient(&redis.Options{Addr: addr}), nil
}

// Peer returns redis_rate's limiter on rdb as a peer. A limit of N per
// Window is redis_rate.Limit{Rate: N, Period: Window, Burst: N}: N
// requests at once on an idle key, then one per Window/N, as the sliding
// log admits N in any window.
func Peer(rdb *redis.Client) *benchload.RLPeer {
	l := redis_rate.NewLimiter(rdb)
	return &benchload.RLPeer{
		Name:     Name,
		Commands: []string{"evalsha"},
		Key:      func(key string) string { return keyPrefix + key },
		Allow: func(ctx context.Context, key string, limit ratelimit.Limit) (bool, error) {
			r, err := l.Allow(ctx, key, Limit(limit))
			if err != nil {
				return false, err
			}
			return r.Allowed == 1, nil
		},
	}
}

// Limit is limit in redis_rate's terms: rate and burst N per Window.
func Limit(limit ratelimit.Limit) redis_rate.Limit {
	return redis_rate.Limit{Rate: limit.N, Burst: limit.N, Period: limit.Window}
}
