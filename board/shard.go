package board

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/hashtag"
	"github.com/tiebreak/tiebreak/pack"
)

// maxShards is the most shards one sharded board has.
const maxShards = 256

// shardNameRoom is the most bytes a shard's name adds to its board's:
// "~65535.255.65535".
const shardNameRoom = 16

// shardedOptions are a sharded board's Options as its shards take them
// (Shards and SkipWriteRank zero), with the board's Shards (1 to
// 256) and SkipWriteRank beside them.
type shardedOptions struct {
	Options
	Shards        int
	SkipWriteRank bool
}

// sharded is one board whose entries are spread over shards: boards of
// their own, each with its own hash tag, so that on a Redis Cluster they
// spread over the nodes and the board outgrows one node's memory and one
// core. An id lives in exactly one shard, chosen by a stable hash of the
// id (jump consistent hashing of its 64-bit FNV-1a), so every write is one
// atomic script on one shard, exactly as on a Board.
//
// Reads are exact: every answer, ranks included, is the one a Board
// holding the same entries gives, ordinal ranks with ties by id
// (Percentile's within its stated Error). Each read makes at most two
// round trips whatever the number of shards, asking all shards at once
// (one pipelined batch per node): Len, Top, Scan, Percentile and, near the
// top, Page and Between make one; Get, Rank, Around, Among, a deep Page or
// Between make two. Dense ranks are refused (ErrArgument).
//
// Consistency: each shard answers atomically, but a read across shards is
// not one snapshot: it may see a write on one shard and not yet one on
// another, so during writes ranks may count an entry twice or not at all
// for an instant (a move between shards never happens: an id's shard is
// fixed). A read of a board at rest, or of entries no write touches
// meanwhile, is exact. A read that makes two round trips may also see a
// write between them.
//
// Cap: each shard keeps its best Cap entries, which holds the best Cap of
// the board whatever shard they are in, and reads show only the best Cap
// of the whole board (Len counts at most Cap; an entry beyond is
// ErrNotFound). Unlike a Board's cap, which forgets an entry pushed out of
// the best Cap, a shard keeps it until its own shard holds Cap better ones,
// so an entry can come back into view when better ones leave (Remove, a
// worse Replace). The board holds up to Shards times Cap entries.
//
// A sharded is safe for concurrent use.
type sharded struct {
	name   string
	conn   rdb.Conn
	layout *pack.Layout
	opts   shardedOptions // Shards as built; the view has the current count
	view   atomic.Pointer[shardView]
	mu     sync.Mutex // held while reading the view again
}

// shardView is the shards of a sharded board as one descriptor lists them:
// every call runs on one view.
type shardView struct {
	name   string
	conn   rdb.Conn
	opts   shardedOptions
	desc   descriptor
	shards []*Board
	probe  *Board // a shard's handle, not connected, for the codec and the checks every shard shares
}

// createSharded returns a handle to the sharded board named name on client,
// ranking by layout over opts.Shards shards. It stores the board's
// descriptor (the layout, the options that decide the encoding, the shard
// count and the shards' names) at tb:{name}:meta when the board has none,
// and each shard's own, and refuses a board stored with other settings
// (ErrMismatch, naming the setting), a plain board of that name included.
// It makes one round trip, then one per shard, all shards at once.
//
// The shards are named <name>~<i>.<k>, with k chosen so that shard i's
// hash slot lies in the middle of the i-th of Shards equal ranges of the
// slots: on a cluster whose masters serve equal ranges, as redis-cli
// assigns them, the shards spread evenly over the masters.
//
// It refuses (ErrArgument) a name that is empty, holds a brace or is over
// 200-16 bytes, and (ErrOptions) a nil client or layout, invalid
// options, Shards outside [0, 256], DenseRanks, Group and
// SharedData. Redis errors wrap ErrRedis.
func createSharded(ctx context.Context, client rdb.Conn, name string, layout *pack.Layout, opts shardedOptions) (*sharded, error) {
	sb, err := configureSharded(client, name, layout, opts)
	if err != nil {
		return nil, err
	}
	v := sb.view.Load()
	m, err := readMeta(ctx, sb.conn, name, prefixOf("", name), v.desc.encoded())
	if err != nil {
		return nil, err
	}
	if m.desc != v.desc.encoded() {
		if v, err = sb.resharded(v, m); err != nil {
			return nil, err
		}
		sb.view.Store(v)
	}
	if err := v.connect(ctx, sb.conn); err != nil {
		return nil, err
	}
	return sb, sb.retireOld(ctx)
}

// resharded returns the view of the board stored as m, when it agrees with
// view v but for the shards' generation and names (a board resharded to
// v's count), or when a resharding to v's settings is under way (the view
// then has the current shards, and follows the switch); else the mismatch.
func (sb *sharded) resharded(v *shardView, m meta) (*shardView, error) {
	stored, err := parseDescriptor(sb.name, m.desc)
	if err != nil {
		return nil, err
	}
	like := func(d descriptor) bool {
		d.ShardGen, d.ShardNames = v.desc.ShardGen, v.desc.ShardNames
		return d.encoded() == v.desc.encoded()
	}
	if target, err := parseDescriptor(sb.name, m.target); m.state == phaseResharding && err == nil && like(target) {
		return sb.viewOf(stored)
	}
	if !like(stored) {
		return nil, (&Board{name: sb.name, desc: v.desc}).mismatch(m)
	}
	return sb.viewOf(stored)
}

// openShardedBoard is Open for a sharded board, stored as d: opts holds
// the stored settings and the handle's own.
func openShardedBoard(ctx context.Context, client rdb.Conn, name string, l *pack.Layout, d descriptor, opts Options) (*Board, error) {
	so := shardedOptions{Options: opts, Shards: d.Shards, SkipWriteRank: opts.SkipWriteRank}
	so.Options.Shards, so.Options.SkipWriteRank = 0, false
	sb, err := configureSharded(client, name, l, so)
	if err != nil {
		return nil, fmt.Errorf("board: %s: %w: %w", name, errDescriptor, err)
	}
	v, err := sb.viewOf(d)
	if err != nil {
		return nil, err
	}
	sb.view.Store(v)
	if err := v.connect(ctx, client); err != nil {
		return nil, err
	}
	return sb.board(), sb.retireOld(ctx)
}

// configureSharded builds a handle that has not talked to Redis.
func configureSharded(client rdb.Conn, name string, layout *pack.Layout, opts shardedOptions) (*sharded, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if len(name) > maxNameLen-shardNameRoom {
		return nil, fmt.Errorf("board: sharded board name of %d bytes, over %d: %w", len(name), maxNameLen-shardNameRoom, errName)
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	if opts.Shards == 0 {
		opts.Shards = 1
	}
	probe, err := configure(client, name, layout, opts.Options)
	if err != nil {
		return nil, err
	}
	opts.Options = probe.opts
	sb := &sharded{name: name, conn: probe.conn, layout: layout, opts: opts}
	d := probe.desc
	d.Shards, d.ShardNames = opts.Shards, shardNames(name, 0, opts.Shards)
	sb.view.Store(&shardView{name: name, conn: probe.conn, opts: opts, desc: d, probe: probe})
	return sb, nil
}

// viewOf returns the view of the shards that the stored descriptor d
// lists.
func (sb *sharded) viewOf(d descriptor) (*shardView, error) {
	v := *sb.view.Load()
	if d.Shards < 1 || d.Shards > maxShards || len(d.ShardNames) != d.Shards {
		return nil, fmt.Errorf("board: %s: stored descriptor lists %d shard names for %d shards: %w", sb.name, len(d.ShardNames), d.Shards, errDescriptor)
	}
	v.desc, v.shards = d, nil
	v.opts.Shards = d.Shards
	return &v, nil
}

// check refuses the options no sharded board takes.
func (o shardedOptions) check() error {
	switch {
	case o.Shards < 0 || o.Shards > maxShards:
		return fmt.Errorf("board: shardedOptions.Shards = %d out of range [1, %d]: %w", o.Shards, maxShards, ErrOptions)
	case o.DenseRanks:
		return fmt.Errorf("board: shardedOptions.DenseRanks: a dense rank needs the distinct tuples of all shards together: %w", ErrOptions)
	case o.Group != "" || o.SharedData:
		return fmt.Errorf("board: shardedOptions.Group and SharedData: every shard has a hash tag of its own: %w", ErrOptions)
	}
	return nil
}

// connect builds the shards' handles, each storing or checking its own
// descriptor, all at once.
func (v *shardView) connect(ctx context.Context, client rdb.Conn) error {
	return v.connectShards(ctx, client, false)
}

// connectShards is connect; with retired, a shard that a resharding cut
// short already retired gets a handle that has not talked to Redis (the
// resharding's every step skips it) instead of failing.
func (v *shardView) connectShards(ctx context.Context, client rdb.Conn, retired bool) error {
	shards := make([]*Board, len(v.desc.ShardNames))
	errs := make([]error, len(shards))
	var wg sync.WaitGroup
	for i, name := range v.desc.ShardNames {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := v.opts.Options
			o.Observer = nil // the sharded board's calls make the spans
			o.shard = true
			shards[i], errs[i] = newOn(ctx, client, name, v.probe.layout, o)
			if retired && errors.Is(errs[i], errRetired) {
				shards[i], errs[i] = configure(client, name, v.probe.layout, o)
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("board: %s: shard %d: %w", v.name, i, err)
		}
	}
	v.shards = shards
	return nil
}

// shardNames names the shards of board name in shard generation gen (0
// for a new board, one more at each Reshard): shard i is name~i.k, or
// name~gen.i.k after a resharding, with the first k whose hash slot lies
// in the middle half of the i-th of n equal ranges of slots, so that where
// a cluster's masters serve equal ranges, however their bounds are
// rounded, each shard is on the master of its range.
func shardNames(name string, gen, n int) []string {
	out := make([]string, n)
	for i := range out {
		lo, hi := shardSlots(i, n)
		base := name + "~" + strconv.Itoa(i) + "."
		if gen > 0 {
			base = name + "~" + strconv.Itoa(gen) + "." + strconv.Itoa(i) + "."
		}
		for k := 0; ; k++ {
			s := base + strconv.Itoa(k)
			if slot := hashtag.Slot(s); slot >= lo && slot < hi {
				out[i] = s
				break
			}
		}
	}
	return out
}

// shardSlots returns the slots [lo, hi) where shard i of n lies: the
// middle half of the i-th of n equal ranges (the whole range when it is
// under 4 slots).
func shardSlots(i, n int) (lo, hi int) {
	lo, hi = i*hashtag.Slots/n, (i+1)*hashtag.Slots/n
	if q := (hi - lo) / 4; q > 0 {
		lo, hi = lo+q, hi-q
	}
	return lo, hi
}

// shardOf returns the shard that holds id: jump consistent hashing
// (Lamping and Veach) of the id's 64-bit FNV-1a, so that growing the
// shards from n to m moves only the share 1 - n/m of the ids.
func shardOf(id string, n int) int {
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	b, j := int64(-1), int64(0)
	for j < int64(n) {
		b = j
		h = h*2862933555777941757 + 1
		j = int64(float64(b+1) * (float64(int64(1)<<31) / float64((h>>33)+1)))
	}
	return int(b)
}

// newShardedBoard is New for a sharded board (Options.Shards).
func newShardedBoard(ctx context.Context, client rdb.Conn, name string, layout *pack.Layout, opts Options) (*Board, error) {
	if opts.Shards < 0 || opts.Shards > maxShards {
		return nil, fmt.Errorf("board: Options.Shards = %d out of range [0, %d]: %w", opts.Shards, maxShards, ErrOptions)
	}
	if opts.Rules.set() || opts.Hiding || opts.KeepTop != 0 || opts.CacheTop {
		return nil, fmt.Errorf("board: a sharded board (Options.Shards = %d) takes no Options.Rules, Hiding, KeepTop or CacheTop: no one script counts a tournament's members, ranks a hidden entry or keeps the best entries over shards: %w", opts.Shards, ErrOptions)
	}
	so := shardedOptions{Options: opts, Shards: opts.Shards, SkipWriteRank: opts.SkipWriteRank}
	so.Options.Shards, so.Options.SkipWriteRank = 0, false
	sb, err := createSharded(ctx, client, name, layout, so)
	if err != nil {
		return nil, err
	}
	return sb.board(), nil
}

// board returns the public handle of sb.
func (sb *sharded) board() *Board {
	o := sb.opts.Options
	o.Shards, o.SkipWriteRank = sb.opts.Shards, sb.opts.SkipWriteRank
	return &Board{sh: sb, conn: sb.conn, name: sb.name, layout: sb.layout, opts: o, prefix: prefixOf("", sb.name), desc: sb.view.Load().desc}
}

// Drop removes every shard and the board's descriptor: the shards the
// descriptor lists, those of a resharding under way, and those earlier
// reshardings retired (tombstones), whatever shards this handle knows.
func (sb *sharded) Drop(ctx context.Context) error {
	meta := names(prefixOf("", sb.name), 0).meta
	f, err := sb.conn.Do(ctx, func(p *rdb.Pipe) { p.HGetAll(meta) }).AsStrMap()
	if err != nil {
		return redisErr("drop", err)
	}
	var all []string
	for field, v := range f {
		if name, ok := strings.CutPrefix(field, fieldRetired); ok {
			all = append(all, name)
		} else if field == fieldDesc || field == fieldTarget {
			if d, err := parseDescriptor(sb.name, v); err == nil {
				all = append(all, d.ShardNames...)
			}
		}
	}
	for _, name := range all {
		s, err := configure(sb.conn, name, sb.layout, sb.opts.Options)
		if err == nil {
			err = s.drop(ctx)
		}
		if err != nil {
			return err
		}
	}
	return redisErr("drop", sb.conn.Do(ctx, func(p *rdb.Pipe) { p.Unlink(meta) }).Error())
}
