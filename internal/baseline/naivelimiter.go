package baseline

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// naiveLogScript is the naive log limiter as it is usually written: the caller's clock in ms as score and member, no expiry, no retry
// time. Two requests of one key in the same millisecond are one member: its
// bug, which also makes it cheaper.
//
//	ARGV[1] timestamp ms, ARGV[2] window ms, ARGV[3] limit
var naiveLogScript = rueidis.NewLuaScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1])
  return 'pass'
else
  return 'exceeded limit'
end`)

// NaiveLogAllow runs the naive log limiter for key, n requests per window, on
// the caller's clock now, and reports whether it admitted the request.
func NaiveLogAllow(ctx context.Context, c rueidis.Client, key string, n int, window time.Duration, now time.Time) (bool, error) {
	args := []string{strconv.FormatInt(now.UnixMilli(), 10), strconv.FormatInt(window.Milliseconds(), 10), strconv.Itoa(n)}
	r, err := naiveLogScript.Exec(ctx, c, []string{key}, args).ToString()
	return r == "pass", err
}
