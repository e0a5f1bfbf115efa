package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/errs"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/internal/redisretry"
	"github.com/tiebreak/tiebreak/observe"
)

// Bounds and default of Options.WaitReplicas and Options.WaitTimeout.
const (
	MaxWaitReplicas    = durable.MaxReplicas
	DefaultWaitTimeout = durable.DefaultTimeout
	MaxWaitTimeout     = durable.MaxTimeout
)

// Options configure a Limiter. The zero value means every default.
type Options struct {
	// Prefix starts the Redis key of every limited key: key k is logged
	// at Prefix + "{" + k + "}". Default DefaultPrefix ("rl:"); at most
	// MaxPrefixLen bytes. A brace is refused: it would change the hash
	// tag.
	Prefix string

	// WaitReplicas is how many replicas must acknowledge each write
	// (AllowN, also when it refuses, and Reset) before it returns: Redis's WAIT, sent right after the write
	// on the same connection, in the same round trip. A write that fewer
	// replicas acknowledged within WaitTimeout returns its result with an
	// error wrapping ErrNotReplicated: the master applied it, but a
	// failover may lose it. Default 0: no waiting. At most
	// MaxWaitReplicas.
	WaitReplicas int

	// WaitTimeout is how long a write waits for its replicas (rounded up
	// to whole milliseconds). Default DefaultWaitTimeout (1s); at most
	// MaxWaitTimeout (1 minute). Used only with WaitReplicas or WaitAOF.
	WaitTimeout time.Duration

	// WaitAOF makes each write return once it is in the master's
	// append-only file on disk and, with WaitReplicas, in that many
	// replicas' files (WAITAOF, sent after the write in the same round
	// trip), so that it survives the master's crash and restart as well as
	// a failover. A write the disks did not acknowledge within WaitTimeout
	// returns its result with an error wrapping ErrNotReplicated. It needs
	// Redis or Valkey 7.2 or later with appendonly yes: on another server
	// every write is refused, writing nothing, with an error wrapping
	// ErrOptions (the server is asked once, before the handle's first
	// write). Default false.
	WaitAOF bool

	// Observer, when not nil, is told of every operation of the limiter:
	// it may trace it and measure it (see package observe; the module
	// github.com/tiebreak/tiebreak/tiebreakotel implements it with OpenTelemetry).
	// Default nil: nothing is observed, and an operation costs one nil
	// check more.
	Observer observe.Observer
}

func (o Options) withDefaults() (Options, error) {
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	switch {
	case len(o.Prefix) > MaxPrefixLen:
		return o, fmt.Errorf("ratelimit: Options.Prefix of %d bytes, over %d: %w", len(o.Prefix), MaxPrefixLen, ErrOptions)
	case strings.ContainsAny(o.Prefix, "{}"):
		return o, fmt.Errorf("ratelimit: Options.Prefix = %q holds a brace: %w", o.Prefix, ErrOptions)
	}
	w, bad := durable.Wait{Replicas: o.WaitReplicas, Timeout: o.WaitTimeout, AOF: o.WaitAOF}.WithDefaults()
	if bad != "" {
		return o, fmt.Errorf("ratelimit: Options.%s: %w", bad, ErrOptions)
	}
	o.WaitTimeout = w.Timeout
	return o, nil
}

// Limiter is a sliding-window log rate limiter in Redis: each limited key
// is a sorted set of the times of its admitted requests, read and written
// by one Lua script per call, on Redis's clock.
//
// A Limiter holds no state beyond its configuration and is safe for
// concurrent use; any number of processes may share the same keys. One
// not made by New (a zero Limiter, or nil) refuses every call
// (ErrArgument).
type Limiter struct {
	client rueidis.Client
	prefix string
	wait   durable.Wait
	args   argCache
	obs    observe.Observer
}

// unmade refuses a Limiter not made by New (ErrArgument).
func (l *Limiter) unmade() error {
	if l == nil || l.client == nil {
		return fmt.Errorf("ratelimit: a Limiter not made by New (a zero value or nil): %w", ErrArgument)
	}
	return nil
}

// usable is unmade for a call given ctx, refusing a nil ctx too
// (ErrArgument): rueidis would panic on it or wait forever.
func (l *Limiter) usable(ctx context.Context) error {
	if err := l.unmade(); err != nil {
		return err
	}
	return errs.NilContext("ratelimit", ctx)
}

// New returns a limiter on client, standalone or cluster. It refuses
// (ErrOptions) a nil client and a prefix over MaxPrefixLen bytes or
// holding a brace. New does not talk to Redis.
func New(client rueidis.Client, opts Options) (*Limiter, error) {
	if client == nil {
		return nil, fmt.Errorf("ratelimit: client is nil: %w", ErrOptions)
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	w := durable.Wait{Replicas: o.WaitReplicas, Timeout: o.WaitTimeout, AOF: o.WaitAOF}
	return &Limiter{client: redisretry.Wrap(client), prefix: o.Prefix, wait: w, obs: o.Observer}, nil
}

// Allow is AllowN(ctx, key, limit, 1).
func (l *Limiter) Allow(ctx context.Context, key string, limit Limit) (Result, error) {
	if err := l.usable(ctx); err != nil {
		return Result{}, err
	}
	if l.obs != nil {
		return observed.Call(ctx, l.obs, l.op("Allow", key, limit, 1), errKinds, func(ctx context.Context) (Result, error) { return l.allowN(ctx, key, limit, 1) }, resultOutcome)
	}
	return l.allowN(ctx, key, limit, 1)
}

// AllowN admits n requests for key under limit, all or none: they are
// admitted, and logged at Redis's current time, only if the window ending
// now then holds at most limit.N requests.
//
// It refuses, without touching Redis, a bad key (ErrKey: empty, over
// MaxKeyLen bytes, or holding a brace), a bad limit (ErrLimit, see
// Limit.Validate), n < 1 (ErrArgument), n > limit.N, which no window can
// ever admit (ErrExceedsLimit), and n > MaxAllowN (ErrArgument). Redis
// errors wrap ErrRedis; an error of ctx wraps ctx's error.
//
// One call is one script of bounded work: it logs at most MaxAllowN
// entries and drops at most MaxAllowN that left the window (a longer
// backlog goes over the next admissions; entries past the window never
// count).
//
// A key may be checked against different N over time. Keep one Window per
// key: a call drops the entries that have left its own window, and a key's
// log expires between one and two windows after its last admission, so a
// later call with a longer window may not see requests the log has
// already forgotten.
func (l *Limiter) AllowN(ctx context.Context, key string, limit Limit, n int) (Result, error) {
	if err := l.usable(ctx); err != nil {
		return Result{}, err
	}
	if l.obs != nil {
		return observed.Call(ctx, l.obs, l.op("AllowN", key, limit, n), errKinds, func(ctx context.Context) (Result, error) { return l.allowN(ctx, key, limit, n) }, resultOutcome)
	}
	return l.allowN(ctx, key, limit, n)
}

// allowN is AllowN.
func (l *Limiter) allowN(ctx context.Context, key string, limit Limit, n int) (Result, error) {
	if err := limit.Validate(); err != nil {
		return Result{}, err
	}
	if n < 1 {
		return Result{}, fmt.Errorf("ratelimit: n = %d out of range [1, limit.N = %d]: %w", n, limit.N, ErrArgument)
	}
	if n > limit.N {
		return Result{}, fmt.Errorf("ratelimit: n = %d, limit.N = %d: no window can ever admit it: %w", n, limit.N, ErrExceedsLimit)
	}
	if n > MaxAllowN {
		return Result{}, fmt.Errorf("ratelimit: n = %d over MaxAllowN = %d: ask in several calls: %w", n, MaxAllowN, ErrArgument)
	}
	k, err := redisKey(l.prefix, key)
	if err != nil {
		return Result{}, err
	}
	a := l.args.get(limit)
	kv := [...]string{k, a.n, a.window, strconv.Itoa(n), a.ttlMin, a.ttlSet}
	res, err := durable.Write(ctx, l.client, l.wait, "Allow", func(c rueidis.Client) (Result, error) {
		return parseResult(limit, n, allowScript.Exec(ctx, c, kv[:1], kv[1:]))
	})
	if err != nil {
		err = keyErr(key, err) // with the result of a write too few replicas acknowledged
	}
	return res, err
}

// keyErr names key in err, an error of a call to Redis for it.
func keyErr(key string, err error) error {
	return fmt.Errorf("ratelimit: key %s: %w", clip.Quote(key), err)
}

// Reset forgets every request logged for key, so its next window starts
// empty, in one UNLINK (Redis frees a long log in the background).
// Resetting a key with nothing logged is not an error. It refuses a bad
// key (ErrKey, as AllowN); Redis errors wrap ErrRedis.
func (l *Limiter) Reset(ctx context.Context, key string) error {
	if err := l.usable(ctx); err != nil {
		return err
	}
	if l.obs != nil {
		return observed.Do(ctx, l.obs, l.op("Reset", key, Limit{}, 0), errKinds, func(ctx context.Context) error { return l.reset(ctx, key) })
	}
	return l.reset(ctx, key)
}

// reset is Reset.
func (l *Limiter) reset(ctx context.Context, key string) error {
	k, err := redisKey(l.prefix, key)
	if err != nil {
		return err
	}
	_, err = durable.Write(ctx, l.client, l.wait, "Reset", func(c rueidis.Client) (struct{}, error) {
		if err := c.Do(ctx, c.B().Unlink().Key(k).Build()).Error(); err != nil {
			return struct{}{}, errs.FromRedis("Reset", err)
		}
		return struct{}{}, nil
	})
	if err != nil {
		return keyErr(key, err)
	}
	return nil
}
