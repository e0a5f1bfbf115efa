package ratelimit

import (
	"fmt"
	"math"
	"time"
)

// MaxN is the largest Limit.N: a log holds one entry per admitted request,
// so even this is far beyond what a log limiter should be asked to keep.
const MaxN = math.MaxInt32

// MaxAllowN is the most requests one AllowN asks for: a call logs one
// entry per request in one script, and this many keep it to about a
// millisecond of Redis time (a million blocked Redis for over a second).
// Ask for more in several calls, or use a limit of coarser units.
const MaxAllowN = 1000

// MaxWindow is the longest Limit.Window, about 100 years: Redis's clock
// plus the window, in microseconds, stays below 2^53, where a sorted-set
// score is still an exact integer.
const MaxWindow = 100 * 365 * 24 * time.Hour

// Limit is N requests per Window: in every interval of length Window, at
// most N requests are admitted.
type Limit struct {
	// N is the most requests admitted in any window, in [1, MaxN].
	N int
	// Window is the length of the sliding window: at least 1µs, at most
	// MaxWindow, a whole number of microseconds (Redis's clock counts
	// microseconds).
	Window time.Duration
}

// PerSecond returns a limit of n requests per second.
func PerSecond(n int) Limit { return Limit{N: n, Window: time.Second} }

// PerMinute returns a limit of n requests per minute.
func PerMinute(n int) Limit { return Limit{N: n, Window: time.Minute} }

// PerHour returns a limit of n requests per hour.
func PerHour(n int) Limit { return Limit{N: n, Window: time.Hour} }

// String returns the limit as "100 per 1m0s".
func (l Limit) String() string { return fmt.Sprintf("%d per %v", l.N, l.Window) }

// Validate reports (ErrLimit) a limit that Allow and AllowN would refuse:
// N outside [1, MaxN], Window outside [1µs, MaxWindow] or not a whole
// number of microseconds.
func (l Limit) Validate() error {
	switch {
	case l.N < 1 || l.N > MaxN:
		return fmt.Errorf("ratelimit: Limit.N = %d out of range [1, %d]: %w", l.N, MaxN, ErrLimit)
	case l.Window < time.Microsecond || l.Window > MaxWindow:
		return fmt.Errorf("ratelimit: Limit.Window = %v out of range [1µs, %v]: %w", l.Window, MaxWindow, ErrLimit)
	case l.Window%time.Microsecond != 0:
		return fmt.Errorf("ratelimit: Limit.Window = %v is not a whole number of microseconds: %w", l.Window, ErrLimit)
	}
	return nil
}
