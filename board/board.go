package board

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/errs"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/pack"
)

// Board is a leaderboard in Redis. Rank 1 is the best: fields are compared
// in layout order, each in its own direction, like tuples. Entries equal in
// every field are ordered by id, in ascending byte order (as bytes.Compare),
// in both strategies.
//
// A Board is any kind of board, each with its stored descriptor, and
// Open returns whichever is stored: a board of its own hash tag, a board
// of a group (Options.Group, named "group/name"), a periodic window
// (Periodic.At, named "name:label"), an archive ("name:label:final") and
// a sharded board (Options.Shards). Every method works on every kind, but
// for three refusals, each changing nothing: Migrate of a sharded board
// and Reshard of a board that is not sharded (ErrArgument), and a sharded
// board in NewGroup (ErrOptions). A test (the kind x operation matrix)
// holds every method to this on every kind, on one server and on a
// cluster.
//
// A Board holds its configuration and the board's generation (which keys
// hold the entries now, see Migrate); it is safe for concurrent use. One
// not made by New, Open or a Periodic (a zero Board, or nil) refuses
// every call (ErrArgument); so do a zero Group and a zero Periodic.
type Board struct {
	conn   rdb.Conn // the client given: every command goes through it
	name   string
	layout *pack.Layout
	opts   Options
	prefix string     // how every key starts (prefixOf)
	desc   descriptor // what this handle writes and expects stored
	width  int        // key suffix: digits of the fields prefix
	rest   uint64     // key suffix: largest packed value of fields 2..n
	tag    string     // names how the board stores a position (encodingTag)
	gen    atomic.Pointer[generation]
	comb   combiner      // Submit's native writes, batched under load
	fence  string        // a resharding's handle on a new shard: its lease token (fence.lua)
	sh     *sharded      // a sharded board (Options.Shards): every method is its own
	bounds map[int]Bound // Options.Bounds by field index
	// topMemo is the handle's last decoded best entries (CacheTop).
	topMemo atomic.Pointer[topMemo]
	// cachingChecked: the server lets this client send CLIENT CACHING
	// (CacheTop's first read checks it, checkCaching).
	cachingChecked atomic.Bool
}

// New returns a handle to the board named name on client, ranking by
// layout. The board's descriptor (its layout and the stored settings of
// opts: Strategy, Cap, DenseRanks, Group, SharedData, Shards, Hiding,
// KeepTop, Bounds, Rules) is stored with it: New writes it when there is none, in one
// round trip (a sharded board's three, as Open makes), and otherwise
// compares it with its own and refuses a difference (ErrMismatch, naming
// the setting, stored and given), so that no two handles ever write one
// board in two encodings. Use Open to build a handle from the stored
// descriptor alone.
//
// A board is its descriptor: entries under the board's names with no
// descriptor (keys left by something else, or whose meta HASH was
// removed or evicted) are not a board, and New refuses them
// (ErrMismatch) rather than take them for its own; remove them, or
// choose another name.
//
// It refuses (ErrArgument) an empty name, one over 200 bytes or one
// holding a brace, and (ErrOptions) a nil client or layout, a layout not
// made by pack.NewLayout or pack.NewDigitLayout (no fields) and invalid
// options. Redis errors wrap ErrRedis.
func New(ctx context.Context, client rueidis.Client, name string, layout *pack.Layout, opts Options) (*Board, error) {
	if err := errs.NilContext("board: New", ctx); err != nil {
		return nil, err
	}
	return newOn(ctx, rdb.New(client), name, layout, opts)
}

// newOn is New on conn.
func newOn(ctx context.Context, conn rdb.Conn, name string, layout *pack.Layout, opts Options) (*Board, error) {
	if opts.Shards != 0 {
		return newShardedBoard(ctx, conn, name, layout, opts)
	}
	b, err := configure(conn, name, layout, opts)
	if err != nil {
		return nil, err
	}
	m, err := b.readMeta(ctx, true)
	if err != nil {
		return nil, err
	}
	if !m.exists {
		return nil, fmt.Errorf("board: %s: entries with no stored descriptor are not a board: %w", name, errDescriptor)
	}
	return b, b.adopt(m)
}

// configure builds a handle that has not talked to Redis: its generation
// is 0, the first of every board.
func configure(conn rdb.Conn, name string, layout *pack.Layout, opts Options) (*Board, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if !conn.Valid() || layout == nil {
		return nil, fmt.Errorf("board: New: %s is nil: %w", nilHandle(!conn.Valid()), ErrOptions)
	}
	if layout.Len() == 0 {
		return nil, fmt.Errorf("board: New: a layout of no fields (a pack.Layout not made by pack.NewLayout or pack.NewDigitLayout): %w", ErrOptions)
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	b := &Board{conn: conn, name: name, layout: layout, opts: o, desc: describe(layout, o), prefix: prefixOf(o.Group, name), tag: encodingTag(o.Strategy, layout)}
	if b.bounds, err = b.checkBounds(o.Bounds); err != nil {
		return nil, err
	}
	if layout.Len() > 1 {
		b.rest = layout.Field(0).Mul - 1
		b.width = len(strconv.FormatUint(b.rest, 10))
	}
	b.gen.Store(b.generation(0, nil))
	return b, nil
}

// Name returns the board's name, without its group: Open and the command
// name a board of a group "group/name" (Options().Group, a slash, Name()).
func (b *Board) Name() string {
	if b == nil {
		return ""
	}
	return b.name
}

// label is how messages name the board: "group/name" for a board of a
// group, the spelling Open and the command take, else its name.
func (b *Board) label() string { return fullName(b.opts.Group, b.name) }

// Layout returns the board's layout.
func (b *Board) Layout() *pack.Layout {
	if b == nil {
		return nil
	}
	return b.layout
}

// Options returns the board's settings: those stored with it (Strategy,
// Cap, DenseRanks, Group, SharedData, Shards) as the board holds them,
// and this handle's own. A periodic window's expiry and round are its
// own, not settings: a board built with them is not a window.
func (b *Board) Options() Options {
	if b == nil {
		return Options{}
	}
	o := b.opts
	o.expireAt, o.round, o.span = time.Time{}, Window{}, ""
	o.Bounds = slices.Clone(o.Bounds) // the caller's to change
	if b.sh != nil {
		o.Shards = b.sh.view.Load().desc.Shards
	}
	return o
}

func (b *Board) suffix() bool { return b.opts.Strategy == KeySuffix }

// lookup reports whether b keeps an id lookup (tb:{name}:i, lua/lookup.lua):
// a key-suffix board whose members have a prefix. A key-suffix board of one
// field (width 0) stores the id itself as the member, as a packed board
// does, and finds it the same way, by ZSCORE of the id: it reads and writes
// no lookup. (Its descriptor says "lookup":"hashed-buckets" all the same;
// should it hold a lookup HASH, nothing reads it, and Clear, Drop and a
// migration delete it.)
func (b *Board) lookup() bool { return b.suffix() && b.width > 0 }

// layoutConsts are the constants that describe how the board stores an
// entry (see lua/common.lua), each name preceded by prefix: "" for the
// board's own, "T_" for a migration's target (lua/mirror.lua).
func (b *Board) layoutConsts(prefix string) []luascript.Const {
	strategy := "'p'"
	if b.suffix() {
		strategy = "'s'"
	}
	return []luascript.Const{
		{Name: prefix + "STRATEGY", Value: strategy},
		{Name: prefix + "WIDTH", Value: strconv.Itoa(b.width)},
		{Name: prefix + "DENSE", Value: strconv.FormatBool(b.opts.DenseRanks)},
		{Name: prefix + "CAP", Value: strconv.FormatInt(b.opts.Cap, 10)},
		{Name: prefix + "RESTMAX", Value: strconv.FormatUint(b.rest, 10)},
		{Name: prefix + "SHARED", Value: strconv.FormatBool(b.opts.SharedData)},
		{Name: prefix + "HIDING", Value: strconv.FormatBool(b.opts.Hiding)},
		{Name: prefix + "TOPN", Value: strconv.Itoa(b.opts.KeepTop)},
		{Name: prefix + "FIELDS", Value: b.fieldsFunction()},
	}
}

// fieldsFunction writes FIELDS, a Lua function building the fields as a
// table (see lua/common.lua): only the calls that need it build it.
func (b *Board) fieldsFunction() string {
	var s strings.Builder
	s.WriteString("function() return {")
	for i := 0; i < b.layout.Len(); i++ {
		min, max := b.fieldRange(i)
		f := b.layout.Field(i)
		fmt.Fprintf(&s, "{mul = %d, span = %d, min = %s, max = %s, hi = %t}, ",
			f.Mul, f.RawMax+1, fmtFloat(min), fmtFloat(max), f.Dir == pack.HigherIsBetter)
	}
	s.WriteString("} end")
	return s.String()
}

// fieldRange is the range of values field i accepts. In the key-suffix
// strategy the first field is any finite float64 (not negative unless the
// field is signed).
func (b *Board) fieldRange(i int) (min, max float64) {
	f := b.layout.Field(i)
	if i == 0 && b.suffix() {
		min = 0
		if f.Signed {
			min = -math.MaxFloat64
		}
		return min, math.MaxFloat64
	}
	return float64(f.Min), float64(f.Max)
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// fmtNum writes v for people: whole numbers without an exponent.
func fmtNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmtFloat(v)
}

// expireArg is the expire-at argument of the write scripts. It refuses
// (ErrArgument) a periodic window already past its retention.
func (b *Board) expireArg() (string, error) {
	if b.opts.expireAt.IsZero() {
		return "0", nil
	}
	if !b.opts.expireAt.After(time.Now()) {
		return "", fmt.Errorf("board: %s expired at %v: %w", b.label(), b.opts.expireAt, errExpired)
	}
	return strconv.FormatInt(b.opts.expireAt.UnixMilli(), 10), nil
}

// Drop removes the whole board: entries, member data, rank indexes and its
// descriptor, in one script (UNLINK: Redis frees the memory in the
// background, so deleting a board of millions of entries does not block
// the server), after one read of its generation: two round trips; a
// sharded board, shard after shard, then its descriptor.
// It returns nil only once the board is gone: when a migration keeps
// moving the board to other generations while it tries, it removes nothing
// and returns an error wrapping ErrMigrating. Use Clear to empty a board
// and keep it. The results remembered under request ids
// (Submission.RequestID, tb:{name}:r:...) are forgotten, not deleted:
// a retry after the Drop writes again, and each key expires after
// Options.RequestRetention.
//
// Other handles of the board live on: a write through one of them after
// the Drop makes the board whole again, storing that handle's descriptor
// (and generation, and a window's expiry) with the entry in the same
// script or transaction, so that Open reads the board as before; a write
// to a sharded board dropped is refused (ErrNotFound) and writes nothing.
// Reads through them see an empty board; a handle at another generation
// than the rebuilt board's (one that saw a Migrate) keeps seeing it empty
// until it writes or is built again (see docs/boards.md).
func (b *Board) Drop(ctx context.Context) error {
	if err := b.usable(ctx); err != nil {
		return err
	}
	drop := b.drop
	if b.sh != nil {
		drop = b.sh.Drop
	}
	if b.opts.Observer != nil {
		return observed.Do(ctx, b.opts.Observer, b.op("Drop", 0), errKinds, drop)
	}
	return drop(ctx)
}

func redisErr(op string, err error) error {
	if err == nil {
		return nil
	}
	if isTombstone(err) {
		return fmt.Errorf("board: %s: %w", op, errTombstone)
	}
	return errs.FromRedis("board: "+op, err)
}

// nilHandle names what New was given nil: the client, else the layout.
func nilHandle(clientNil bool) string {
	if clientNil {
		return "client"
	}
	return "layout"
}
