package seeds

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// seed001Script is seed 001's sliding-window limiter as its post writes
// it: the caller's clock in ms as score and member, no expiry, no retry
// time. Two requests of one key in the same millisecond are one member: its
// bug, which also makes it cheaper.
//
//	ARGV[1] timestamp ms, ARGV[2] window ms, ARGV[3] limit
var seed001Script = rueidis.NewLuaScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1])
  return 'pass'
else
  return 'exceeded limit'
end`)

// Seed001Allow runs seed 001's script for key, n requests per window, on
// the caller's clock now, and reports whether it admitted the request.
func Seed001Allow(ctx context.Context, c rueidis.Client, key string, n int, window time.Duration, now time.Time) (bool, error) {
	args := []string{strconv.FormatInt(now.UnixMilli(), 10), strconv.FormatInt(window.Milliseconds(), 10), strconv.Itoa(n)}
	r, err := seed001Script.Exec(ctx, c, []string{key}, args).ToString()
	return r == "pass", err
}
