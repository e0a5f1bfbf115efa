package board

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/rueidis"
)

// ReshardOptions configure Reshard. The zero value means every default.
type ReshardOptions struct {
	// Batch is how many entries one copy step reads from a shard (a ZSCAN
	// step, so about that many). Default DefaultMigrateBatch (200); 1 to
	// MaxMigrateBatch.
	Batch int
	// Pause is how long the copy of each shard waits between two steps,
	// leaving Redis to the board's users. Default 0: none.
	Pause time.Duration
}

// Reshard moves the board's entries to shards shards, live: reads and
// writes go on throughout, through every handle, and nothing is lost.
// It returns sb, now on the new shards; other handles follow on their next
// call. Changing from n to m shards moves about 1-n/m of the ids when the
// shards grow (jump hashing), but every entry is copied: the new shards are
// new boards, named for the board's next shard generation.
//
// How: each shard in turn becomes exporting, in one script (its keys move
// to a new generation, leaving tombstones, as Migrate does), so that every
// write to it from then on records its id in a dirty set in the same
// script. The copy walks each shard (ZSCAN, its cursor kept in the shard's
// meta HASH) and writes its entries to their new shards; then the dirty
// ids are copied again, as they are now. Then every shard is frozen: a
// write to it is refused before it writes anything, and its handle waits
// (at most 10 seconds) for the switch; the last dirty ids are copied, the
// old shards retired (their keys removed, tombstones left) and the
// descriptor switched to the new shards, where the waiting writes go. Reads
// are served by the old shards until they retire.
//
// A resharding cut short (context cancelled, process killed) resumes where
// it stopped when Reshard is called again with the same count, from any
// process. One process at a time copies: it holds a lease in the board's
// meta HASH, renewed at every step and released when it fails; another
// Reshard of the same count is refused (ErrMigrating) while the lease is
// held, and takes over once it has not been renewed for 30 seconds (its
// process died); the first, if it was only slow, stops at its next step. It refuses shards outside [1,
// MaxShards] and invalid options (ErrArgument), and another count while a
// resharding is under way (ErrMigrating). A count equal to the current one
// does nothing.
func (sb *Sharded) Reshard(ctx context.Context, shards int, o ReshardOptions) (*Sharded, error) {
	if shards < 1 || shards > MaxShards {
		return nil, fmt.Errorf("board: Reshard: shards = %d out of range [1, %d]: %w", shards, MaxShards, ErrArgument)
	}
	if o.Batch == 0 {
		o.Batch = DefaultMigrateBatch
	}
	if o.Batch < 1 || o.Batch > MaxMigrateBatch || o.Pause < 0 {
		return nil, fmt.Errorf("board: Reshard: Batch = %d out of range [1, %d] or Pause %v negative: %w", o.Batch, MaxMigrateBatch, o.Pause, ErrArgument)
	}
	l := &lease{sb: sb, token: newToken()}
	src, dst, err := sb.beginReshard(ctx, shards, l)
	if err != nil || dst == nil {
		return sb, err
	}
	if err := sb.moveAll(ctx, src, dst, o, l.renew); err != nil {
		l.release(ctx)
		return nil, err
	}
	r, err := l.call(ctx, "switch")
	if err != nil {
		return nil, err
	}
	if r != "switched" {
		l.release(ctx)
		return nil, fmt.Errorf("board: %s: Reshard: the descriptor changed meanwhile (%s): %w", sb.name, r, ErrMigrating)
	}
	return sb, sb.reload(ctx, sb.view.Load())
}

// beginReshard records the resharding to shards in the board's meta HASH,
// or finds it under way, and returns the views of the old and new shards,
// connected (the new shards exist); dst is nil when the board already has
// that many shards.
func (sb *Sharded) beginReshard(ctx context.Context, shards int, l *lease) (src, dst *shardView, err error) {
	m, err := readMeta(ctx, sb.client, sb.name, prefixOf("", sb.name), "", "")
	if err != nil {
		return nil, nil, err
	}
	cur, err := parseDescriptor(sb.name, m.desc)
	if err != nil {
		return nil, nil, err
	}
	target := cur
	target.ShardGen++
	target.Shards, target.ShardNames = shards, shardNames(sb.name, target.ShardGen, shards)
	if m.state == "resharding" {
		if target, err = parseDescriptor(sb.name, m.target); err != nil {
			return nil, nil, err
		}
		if target.Shards != shards {
			return nil, nil, fmt.Errorf("board: %s: Reshard(%d): a resharding to %d shards is under way: %w", sb.name, shards, target.Shards, ErrMigrating)
		}
	} else if shards == cur.Shards {
		return nil, nil, sb.reload(ctx, sb.view.Load())
	}
	l.from, l.to, l.retired = m.desc, target.encoded(), cur.ShardNames
	r, err := l.call(ctx, "begin")
	if err != nil {
		return nil, nil, err
	}
	if r != "begun" && r != "resumed" {
		return nil, nil, fmt.Errorf("board: %s: Reshard: %s: %w", sb.name, r, ErrMigrating)
	}
	if src, err = sb.connected(ctx, cur, true); err == nil {
		dst, err = sb.connected(ctx, target, false)
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
const reshardLease = 30 * time.Second

// lease is a Reshard's hold on its resharding (reshard.lua): one process
// at a time copies.
type lease struct {
	sb       *Sharded
	token    string
	from, to string   // the descriptors, before and after
	retired  []string // the old shards' names
}

// call runs reshard.lua's op with the lease.
func (l *lease) call(ctx context.Context, op string) (string, error) {
	r, err := reshardScript.Exec(ctx, l.sb.client, []string{names(prefixOf("", l.sb.name), 0).meta},
		append([]string{op, l.from, l.to, l.token, strconv.FormatInt(reshardLease.Milliseconds(), 10)}, l.retired...)).ToString()
	return r, redisErr("reshard", err)
}

// renew extends the lease before a step of the copy, or reports that
// another process took the resharding over.
func (l *lease) renew(ctx context.Context) error {
	r, err := l.call(ctx, "renew")
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
func (sb *Sharded) connected(ctx context.Context, d Descriptor, retired bool) (*shardView, error) {
	v, err := sb.viewOf(d)
	if err != nil {
		return nil, err
	}
	return v, v.connectShards(ctx, sb.given, retired)
}

// moveAll copies every old shard to the new ones, all shards at once:
// export and copy, then freeze, then retire.
func (sb *Sharded) moveAll(ctx context.Context, src, dst *shardView, o ReshardOptions, renew func(context.Context) error) error {
	steps := []func(*Board) error{
		func(s *Board) error { return dst.exportShard(ctx, s, o, renew) },
		func(s *Board) error { return dst.freezeShard(ctx, s, o.Batch, renew) },
		func(s *Board) error { return s.retire(ctx) },
	}
	for _, step := range steps {
		if err := eachShard(src.shards, step); err != nil {
			return err
		}
	}
	return nil
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

// copyDone is the copy cursor of a shard whose copy is complete.
const copyDone = "done"

// exportShard makes s exporting, copies its entries to dst's shards from
// its saved cursor, then the ids written meanwhile.
func (dst *shardView) exportShard(ctx context.Context, s *Board, o ReshardOptions, renew func(context.Context) error) error {
	state, cursor, err := s.exportState(ctx)
	if err != nil || state == stateRetired {
		return err
	}
	if state == "" {
		if err := s.exportTo(ctx, stateExporting); err != nil {
			return err
		}
		cursor = "0"
	}
	for state != stateFrozen && cursor != copyDone {
		if err := renew(ctx); err != nil {
			return err
		}
		es, next, err := s.scanStep(ctx, cursor, o.Batch)
		if err == nil {
			err = dst.put(ctx, es)
		}
		if next == "0" {
			next = copyDone
		}
		if err == nil {
			err = s.saveCursor(ctx, next)
		}
		if err != nil {
			return err
		}
		cursor = next
		if err := sleep(ctx, o.Pause); err != nil {
			return err
		}
	}
	return dst.drainShard(ctx, s, o.Batch, false, renew)
}

// freezeShard freezes s, then copies the last ids written to it.
func (dst *shardView) freezeShard(ctx context.Context, s *Board, batch int, renew func(context.Context) error) error {
	if state, _, err := s.exportState(ctx); err != nil || state == stateRetired {
		return err
	}
	if err := s.exportTo(ctx, stateFrozen); err != nil {
		return err
	}
	return dst.drainShard(ctx, s, batch, true, renew)
}

// drainShard copies the ids of s's dirty set as they are now: until the
// set is empty when all, else until a step finds fewer than batch (the
// writes may go on; the frozen shard's final drain takes the rest).
func (dst *shardView) drainShard(ctx context.Context, s *Board, batch int, all bool, renew func(context.Context) error) error {
	if _, err := s.drain(ctx, 0, true, nil); err != nil { // ids a copy cut short left in flight
		return err
	}
	for {
		if err := renew(ctx); err != nil {
			return err
		}
		ds, err := s.drain(ctx, batch, false, nil)
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
			if _, err := s.drain(ctx, 0, false, ids); err != nil {
				return err
			}
		}
		if len(ds) == 0 || (!all && len(ds) < batch) {
			return nil
		}
	}
}

// put writes entries, values and member data, to their shards of dst, as
// they are: an entry without member data has none there either.
func (dst *shardView) put(ctx context.Context, es []Entry) error {
	subs := make([]Submission, len(es))
	bare := make([][]string, len(dst.shards)) // ids without data, by shard
	for i, e := range es {
		subs[i] = Submission{ID: e.ID, Values: e.Values, Policy: Replace, Data: e.Data}
		if e.Data == nil {
			j := shardOf(e.ID, len(dst.shards))
			bare[j] = append(bare[j], e.ID)
		}
	}
	for _, r := range dst.SubmitMany(ctx, subs) {
		if r.Err != nil {
			return r.Err
		}
	}
	var cmds rueidis.Commands
	for j, ids := range bare {
		if len(ids) > 0 {
			cmds = append(cmds, dst.client.B().Hdel().Key(dst.shards[j].gen.Load().keys.d).Field(ids...).Build())
		}
	}
	for _, r := range dst.client.DoMulti(ctx, cmds...) {
		if err := r.Error(); err != nil {
			return redisErr("reshard", err)
		}
	}
	return nil
}

// removeAll removes ids from their shards of dst, MaxRemove at a time.
func (dst *shardView) removeAll(ctx context.Context, ids []string) error {
	for len(ids) > 0 {
		n := min(len(ids), MaxRemove)
		if _, err := dst.Remove(ctx, ids[:n]...); err != nil {
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
