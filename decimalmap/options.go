package decimalmap

import (
	"fmt"
	"time"

	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/observe"
)

// DefaultMaxKeyLen is the default limit on a key's text, in bytes:
// MaxKeyLenLimit.
const DefaultMaxKeyLen = MaxKeyLenLimit

// MaxKeyLenLimit is the largest Options.MaxKeyLen accepted: 256 bytes, a
// decimal of about 250 digits. Every value of a key stores its encoding,
// so the key's length counts once per value.
const MaxKeyLenLimit = 256

// Bounds and default of Options.WaitReplicas and Options.WaitTimeout.
const (
	MaxWaitReplicas    = durable.MaxReplicas
	DefaultWaitTimeout = durable.DefaultTimeout
	MaxWaitTimeout     = durable.MaxTimeout
)

// Options configure a map. The zero value means every default.
type Options struct {
	// MaxKeyLen is the longest key text accepted, in bytes, so that keys
	// from untrusted input cannot grow Redis key names without bound. The
	// number of digits of a key is otherwise not limited. Default
	// DefaultMaxKeyLen (256); at most MaxKeyLenLimit; negative is refused.
	MaxKeyLen int

	// WaitReplicas is how many replicas must acknowledge each write
	// (Add, Remove, RemoveValue, Drop) before it returns: Redis's WAIT, sent right after the write
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

	// Observer, when not nil, is told of every operation of the handle:
	// it may trace it and measure it (see package observe; the module
	// github.com/tiebreak/tiebreak/tiebreakotel implements it with OpenTelemetry).
	// Default nil: nothing is observed, and an operation costs one nil
	// check more.
	Observer observe.Observer
}

func (o Options) withDefaults() (Options, error) {
	if o.MaxKeyLen == 0 {
		o.MaxKeyLen = DefaultMaxKeyLen
	}
	if o.MaxKeyLen < 0 || o.MaxKeyLen > MaxKeyLenLimit {
		return o, fmt.Errorf("decimalmap: Options.MaxKeyLen = %d out of range [1, %d] (0 for %d): %w",
			o.MaxKeyLen, MaxKeyLenLimit, DefaultMaxKeyLen, ErrOptions)
	}
	w, bad := o.wait().WithDefaults()
	if bad != "" {
		return o, fmt.Errorf("decimalmap: Options.%s: %w", bad, ErrOptions)
	}
	o.WaitTimeout = w.Timeout
	return o, nil
}

// wait is what every write of the map waits for.
func (o Options) wait() durable.Wait {
	return durable.Wait{Replicas: o.WaitReplicas, Timeout: o.WaitTimeout, AOF: o.WaitAOF}
}
