package ratelimit

import (
	"maps"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// maxCachedLimits bounds a Limiter's argument cache: past it, the
// arguments of further limits are formatted on every call.
const maxCachedLimits = 256

// limitArgs are a limit's arguments to allow.lua, formatted once.
type limitArgs struct {
	n, window      string // ARGV[1] limit, ARGV[2] window in µs
	ttlMin, ttlSet string // ARGV[4], ARGV[5]: TTLs in ms, see allow.lua
}

func newLimitArgs(l Limit) *limitArgs {
	ms := int64((l.Window + time.Millisecond - 1) / time.Millisecond)
	return &limitArgs{
		n:      strconv.Itoa(l.N),
		window: strconv.FormatInt(l.Window.Microseconds(), 10),
		ttlMin: strconv.FormatInt(ms+1, 10),
		ttlSet: strconv.FormatInt(2*ms+1, 10),
	}
}

// argCache maps the limits a Limiter has seen to their formatted
// arguments. Readers take no lock: the map is replaced, never changed.
type argCache struct {
	mu sync.Mutex // serializes writers
	m  atomic.Pointer[map[Limit]*limitArgs]
}

func (c *argCache) get(l Limit) *limitArgs {
	if m := c.m.Load(); m != nil {
		if a := (*m)[l]; a != nil {
			return a
		}
	}
	a := newLimitArgs(l)
	c.mu.Lock()
	defer c.mu.Unlock()
	m := map[Limit]*limitArgs{l: a}
	if old := c.m.Load(); old != nil {
		if len(*old) >= maxCachedLimits {
			return a
		}
		m = maps.Clone(*old)
		m[l] = a
	}
	c.m.Store(&m)
	return a
}
