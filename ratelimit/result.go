package ratelimit

import (
	"fmt"
	"strings"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/errs"
)

// Result is the limiter's answer to one Allow or AllowN. Its fields mean
// what the fields of the same names mean in go-redis/redis_rate, so code
// written for that package reads it correctly.
type Result struct {
	// Limit is the limit the request was checked against.
	Limit Limit

	// Allowed is the number of requests admitted: all that were asked for,
	// or 0 (all or nothing).
	Allowed int

	// Remaining is how many more requests the window admits right now,
	// after this call.
	Remaining int

	// RetryAfter is how long until the same request can be admitted: -1
	// when it was (as in redis_rate), else the exact time, on Redis's
	// clock, until enough of the oldest admitted requests leave the window
	// (another client may take the room first). A request that can never
	// be admitted (more than Limit.N at once) is an error instead,
	// ErrExceedsLimit.
	RetryAfter time.Duration

	// ResetAfter is how long until the window is empty again and
	// Remaining is back to Limit.N: Limit.Window right after an admission,
	// 0 when nothing is logged.
	ResetAfter time.Duration

	// At is Redis's clock when the limiter decided, to the microsecond. An
	// admitted request is logged at this instant.
	At time.Time
}

// parseResult reads allow.lua's reply to a call for n requests:
// {remaining, now µs} for an admission, {remaining, now µs, retry µs,
// reset µs} for a refusal.
func parseResult(limit Limit, n int, r rueidis.RedisResult) (Result, error) {
	if err := r.Error(); err != nil {
		if rerr, ok := rueidis.IsRedisErr(err); ok && strings.HasPrefix(rerr.Error(), "TBFOREIGN ") {
			return Result{}, fmt.Errorf("Allow: the key's log holds %s, which no Limiter wrote (another program writes the key): %w",
				clip.Quote(strings.TrimPrefix(rerr.Error(), "TBFOREIGN ")), ErrReply)
		}
		return Result{}, errs.FromRedis("Allow", err)
	}
	arr, err := r.ToArray()
	if err != nil {
		return Result{}, fmt.Errorf("Allow: %w: %w", ErrReply, err)
	}
	if len(arr) != 2 && len(arr) != 4 {
		return Result{}, fmt.Errorf("Allow: reply of %d elements, want 2 or 4: %w", len(arr), ErrReply)
	}
	var v [4]int64
	for i := range arr {
		if v[i], err = arr[i].AsInt64(); err != nil {
			return Result{}, fmt.Errorf("Allow: reply element %d: %w: %w", i, ErrReply, err)
		}
	}
	res := Result{Limit: limit, Remaining: int(v[0]), At: time.UnixMicro(v[1])}
	switch {
	case len(arr) == 2:
		res.Allowed, res.RetryAfter, res.ResetAfter = n, -1, limit.Window
	case v[2] < 0: // n > N: AllowN refuses it before calling Redis
		return Result{}, fmt.Errorf("Allow: retry %d for n = %d: %w", v[2], n, ErrReply)
	default:
		res.RetryAfter, res.ResetAfter = usecs(v[2]), usecs(v[3])
	}
	return res, nil
}

func usecs(us int64) time.Duration { return time.Duration(us) * time.Microsecond }
