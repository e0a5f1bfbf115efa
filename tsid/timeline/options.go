package timeline

import (
	"fmt"
	"math"
	"time"

	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/observe"
)

// Strategy is how a Timeline stores its messages in its sorted set. Both
// strategies give the same answers; they differ in what the score holds.
type Strategy uint8

const (
	// LexID stores every message with score 0 and a member made of the
	// whole ID as fixed-width hex, time part first, and the payload, so the
	// byte order of members is the ID order and pages are single ZRANGE
	// ... BYLEX commands: the cheapest reads. The default.
	LexID Strategy = iota

	// SplitScore stores each message with its time part as the score and
	// a member made of the suffix (the rest bits, fixed width), the time
	// part in fixed-width hex and the payload: the suffix orders the
	// messages of one time unit, the time part makes the member name its
	// message on its own. The scores make time ranges readable (ZRANGE key
	// t1 t2 BYSCORE). Reads use MULTI/EXEC.
	SplitScore
)

// String returns the constant's name, "LexID" or "SplitScore", or
// "Strategy(7)" for an unknown value.
func (s Strategy) String() string {
	switch s {
	case LexID:
		return "LexID"
	case SplitScore:
		return "SplitScore"
	}
	return fmt.Sprintf("Strategy(%d)", uint8(s))
}

// Page size and payload limits of a Timeline.
const (
	// DefaultPageSize is the page size of a read with n = 0, unless
	// Options.DefaultPage says otherwise.
	DefaultPageSize = 50
	// DefaultMaxPageSize is the largest n a read accepts, unless
	// Options.MaxPage says otherwise.
	DefaultMaxPageSize = 1000
	// MaxPageLimit is the largest MaxPage a timeline may have.
	MaxPageLimit = 5000
	// DefaultMaxPayload is the longest payload, in bytes, unless
	// Options.MaxPayload says otherwise: 64 KiB, MaxPayloadLimit.
	DefaultMaxPayload = MaxPayloadLimit
	// MaxPayloadLimit is the largest MaxPayload a timeline may have: 64
	// KiB. A payload is copied a few times by an append and freed by a
	// removal: 1 MiB took 4-10 ms of Redis time to append.
	MaxPayloadLimit = 64 << 10
)

// Bounds of one call, so that no script stalls Redis (a few milliseconds
// at most; the package documentation gives the measured worst cases).
const (
	// MaxRemove is the most IDs one Remove takes. A split timeline finds
	// each by binary search over its time unit.
	MaxRemove = 50
	// MaxAppendMany is the most messages one AppendMany takes. Each of
	// its scripts (a chunk) holds at most 64 messages and 256 KiB of
	// payload.
	MaxAppendMany = 100_000
	// MaxTrim is the most messages one script's retention removes (an
	// append's or Trim's), the oldest first: freeing 64 payloads of 64
	// KiB takes a few milliseconds. A longer backlog, such as a quiet room
	// whose messages all passed MaxAge or a MaxLen lowered on a long
	// timeline, goes over the next appends or Trim calls; until then
	// reads still see those messages.
	MaxTrim = 64
)

// Bounds and default of Options.WaitReplicas and Options.WaitTimeout.
const (
	MaxWaitReplicas    = durable.MaxReplicas
	DefaultWaitTimeout = durable.DefaultTimeout
	MaxWaitTimeout     = durable.MaxTimeout
)

// Options configure a Timeline. The zero value means every
// default: lex storage, pages of 50 (at most 1000), payloads up to
// DefaultMaxPayload (64 KiB, also the most MaxPayload may be), no
// retention.
type Options struct {
	// Strategy chooses the storage. Default LexID.
	Strategy Strategy

	// DefaultPage is the page size of a read whose n is 0. Default
	// DefaultPageSize (50); otherwise 1 to MaxPage.
	DefaultPage int

	// MaxPage is the largest page size a read accepts. Default
	// DefaultMaxPageSize (1000); otherwise 1 to MaxPageLimit (5000).
	MaxPage int

	// MaxPayload is the longest payload accepted, in bytes. Default
	// DefaultMaxPayload (64 KiB); otherwise 1 to MaxPayloadLimit (64 KiB).
	MaxPayload int

	// MaxLen keeps at most the MaxLen newest messages: every append and
	// Trim removes the older ones in the same script, at most MaxTrim of
	// them (with MaxAge's) per script. Default 0, no limit; negative is
	// refused.
	MaxLen int64

	// MaxAge removes the messages whose time part is below the time part
	// of Clock()-MaxAge (older than MaxAge by at least one time unit):
	// every append and Trim removes them in the same script, at most
	// MaxTrim per script, the oldest first. The clock is
	// the application's, like the clock that stamps IDs. Default 0, no age
	// limit; negative is refused. An ID is read by the Codec's layout
	// only: one of another layout of the same width (a Snowflake ID in a
	// TSID room) is stored as the time that layout gives it, which may lie
	// years ahead, and then ages out only when that time has passed.
	MaxAge time.Duration

	// Clock returns the current time for MaxAge. Default time.Now. It must
	// be safe for concurrent use.
	Clock func() time.Time

	// WaitReplicas is how many replicas must acknowledge each write
	// (Append, AppendMany, Remove, Trim, Drop) before it returns: Redis's
	// WAIT, sent right after the write on the same connection, in the same
	// round trip. A write that fewer replicas acknowledged within
	// WaitTimeout returns an error wrapping ErrNotReplicated: the master
	// applied it, but a failover may lose it. Default 0: no waiting. At
	// most MaxWaitReplicas.
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

// withDefaults fills in the defaults and says what is out of bounds, if
// anything (New refuses it with ErrOptions).
func (o Options) withDefaults() (Options, string) {
	if o.MaxPage == 0 {
		o.MaxPage = DefaultMaxPageSize
	}
	if o.DefaultPage == 0 {
		o.DefaultPage = min(DefaultPageSize, o.MaxPage)
	}
	if o.MaxPayload == 0 {
		o.MaxPayload = DefaultMaxPayload
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	switch {
	case o.Strategy > SplitScore:
		return o, fmt.Sprintf("Options.Strategy = %v, want LexID or SplitScore", o.Strategy)
	case o.MaxPage < 1 || o.MaxPage > MaxPageLimit:
		return o, fmt.Sprintf("Options.MaxPage = %d out of range [1, %d] (0 means %d)", o.MaxPage, MaxPageLimit, DefaultMaxPageSize)
	case o.DefaultPage < 1 || o.DefaultPage > o.MaxPage:
		return o, fmt.Sprintf("Options.DefaultPage = %d out of range [1, %d] (MaxPage; 0 means %d)", o.DefaultPage, o.MaxPage, DefaultPageSize)
	case o.MaxPayload < 1 || o.MaxPayload > MaxPayloadLimit:
		return o, fmt.Sprintf("Options.MaxPayload = %d out of range [1, %d] (0 means %d)", o.MaxPayload, MaxPayloadLimit, DefaultMaxPayload)
	case o.MaxLen < 0:
		return o, fmt.Sprintf("Options.MaxLen = %d out of range [0, %d] (0 means no limit)", o.MaxLen, int64(math.MaxInt64))
	case o.MaxAge < 0:
		return o, fmt.Sprintf("Options.MaxAge = %v, want 0 (no limit) or more", o.MaxAge)
	}
	w, bad := o.wait().WithDefaults()
	if bad != "" {
		return o, "Options." + bad
	}
	o.WaitTimeout = w.Timeout
	return o, ""
}

// wait is what every write of the timeline waits for.
func (o Options) wait() durable.Wait {
	return durable.Wait{Replicas: o.WaitReplicas, Timeout: o.WaitTimeout, AOF: o.WaitAOF}
}

// retains reports whether the timeline applies a retention (by count or
// by age).
func (o Options) retains() bool { return o.MaxLen > 0 || o.MaxAge > 0 }
