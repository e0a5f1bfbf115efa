package board

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/observe"
)

// Strategy is how a board stores its entries. Both strategies behave the
// same; they differ in what a score may hold and in memory.
type Strategy uint8

const (
	// PackedScore stores all fields packed into the score (pack.Layout) and
	// the id as the member. Fields are integers in their ranges. It is the
	// default.
	PackedScore Strategy = iota
	// KeySuffix stores the first field as the score, so it may be any
	// finite float64 (1234.5 points; negative only when the field is
	// Signed; the field's Width is not used, though it still counts toward
	// the layout's 53 bits), and the other fields as a fixed-width
	// order-preserving prefix of the member, followed by the id. A HASH
	// finds each id's member: the ids hashed into buckets of about 8,
	// each bucket one field holding its ids with their prefixes. A layout
	// of one field has no prefix: the member is the id, found as on a
	// packed board, and no HASH is kept (its plain writes are Redis's own
	// commands, as a packed board's).
	KeySuffix
)

var strategyNames = [...]string{PackedScore: "PackedScore", KeySuffix: "KeySuffix"}

// String returns the strategy's name: "PackedScore" or "KeySuffix".
func (s Strategy) String() string { return enumName(strategyNames[:], "Strategy", s) }

// Bounds of one call, so that no script stalls Redis (a few milliseconds
// at most).
const (
	// maxDataLen is the most bytes of member data one entry holds
	// (Submission.Data, SetData): 64 KiB, as a timeline's payload. Storing
	// it costs Redis about 0.2 ms; 1 MiB took 1.7 ms and 4 MiB 7.5 ms.
	maxDataLen = 64 << 10
	// maxSubmitMany is the most submissions one SubmitMany takes. Each is
	// its own script (a key-suffix board's plain ones up to 64 in one), so
	// the bound is on the call's memory and round trip, not on Redis's
	// time per script.
	maxSubmitMany = 100_000
)

// defaultMaxIDLen is the default limit on an id's length, in bytes.
const defaultMaxIDLen = 256

// defaultUpdateAttempts is the default Options.UpdateAttempts;
// 2^20 the largest accepted.
const (
	defaultUpdateAttempts = 64
	maxUpdateAttempts     = 1 << 20
)

// Request ids (Submission.RequestID): their longest, and the default and
// longest Options.RequestRetention.
const (
	maxRequestIDLen         = 200
	maxOvertaken            = 100 // Submission.Overtaken
	defaultRequestRetention = 24 * time.Hour
	maxRequestRetention     = 7 * 24 * time.Hour
)

// Bounds and default of Options.WaitReplicas and Options.WaitTimeout.
const (
	maxWaitReplicas    = durable.MaxReplicas
	defaultWaitTimeout = durable.DefaultTimeout
	maxWaitTimeout     = durable.MaxTimeout
)

// Options configure a board. The zero value means every default.
//
// They are of two kinds. The board's settings (Strategy, Cap,
// DenseRanks, Group, SharedData, Shards, Hiding, KeepTop, Bounds, Rules)
// decide where and how its entries are stored:
// they are stored with the board, in its descriptor beside the layout;
// New refuses a handle that differs from them (ErrMismatch) and Open
// reads them from it. The handle's settings (MaxIDLen, UpdateAttempts,
// SkipWriteRank, RequestRetention, CacheTop, WaitReplicas, WaitTimeout,
// WaitAOF, Observer) bound and observe
// what one handle sends, and are never stored.
type Options struct {
	// Strategy chooses the storage. Default PackedScore.
	Strategy Strategy

	// Cap keeps only the best Cap entries: every write trims the rest in the
	// same script. Default 0, no cap. Negative is refused.
	Cap int64

	// DenseRanks keeps the board's distinct value tuples in the scripts that
	// write, so RankDense answers in O(log N). It costs a second sorted set
	// and a HASH, one entry per distinct tuple. Default false.
	DenseRanks bool

	// MaxIDLen is the longest id accepted, in bytes. Default
	// 256; at most 65536.
	MaxIDLen int

	// UpdateAttempts is the most attempts one Update makes (a read and a
	// compare-and-set each) before it gives up with ErrConflict.
	// Default 64; 1 to 2^20.
	UpdateAttempts int

	// Group puts the board in a group of boards that share the hash tag
	// {Group}, so that one script writes one result to all of them (see
	// NewGroup): its keys are tb:{Group}:{name}:... A board's group is part
	// of where it lives: the same name in another group (or none) is
	// another board. Default "": the board's own tag, {name}. Refused as a
	// name is: over 200 bytes or holding a brace (ErrOptions).
	Group string

	// SharedData keeps the member data of the boards of a Group that set
	// it in one HASH, tb:{Group}:data, instead of one per board: a group
	// write's Data is stored once for all of them. Removing an entry from
	// a board (Remove, a cap, Drop) leaves its shared data; (*Group).Remove
	// removes it with the entries. It needs Group and is part of the
	// board's descriptor. Default false.
	SharedData bool

	// Shards spreads the board over Shards shards, each a board of its
	// own with its own hash tag, so that on a Redis Cluster the board
	// outgrows one node's memory and one core (see "One board over many nodes" in the
	// package doc; Reshard changes the count). Default 0: one hash tag, no
	// shards. 1 to 256 shards a board; a sharded board refuses
	// DenseRanks, Group and SharedData (ErrOptions). Part of the stored
	// descriptor.
	Shards int

	// Hiding lets the board hide members (Hide) and show them again
	// (Show): a hidden member's entry stays, and keeps being written, but
	// every read of others behaves as if it were absent (Get and Rank
	// with AsSelf show it to itself). Every write of such a board runs
	// its script (no native write: it must look for a hidden entry). Part
	// of the stored descriptor. Refused (ErrOptions) with Cap and on a
	// sharded board; Migrate refuses a board with Hiding, or to it
	// (ErrArgument). Default false.
	Hiding bool

	// KeepTop keeps the board's best KeepTop entries in a key of their
	// own, tb:{name}:top, rewritten by the write that changes them (and
	// only by such a write), so that handles with CacheTop serve Top, and
	// a Page within them, from their client's memory. Every write of such
	// a board runs its script (no native write). Part of the stored
	// descriptor. Default 0: no such key. 1 to 1000; refused on a sharded
	// board (ErrOptions).
	KeepTop int

	// Bounds limit the values submissions may store, per field: a
	// submission whose value, or the result of Add, Max, Min or Keep, is outside its field's
	// Bound is refused before anything is written (ErrOutOfBounds). Part
	// of the stored descriptor. Refused (ErrOptions): a field the layout
	// lacks, one bounded twice, Min > Max, a bound outside the field's
	// range. Default: none.
	Bounds []Bound

	// Rules make the board a tournament: a start and an end, joining,
	// a most members and a most attempts per member, enforced inside every
	// write (see Rules). Default: no rules. Part of the stored
	// descriptor; refused on a sharded board (ErrOptions).
	Rules Rules

	// CacheTop serves Top(n), and Page(offset, n) with offset+n at most
	// the board's KeepTop, when they ask for nothing more (no WithData,
	// WithRanks or WithTotal), from the client's memory: rueidis's
	// client-side caching of the best entries' key, which Redis tells the
	// client to drop when a write changes it (RESP3 client tracking), so
	// that a read never returns a list older than the last such message
	// received. That message travels apart from the write's reply: a
	// cached read may miss a write acknowledged a moment before, even one
	// made through the same client (docs/performance.md measures how
	// long: a fraction of a millisecond at the median). Read through a handle
	// without CacheTop where a request must see its own write at once.
	// A read that finds no key (a board never written since it
	// was made or emptied) builds it in one script. Needs a board with
	// KeepTop (ErrOptions); with a client built with DisableCache every
	// read goes to Redis. The handle's first cached read checks, in one
	// round trip, that the server runs the CLIENT CACHING that rueidis
	// sends before each read it caches (without reading its reply): where
	// an ACL refuses it, the cached reads fail (ErrRedis, NOPERM), since
	// their lists would never be dropped. It belongs to the handle.
	// Default false.
	//
	// A list served from memory shares its entries with every other read
	// of the same best entries, so that a read copies nothing: read it and
	// never change it (no assignment to an entry, its Values or its Data,
	// no sort in place). An append copies; to change a list, copy it first
	// (slices.Clone of Entries, and of each Values). Watch delivers copies.
	CacheTop bool

	// SkipWriteRank, on a sharded board, makes Submit and Update return
	// the entry with Rank 0, in one round trip, instead of its rank on the
	// whole board, which takes a second round trip and a count on every
	// other shard: a write then costs the other shards nothing, so write
	// throughput grows with the shards. Trimmed then reports only the
	// shard's own cap. Default false. It belongs to the handle; refused
	// without Shards (ErrOptions).
	SkipWriteRank bool

	// RequestRetention is how long a write's Submission.RequestID is
	// remembered: a retry within it writes nothing and returns the first
	// write's result. Default 24h; 1s to 7 days. It belongs to the handle.
	RequestRetention time.Duration

	// WaitReplicas is how many replicas must acknowledge each write
	// (Submit, SubmitMany, Update, Remove, SetData) before it returns:
	// Redis's WAIT, sent right after the write on the same connection, in
	// the same round trip. A write that fewer replicas acknowledged within
	// WaitTimeout returns its result with an error wrapping
	// ErrNotReplicated: the master applied it, but a failover may lose it.
	// Default 0: no waiting. At most 64.
	WaitReplicas int

	// WaitTimeout is how long a write waits for its replicas (rounded up
	// to whole milliseconds). Default 1s; at most
	// 1 minute. Used only with WaitReplicas or WaitAOF.
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
	// It belongs to the handle, not to the stored descriptor; a Migrate
	// with none keeps the board's. Default nil: nothing is observed, and an operation costs
	// one nil check more.
	Observer observe.Observer

	// expireAt, set by Periodic, makes every write set the keys to expire
	// at this instant. Zero: keys never expire.
	expireAt time.Time

	// span, set by Periodic.At (and by Open from what a window stores),
	// is a window's start and end in Unix ms, "start-end": a window's
	// writes store it, and a window stored with another span refuses
	// them (ErrMismatch). "": not a window, or a window stored without one.
	span string

	// round, set by Periodic.At on a window of a board with Rules, is the
	// window: its writes are refused outside it too (rulesConst).
	round Window

	// shard, set by a sharded board on its shards' handles, makes their
	// writes refuse a shard with no descriptor (errDropped), and keeps
	// their score histograms (Percentile).
	shard bool

	// noHistogram, for the benchmark that measures what the histogram
	// costs only, makes a shard's writes keep none.
	noHistogram bool
}

func (o Options) withDefaults() (Options, error) {
	o.Bounds = slices.Clone(o.Bounds) // the handle's own: the caller may change its slice
	if o.Strategy > KeySuffix {
		return o, fmt.Errorf("board: Options.Strategy = %v, want PackedScore or KeySuffix: %w", o.Strategy, ErrOptions)
	}
	if o.Cap < 0 {
		return o, fmt.Errorf("board: Options.Cap = %d, want 0 (no cap) or more: %w", o.Cap, ErrOptions)
	}
	o.MaxIDLen = cmp.Or(o.MaxIDLen, defaultMaxIDLen)
	if o.MaxIDLen < 1 || o.MaxIDLen > 65536 {
		return o, fmt.Errorf("board: Options.MaxIDLen = %d out of range [1, 65536]: %w", o.MaxIDLen, ErrOptions)
	}
	o.UpdateAttempts = cmp.Or(o.UpdateAttempts, defaultUpdateAttempts)
	if o.UpdateAttempts < 1 || o.UpdateAttempts > maxUpdateAttempts {
		return o, fmt.Errorf("board: Options.UpdateAttempts = %d out of range [1, %d]: %w", o.UpdateAttempts, maxUpdateAttempts, ErrOptions)
	}
	if o.Group != "" {
		if err := checkGroup(o.Group); err != nil {
			return o, err
		}
	}
	if o.Shards != 0 || o.SkipWriteRank {
		return o, fmt.Errorf("board: Options.Shards = %d, SkipWriteRank = %t: a board of one hash tag (Shards 0) takes no SkipWriteRank: %w", o.Shards, o.SkipWriteRank, ErrOptions)
	}
	o.RequestRetention = cmp.Or(o.RequestRetention, defaultRequestRetention)
	if o.RequestRetention < time.Second || o.RequestRetention > maxRequestRetention {
		return o, fmt.Errorf("board: Options.RequestRetention = %v out of range [1s, %v]: %w", o.RequestRetention, maxRequestRetention, ErrOptions)
	}
	if o.KeepTop < 0 || o.KeepTop > maxCount {
		return o, fmt.Errorf("board: Options.KeepTop = %d out of range [0, %d]: %w", o.KeepTop, maxCount, ErrOptions)
	}
	if o.CacheTop && o.KeepTop == 0 {
		return o, fmt.Errorf("board: Options.CacheTop needs a board with KeepTop: %w", ErrOptions)
	}
	if o.Hiding && o.Cap != 0 {
		return o, fmt.Errorf("board: Options.Hiding with Cap %d: a cap cannot tell which entries a hidden one pushes out: %w", o.Cap, ErrOptions)
	}
	if err := o.Rules.check(); err != nil {
		return o, err
	}
	if o.SharedData && o.Group == "" {
		return o, fmt.Errorf("board: Options.SharedData needs Options.Group: %w", ErrOptions)
	}

	w, bad := durable.Wait{Replicas: o.WaitReplicas, Timeout: o.WaitTimeout, AOF: o.WaitAOF}.WithDefaults()
	if bad != "" {
		return o, fmt.Errorf("board: Options.%s: %w", bad, ErrOptions)
	}
	o.WaitTimeout = w.Timeout
	return o, nil
}

// wait is what every write of the handle waits for.
func (o Options) wait() durable.Wait {
	return durable.Wait{Replicas: o.WaitReplicas, Timeout: o.WaitTimeout, AOF: o.WaitAOF}
}
