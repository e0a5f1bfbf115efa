package board

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/observed"
)

// Reshard moves the board's entries to shards shards, live: reads and
// writes go on throughout, through every handle, and nothing is lost.
// It returns sb, now on the new shards; other handles follow on their next
// call. Changing from n to m shards moves about 1-n/m of the ids when the
// shards grow (jump hashing), but every entry is copied: the new shards are
// new boards, named for the board's next shard generation.
//
// How: each shard becomes exporting, in one script (its keys move to a
// new generation, leaving tombstones, as Migrate does), so that every
// write to it from then on records its id in a dirty set in the same
// script. The copy walks each shard in its own order, Batch entries a
// step, and writes them to their new shards; its position (the score and
// member of the last entry copied: data, not a SCAN cursor, so that it
// survives a restart or a failover) is kept in the shard's meta HASH.
// Then the dirty ids are copied again, as they are now, pass after pass
// while writes go on, until at most 10 batches of them are left or a pass
// begins with no fewer than the last (writers dirtying ids as fast as
// they are copied). Then every shard is frozen: a write to it is refused
// before it writes anything, and its handle waits for the switch (for 10
// s at most: then it fails with ErrMigrating, having written nothing);
// the last dirty ids are copied, and a check
// compares the entries of the old and new shards (all at rest): when the
// new ones lack any (a copy lost in a failover), the shards thaw, the new
// ones are emptied and the copy starts again. Then the descriptor switches
// to the new shards, where the waiting writes go, and the old shards are
// retired (their keys removed, tombstones left). Reads are served by the
// old shards until the switch. Each step stores the server's time (Unix
// milliseconds) in the field moved of the meta HASH it writes, a shard's,
// and the board's at the next renewal of the lease, so that an operator
// sees how long ago the resharding last moved.
//
// A restart or a failover of Redis does not cut it short: it goes on by
// itself once Redis answers again (trying for up to 30 s; then its error
// wraps ErrRedis). A resharding cut short (context cancelled, process
// killed, Redis away for longer) resumes where it stopped when Reshard is
// called again with the same count, from any process, with a handle from
// Open, or from New with the old count or the new one. One process
// at a time copies: it holds a lease in the board's meta HASH, renewed at
// every step, and its token fences its writes: each shard's meta HASH
// names it, and a process that lost the lease writes nothing more. A
// Reshard that finds the lease held waits for it, up to twice its length
// (reshardLease, 3 s), then refuses (ErrMigrating); a lease not renewed
// for 3 s is free. When the process dies while the shards are frozen, the
// first write that waits for them past the lease revokes it and thaws the
// shards: writes go on (recorded), and the next Reshard freezes them
// again. So writes wait at most about 3 s after the process dies, and
// never fail for it; reads never wait.
//
// It refuses shards outside [1, 256] and invalid options
// (ErrArgument), and another count while a resharding is under way
// (ErrMigrating). A count equal to the current one does nothing but
// finish the retirement of old shards that a Reshard cut short left.
func (b *Board) Reshard(ctx context.Context, shards int, o MigrateOptions) (*Board, error) {
	if err := b.usable(ctx); err != nil {
		return nil, err
	}
	run := func(ctx context.Context) (*Board, error) {
		if b.sh == nil {
			return nil, fmt.Errorf("board: %s: Reshard: not a sharded board (Options.Shards): %w", b.label(), ErrArgument)
		}
		if len(o.Defaults) > 0 {
			return nil, fmt.Errorf("board: %s: Reshard: MigrateOptions.Defaults: a resharding keeps the layout: %w", b.label(), ErrArgument)
		}
		if _, err := b.sh.Reshard(ctx, shards, o); err != nil {
			return nil, err
		}
		return b, nil
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Reshard", shards), errKinds, run, nil)
	}
	return run(ctx)
}

// Reshard is Board.Reshard.
func (sb *sharded) Reshard(ctx context.Context, shards int, o MigrateOptions) (*sharded, error) {
	if shards < 1 || shards > maxShards {
		return nil, fmt.Errorf("board: Reshard: shards = %d out of range [1, %d]: %w", shards, maxShards, ErrArgument)
	}
	if o.Batch == 0 {
		o.Batch = defaultMigrateBatch
	}
	if o.Batch < 1 || o.Batch > maxMigrateBatch || o.Pause < 0 || o.Pause > time.Second {
		return nil, fmt.Errorf("board: Reshard: Batch = %d out of range [1, %d] or Pause %v out of range [0, 1s]: %w", o.Batch, maxMigrateBatch, o.Pause, ErrArgument)
	}
	l := &lease{sb: sb, token: newToken()}
	res, err := rideOut(ctx, func() (*sharded, error) { return sb.reshard(ctx, shards, o, l) })
	if err != nil {
		l.release(ctx)
	}
	return res, err
}

// reshard is Reshard's work, under lease l: run again after a restart or a
// failover (rideOut), it resumes with the same lease.
func (sb *sharded) reshard(ctx context.Context, shards int, o MigrateOptions, l *lease) (*sharded, error) {
	src, dst, err := sb.beginReshard(ctx, shards, l)
	if err != nil || dst == nil {
		return sb, err
	}
	atStep("Reshard", "begin")
	if err := sb.copyChecked(ctx, src, dst, o, l); err != nil {
		return nil, err
	}
	r, err := l.call(ctx, "switch")
	if err != nil {
		return nil, err
	}
	if r != "switched" {
		return nil, fmt.Errorf("board: %s: Reshard: the descriptor changed meanwhile (%s): %w", sb.name, r, ErrMigrating)
	}
	atStep("Reshard", "switch")
	if err := sb.retireOld(ctx); err != nil {
		return nil, err
	}
	return sb, sb.reload(ctx, sb.view.Load())
}

// copyChecked copies every old shard to the new ones until the check finds
// the new shards whole (at most maxCopyPasses copies).
func (sb *sharded) copyChecked(ctx context.Context, src, dst *shardView, o MigrateOptions, l *lease) error {
	for pass := 1; ; pass++ {
		if err := sb.moveAll(ctx, src, dst, o, l); err != nil {
			return err
		}
		whole, err := checkMoved(ctx, src, dst, l)
		if err != nil {
			return err
		}
		atStep("Reshard", "check")
		if whole {
			return nil
		}
		if pass == maxCopyPasses {
			return fmt.Errorf("board: %s: Reshard: the new shards still lack entries after %d copies (call Reshard again): %w", sb.name, pass, ErrMigrating)
		}
		if err := restartCopy(ctx, src, dst, l.token); err != nil {
			return err
		}
	}
}

// checkMoved reports whether the new shards hold what the old ones do,
// all frozen and drained: at rest, so they compare. Without a cap, as
// many entries. With one, each shard keeps only its best Cap entries, so
// each new shard must hold exactly the best Cap of the old shards'
// entries that go to it (see sameKept).
func checkMoved(ctx context.Context, src, dst *shardView, l *lease) (bool, error) {
	if src.opts.Cap > 0 {
		return sameKept(ctx, src, dst, src.opts.Cap, l)
	}
	res := src.conn.DoMulti(ctx, func(p *rdb.Pipe) {
		for _, s := range append(slices.Clone(src.shards), dst.shards...) {
			p.ZCard(s.gen.Load().keys.z)
		}
	})
	var old, moved int64
	for i, r := range res {
		n, err := r.AsInt64()
		if err != nil {
			return false, redisErr("reshard check", err)
		}
		if i < len(src.shards) {
			old += n
		} else {
			moved += n
		}
	}
	return old == moved, nil
}

// sameKept reports whether each new shard of dst holds exactly the best
// n of the entries of the old shards of src whose id goes to it (score
// and stored member), and nothing else: it reads the old shards best
// first, merged, sends each entry to its new shard's count, and compares
// it with the next entry of that shard, read best first too.
func sameKept(ctx context.Context, src, dst *shardView, n int64, l *lease) (bool, error) {
	old := newBestStream(src.shards, l)
	kept, full := make([]int64, len(dst.shards)), 0
	news := make([]*bestStream, len(dst.shards))
	for j := range news {
		news[j] = newBestStream(dst.shards[j:j+1], l)
	}
	for full < len(news) {
		e, more, err := old.pop(ctx)
		if err != nil || !more {
			if err != nil {
				return false, err
			}
			break
		}
		id, _, err := src.shards[0].decodeScore(e.Score, e.Member)
		if err != nil {
			return false, err
		}
		j := shardOf(id, len(news))
		if kept[j] == n {
			continue
		}
		f, more, err := news[j].pop(ctx)
		if err != nil {
			return false, err
		}
		if !more || f != e {
			return false, nil
		}
		if kept[j]++; kept[j] == n {
			full++
		}
	}
	for _, s := range news { // nothing more than what was compared
		if _, more, err := s.pop(ctx); err != nil || more {
			return false, err
		}
	}
	return true, nil
}

// bestPage is how many entries a bestStream reads of a shard in one
// round trip.
const bestPage = 500

// bestStream reads the entries of shards best first, merged:
// a page of each shard at a time, renewing the lease before each page.
type bestStream struct {
	shards []*Board
	bufs   [][]rdb.Scored
	next   []int64 // the rank of each shard's next page
	done   []bool  // the shard has no more pages
	l      *lease
}

func newBestStream(shards []*Board, l *lease) *bestStream {
	n := len(shards)
	return &bestStream{shards: shards, bufs: make([][]rdb.Scored, n), next: make([]int64, n), done: make([]bool, n), l: l}
}

// pop returns the best entry not yet returned; more is false when there
// is none.
func (s *bestStream) pop(ctx context.Context) (z rdb.Scored, more bool, err error) {
	best := -1
	for i, sh := range s.shards {
		if len(s.bufs[i]) == 0 && !s.done[i] {
			if err := s.l.renew(ctx); err != nil {
				return z, false, err
			}
			page, err := sh.zrange(ctx, sh.gen.Load(), s.next[i], bestPage)
			if err != nil {
				return z, false, redisErr("reshard check", err)
			}
			s.bufs[i], s.next[i], s.done[i] = page, s.next[i]+int64(len(page)), len(page) < bestPage
		}
		if len(s.bufs[i]) > 0 && (best < 0 || comparePos(posOfZ(s.bufs[i][0]), posOfZ(s.bufs[best][0])) < 0) {
			best = i
		}
	}
	if best < 0 {
		return z, false, nil
	}
	z, s.bufs[best] = s.bufs[best][0], s.bufs[best][1:]
	return z, true, nil
}

// posOfZ is the position of an entry ZRANGE ... WITHSCORES gave.
func posOfZ(z rdb.Scored) pos { return pos{set: true, score: z.Score, member: z.Member} }

// restartCopy sends a resharding whose check failed back to its start:
// the old shards thaw (their writes go on, recorded), their positions go
// back to the start, and the new shards are emptied.
func restartCopy(ctx context.Context, src, dst *shardView, token string) error {
	for _, s := range src.shards {
		if err := s.thaw(ctx); err != nil {
			return err
		}
		if err := s.savePosition(ctx, token, ""); err != nil {
			return err
		}
	}
	res := src.conn.DoMulti(ctx, func(p *rdb.Pipe) {
		for _, s := range dst.shards {
			k := s.gen.Load().keys
			p.Unlink(k.z, k.d, k.i, k.v, k.c, k.hist)
		}
	})
	for _, r := range res {
		if err := r.Error(); err != nil {
			return redisErr("reshard", err)
		}
	}
	return nil
}

// beginReshard records the resharding to shards in the board's meta HASH,
// or finds it under way, waiting for the lease of a process that stopped;
// it returns the views of the old and new shards, connected (the new
// shards exist) and fenced by l's token; dst is nil when the board already
// has that many shards.
func (sb *sharded) beginReshard(ctx context.Context, shards int, l *lease) (src, dst *shardView, err error) {
	deadline := time.Now().Add(2 * reshardLease)
	for attempt := 0; ; attempt++ {
		src, dst, err = sb.tryBeginReshard(ctx, shards, l)
		if !errors.Is(err, errLeaseHeld) && !errors.Is(err, errDescMoved) || time.Now().After(deadline) {
			return src, dst, err
		}
		if err := pause(ctx, min(attempt, 5)); err != nil {
			return nil, nil, fmt.Errorf("board: %s: Reshard: waiting for the lease: %w", sb.name, err)
		}
	}
}

// errLeaseHeld reports a resharding whose lease another process holds;
// errDescMoved a descriptor that changed between its reading and the
// lease's taking (another Reshard switched): both are tried again.
var (
	errLeaseHeld = fmt.Errorf("board: another process holds the resharding's lease: %w", ErrMigrating)
	errDescMoved = fmt.Errorf("board: the board's descriptor changed meanwhile: %w", ErrMigrating)
)

// tryBeginReshard is one try of beginReshard.
func (sb *sharded) tryBeginReshard(ctx context.Context, shards int, l *lease) (src, dst *shardView, err error) {
	m, err := readMeta(ctx, sb.conn, sb.name, prefixOf("", sb.name), "")
	if err != nil {
		return nil, nil, err
	}
	if !m.exists {
		return nil, nil, fmt.Errorf("board: %s has no stored descriptor (dropped?): %w", sb.name, ErrNotFound)
	}
	cur, err := parseDescriptor(sb.name, m.desc)
	if err != nil {
		return nil, nil, err
	}
	target := cur
	target.ShardGen++
	target.Shards, target.ShardNames = shards, shardNames(sb.name, target.ShardGen, shards)
	if m.state == phaseResharding {
		if target, err = parseDescriptor(sb.name, m.target); err != nil {
			return nil, nil, err
		}
		if target.Shards != shards {
			return nil, nil, fmt.Errorf("board: %s: Reshard(%d): a resharding to %d shards is under way: %w", sb.name, shards, target.Shards, ErrMigrating)
		}
	} else if shards == cur.Shards {
		if err := sb.retireOld(ctx); err != nil {
			return nil, nil, err
		}
		return nil, nil, sb.reload(ctx, sb.view.Load())
	}
	l.from, l.to, l.retired = m.desc, target.encoded(), cur.ShardNames
	r, err := l.call(ctx, "begin")
	switch {
	case err != nil:
		return nil, nil, err
	case r == "busy" && m.state == phaseResharding:
		return nil, nil, fmt.Errorf("board: %s: Reshard: %w", sb.name, errLeaseHeld)
	case r == "stale":
		return nil, nil, fmt.Errorf("board: %s: Reshard: %w", sb.name, errDescMoved)
	case r != "begun" && r != "resumed":
		return nil, nil, fmt.Errorf("board: %s: Reshard: %s: %w", sb.name, r, ErrMigrating)
	}
	if src, err = sb.connected(ctx, cur, true); err == nil {
		dst, err = sb.connected(ctx, target, false)
	}
	if err == nil {
		err = l.fence(ctx, src, dst)
	}
	if err != nil {
		l.release(ctx)
		return nil, nil, err
	}
	return src, dst, nil
}

// reshardLease is how long a Reshard holds its lease without renewing it:
// another process may take over a resharding whose process stopped this
// long ago.
const reshardLease = 3 * time.Second

// lease is a Reshard's hold on its resharding (reshard.lua): one process
// at a time copies.
type lease struct {
	sb       *sharded
	token    string
	from, to string   // the descriptors, before and after
	retired  []string // the old shards' names
	// moved says that a step of a shard moved the resharding since the
	// last renew, which then stores the time (reshard.lua's moved).
	moved atomic.Bool
}

// call runs reshard.lua's op with the lease.
func (l *lease) call(ctx context.Context, op string) (string, error) {
	r, err := l.sb.conn.Run(ctx, reshardScript, []string{names(prefixOf("", l.sb.name), 0).meta},
		append([]string{op, l.from, l.to, l.token, strconv.FormatInt(reshardLease.Milliseconds(), 10)}, l.retired...)).ToString()
	if r == "gone" {
		return r, fmt.Errorf("board: %s: Reshard: %w", l.sb.name, notStored("the board"))
	}
	return r, redisErr("reshard", err)
}

// fence names l's token in the meta HASH of every shard, old and new, so
// that the copy's writes of any process that held the lease before fail
// (fence.lua), and makes dst's handles write with the token; then it
// renews the lease, so that a process that took the lease after l fenced
// first is found out here.
func (l *lease) fence(ctx context.Context, src, dst *shardView) error {
	res := l.sb.conn.DoMulti(ctx, func(p *rdb.Pipe) {
		for _, s := range append(append([]*Board{}, src.shards...), dst.shards...) {
			p.HSet(names(s.prefix, 0).meta, fieldFence, l.token)
		}
	})
	for _, r := range res {
		if err := r.Error(); err != nil {
			return redisErr("reshard", err)
		}
	}
	for _, s := range dst.shards {
		s.fence = l.token
		if err := s.refresh(ctx); err != nil {
			return err
		}
	}
	return l.renew(ctx)
}

// renew extends the lease before a step of the copy, or reports that
// another process took the resharding over; it stores the time in the
// board's field moved when a step moved the resharding since the last
// renew.
func (l *lease) renew(ctx context.Context) error {
	op := "renew"
	if l.moved.Swap(false) {
		op = "moved"
	}
	r, err := l.call(ctx, op)
	if err == nil && r != "renewed" {
		err = fmt.Errorf("board: %s: Reshard: another process took the resharding over (%s): %w", l.sb.name, r, ErrMigrating)
	}
	return err
}

// release frees the lease of a Reshard cut short, so that the next one
// need not wait for it to expire; even when ctx has ended (a second at
// most).
func (l *lease) release(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_, _ = l.call(ctx, "release") // at worst, the lease expires
}

// connected returns the view of the shards d lists, connected; with
// retired, it takes shards a resharding retired (connectShards).
func (sb *sharded) connected(ctx context.Context, d descriptor, retired bool) (*shardView, error) {
	v, err := sb.viewOf(d)
	if err != nil {
		return nil, err
	}
	return v, v.connectShards(ctx, sb.conn, retired)
}

// moveAll copies every old shard to the new ones, all shards at once:
// export and copy, then freeze.
func (sb *sharded) moveAll(ctx context.Context, src, dst *shardView, o MigrateOptions, l *lease) error {
	steps := []func(*Board) error{
		func(s *Board) error { return dst.exportShard(ctx, s, o, l) },
		func(s *Board) error { return dst.freezeShard(ctx, s, o.Batch, l) },
	}
	for _, step := range steps {
		if err := eachShard(src.shards, step); err != nil {
			return err
		}
	}
	return nil
}

// retireOld retires the old shards of the board's last resharding that a
// Reshard cut short after its switch left frozen: their keys go,
// tombstones stay, and handles still reading them move to the new shards.
// One HGET when there are none (the field retiring lists them).
func (sb *sharded) retireOld(ctx context.Context) error {
	meta := names(prefixOf("", sb.name), 0).meta
	list, err := sb.conn.HGet(ctx, meta, fieldRetiring).ToString()
	if rdb.IsNil(err) {
		return nil
	} else if err != nil {
		return redisErr("reshard", err)
	}
	var retiring []string
	if err := json.Unmarshal([]byte(list), &retiring); err != nil {
		return fmt.Errorf("board: %s: the shards to retire, %q: %w", sb.name, list, errDescriptor)
	}
	var old []*Board
	for _, name := range retiring {
		o := sb.opts.Options
		o.Observer = nil
		s, err := configure(sb.conn, name, sb.layout, o)
		if err != nil {
			return err
		}
		old = append(old, s)
	}
	err = eachShard(old, func(s *Board) error {
		if err := s.retire(ctx); err != nil {
			return err
		}
		atStep("Reshard", "retire")
		return nil
	})
	if err != nil {
		return err
	}
	err = sb.conn.Run(ctx, reshardScript, []string{meta}, []string{"retired"}).Error()
	return redisErr("reshard", err)
}

// eachShard runs f on every shard at once and returns the first error.
func eachShard(shards []*Board, f func(*Board) error) error {
	errs := make([]error, len(shards))
	var wg sync.WaitGroup
	for i, s := range shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f(s)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// exportShard makes s exporting, copies its entries to dst's shards from
// its saved position, then the ids written meanwhile.
func (dst *shardView) exportShard(ctx context.Context, s *Board, o MigrateOptions, l *lease) error {
	state, position, err := s.exportState(ctx)
	if err != nil || state == phaseRetired {
		return err
	}
	if state == "" {
		if err := s.exportTo(ctx, phaseExporting); err != nil {
			return err
		}
		l.moved.Store(true)
		atStep("Reshard", "export")
		position = ""
	}
	for state != phaseFrozen && position != positionDone {
		if err := l.renew(ctx); err != nil {
			return err
		}
		es, next, err := s.copyPage(ctx, position, o.Batch)
		if err == nil {
			err = dst.put(ctx, es)
		}
		if err == nil {
			err = s.savePosition(ctx, l.token, next)
		}
		if err != nil {
			return err
		}
		l.moved.Store(true)
		atStep("Reshard", "copy")
		position = next
		if err := sleep(ctx, o.Pause); err != nil {
			return err
		}
	}
	return dst.drainLive(ctx, s, o.Batch, l)
}

// Draining while writes go on: passes until the dirty set holds at most
// frozenDirty batches of ids, at most maxLivePasses.
const (
	frozenDirty   = 10
	maxLivePasses = 16
)

// drainLive copies the ids of s's dirty set, s taking writes, pass after
// pass, until a pass would begin with at most frozenDirty batches of
// ids, or with no fewer than the last pass began with (writers dirty ids
// as fast as the passes copy them): what is left, the frozen shard's
// final drain copies while its writes wait, so the fewer the shorter
// they wait.
func (dst *shardView) drainLive(ctx context.Context, s *Board, batch int, l *lease) error {
	last := int64(math.MaxInt64)
	for range maxLivePasses {
		n, err := s.dirtyCount(ctx)
		if err != nil {
			return err
		}
		if n <= int64(frozenDirty*batch) || n >= last {
			return nil
		}
		last = n
		if err := dst.drainShard(ctx, s, batch, false, l); err != nil {
			return err
		}
	}
	return nil
}

// freezeShard freezes s, then copies the last ids written to it.
func (dst *shardView) freezeShard(ctx context.Context, s *Board, batch int, l *lease) error {
	if state, _, err := s.exportState(ctx); err != nil || state == phaseRetired {
		return err
	}
	if err := s.exportTo(ctx, phaseFrozen); err != nil {
		return err
	}
	l.moved.Store(true)
	atStep("Reshard", "freeze")
	return dst.drainShard(ctx, s, batch, true, l)
}

// drainShard copies the ids of s's dirty set as they are now: until the
// set is empty when all, else until a step finds fewer than batch or the
// steps have drained as many ids as the set held when the pass began
// (writers that dirty ids as fast as the steps drain them would keep it
// going forever; the frozen shard's final drain takes the rest).
func (dst *shardView) drainShard(ctx context.Context, s *Board, batch int, all bool, l *lease) error {
	if _, err := s.drain(ctx, l.token, 0, true, nil); err != nil { // ids a copy cut short left in flight
		return err
	}
	steps := math.MaxInt
	if !all {
		n, err := s.dirtyCount(ctx)
		if err != nil {
			return err
		}
		steps = int(n)/batch + 1
	}
	for ; steps > 0; steps-- {
		if err := l.renew(ctx); err != nil {
			return err
		}
		ds, err := s.drain(ctx, l.token, batch, false, nil)
		if err != nil {
			return err
		}
		var put []Entry
		var gone, ids []string
		for _, d := range ds {
			ids = append(ids, d.entry.ID)
			if d.gone {
				gone = append(gone, d.entry.ID)
			} else {
				put = append(put, d.entry)
			}
		}
		if err := dst.put(ctx, put); err != nil {
			return err
		}
		if err := dst.removeAll(ctx, gone); err != nil {
			return err
		}
		if len(ids) > 0 {
			if _, err := s.drain(ctx, l.token, 0, false, ids); err != nil {
				return err
			}
			l.moved.Store(true)
			atStep("Reshard", "drain")
		}
		if len(ds) == 0 || (!all && len(ds) < batch) {
			return nil
		}
	}
	return nil
}

// dirtyCount is the number of ids in the dirty set of s, an exporting
// shard: one SCARD.
func (s *Board) dirtyCount(ctx context.Context) (int64, error) {
	return inGen(ctx, s, func(g *generation) (int64, error) {
		n, err := s.conn.Do(ctx, func(p *rdb.Pipe) { p.SCard(g.keys.dirty) }).AsInt64()
		if err != nil {
			return 0, redisErr("reshard", err)
		}
		return n, nil
	})
}

// put writes entries, values and member data, to their shards of dst, as
// they are: an entry without member data has none there either. Each
// write runs only while the shard names the lease's token (fence.lua). A
// write that fewer replicas than Options.WaitReplicas acknowledged (a
// master left without its replica by a failover) stands: the check before
// the switch finds a new shard that lost entries.
func (dst *shardView) put(ctx context.Context, es []Entry) error {
	subs := make([]Submission, len(es))
	for i, e := range es {
		subs[i] = Submission{ID: e.ID, Values: e.Values, Policy: Replace, Data: e.Data, dropData: e.Data == nil}
	}
	for i, r := range dst.SubmitMany(ctx, subs) {
		if r.Err != nil && !errors.Is(r.Err, ErrNotReplicated) {
			to := dst.shards[shardOf(subs[i].ID, len(dst.shards))]
			return fmt.Errorf("board: reshard: copying id %s to its new shard %s: %w", clip.Quote(subs[i].ID), to.label(), r.Err)
		}
	}
	return nil
}

// removeAll removes ids from their shards of dst, 1000 at a time.
func (dst *shardView) removeAll(ctx context.Context, ids []string) error {
	for len(ids) > 0 {
		n := min(len(ids), maxRemove)
		if _, err := dst.Remove(ctx, ids[:n]...); err != nil && !errors.Is(err, ErrNotReplicated) {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
