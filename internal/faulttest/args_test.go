package faulttest

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// maxCommandArgs is the strictest limit on one command's arguments a
// managed service is reported to set (ElastiCache Serverless: 3,999 per
// request); the command's name counts as one here.
const maxCommandArgs = 3999

// argCounter is a client that sends through Client and keeps the most
// arguments one command it sent held, its name counted, and that
// command's name.
type argCounter struct {
	rueidis.Client
	mu   sync.Mutex
	most int
	name string
}

func (a *argCounter) note(args []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(args) > a.most {
		a.most, a.name = len(args), args[0]
	}
}

func (a *argCounter) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	a.note(cmd.Commands())
	return a.Client.Do(ctx, cmd)
}

func (a *argCounter) DoMulti(ctx context.Context, cmds ...rueidis.Completed) []rueidis.RedisResult {
	for i := range cmds {
		a.note(cmds[i].Commands())
	}
	return a.Client.DoMulti(ctx, cmds...)
}

func (a *argCounter) DoCache(ctx context.Context, cmd rueidis.Cacheable, ttl time.Duration) rueidis.RedisResult {
	a.note(cmd.Commands())
	return a.Client.DoCache(ctx, cmd, ttl)
}

func (a *argCounter) DoMultiCache(ctx context.Context, cmds ...rueidis.CacheableTTL) []rueidis.RedisResult {
	for i := range cmds {
		a.note(cmds[i].Cmd.Commands())
	}
	return a.Client.DoMultiCache(ctx, cmds...)
}

// largest runs call through a client of its own that counts arguments and
// returns the most one of its commands held and that command's name.
func largest(t *testing.T, client rueidis.Client, call func(c rueidis.Client) error) (int, string) {
	t.Helper()
	a := &argCounter{Client: client}
	if err := call(a); err != nil {
		t.Fatal(err)
	}
	return a.most, a.name
}

// The largest call of each package, at its bounds (the most ids, entries,
// boards, messages, keys or values one call takes), sends no command of
// more than maxCommandArgs arguments: SubmitMany's scripts and lean
// batches, Top of 1,000 entries, Remove and Among of 1,000 ids (on a
// sharded board, each shard is asked for the ranks of the others'
// entries: two arguments each), groups of 16 and 64 boards, a
// migration's and a resharding's steps of 500 entries, the switch of a
// resharding of 256 shards, AppendMany's chunks and Remove of 50 ids, a
// map's Add of 100 values and Remove of 1,000 keys.
func TestLargestCallsWithinArgumentLimit(t *testing.T) {
	_, client := redistest.Private(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = "player:" + strconv.Itoa(i)
	}
	subs := make([]board.Submission, 5000)
	for i := range subs {
		subs[i] = board.Submission{ID: "player:" + strconv.Itoa(i), Values: []float64{float64(i % 700), float64(i % 2), float64(i)}, Data: []byte("d")}
	}
	plain := make([]board.Submission, len(subs))
	for i, s := range subs {
		s.Data = nil
		plain[i] = s
	}
	type row struct {
		what string
		call func(c rueidis.Client) error
	}
	var rows []row
	for _, o := range []board.Options{{}, {Strategy: board.KeySuffix}, {DenseRanks: true}, {Strategy: board.KeySuffix, DenseRanks: true, Cap: 3000}, {Shards: 16}} {
		name := fmt.Sprintf("args-%v-%t-%d-%d", o.Strategy, o.DenseRanks, o.Cap, o.Shards)
		open := func(c rueidis.Client) (*board.Board, error) { return board.New(ctx, c, name, boardLayout(t), o) }
		rows = append(rows,
			row{name + " SubmitMany of 5,000 without data", func(c rueidis.Client) error {
				b, err := open(c)
				if err != nil {
					return err
				}
				return firstErr(b.SubmitMany(ctx, plain))
			}},
			row{name + " SubmitMany of 5,000 with data", func(c rueidis.Client) error {
				b, err := open(c)
				if err != nil {
					return err
				}
				return firstErr(b.SubmitMany(ctx, subs))
			}},
			row{name + " Among of 1,000 ids", func(c rueidis.Client) error {
				b, err := open(c)
				if err != nil {
					return err
				}
				_, err = b.Among(ctx, ids, board.WithData(), board.WithRanks(board.Competition))
				return err
			}},
			row{name + " Top of 1,000", func(c rueidis.Client) error {
				b, err := open(c)
				if err != nil {
					return err
				}
				_, err = b.Top(ctx, 1000, board.WithData(), board.WithRanks(board.Competition))
				return err
			}},
			row{name + " Remove of 1,000 ids", func(c rueidis.Client) error {
				b, err := open(c)
				if err != nil {
					return err
				}
				_, err = b.Remove(ctx, ids...)
				return err
			}},
		)
	}
	rows = append(rows,
		row{"Migrate of 4,000 entries in steps of 500", func(c rueidis.Client) error {
			b, err := board.New(ctx, c, "args-migrate", boardLayout(t), board.Options{Strategy: board.KeySuffix})
			if err != nil {
				return err
			}
			if err := firstErr(b.SubmitMany(ctx, subs[1000:])); err != nil {
				return err
			}
			_, err = b.Migrate(ctx, boardLayout(t), board.Options{DenseRanks: true}, board.MigrateOptions{Batch: 500})
			return err
		}},
		row{"Reshard of 256 shards to 2 in steps of 500", func(c rueidis.Client) error {
			b, err := board.New(ctx, c, "args-reshard", boardLayout(t), board.Options{Shards: 256})
			if err != nil {
				return err
			}
			if err := firstErr(b.SubmitMany(ctx, subs[:2000])); err != nil {
				return err
			}
			_, err = b.Reshard(ctx, 2, board.MigrateOptions{Batch: 500})
			return err
		}},
		row{"Group of 16 boards: Submit, Remove of 1,000 ids; of 64 boards: Submit, Remove of 250 ids", func(c rueidis.Client) error {
			// The 64 boards have the most keys a board's script takes: key
			// suffix, dense ranks, hiding and a kept top.
			heavy := board.Options{Strategy: board.KeySuffix, DenseRanks: true, Hiding: true, KeepTop: 10}
			for _, size := range []struct {
				boards, ids int
				opts        board.Options
			}{{16, 1000, board.Options{}}, {64, 250, heavy}} {
				var bs []*board.Board
				for i := range size.boards {
					o := size.opts
					o.Group, o.SharedData = "args-group"+strconv.Itoa(size.boards), true
					if size.boards == 16 {
						o.DenseRanks = i%2 == 0
					}
					b, err := board.New(ctx, c, "args-g"+strconv.Itoa(i), boardLayout(t), o)
					if err != nil {
						return err
					}
					bs = append(bs, b)
				}
				g, err := board.NewGroup(bs...)
				if err != nil {
					return err
				}
				one := make([]board.Submission, size.boards) // one per board, of one id
				for i := range one {
					one[i] = subs[0]
				}
				rs, err := g.Submit(ctx, one)
				if err != nil {
					return err
				}
				if err := firstErr(rs); err != nil {
					return err
				}
				if _, err = g.Remove(ctx, ids[:size.ids]...); err != nil {
					return err
				}
			}
			return nil
		}},
		row{"timeline AppendMany of 5,000, Remove of 50", func(c rueidis.Client) error {
			tl, err := timeline.New(c, "args", tsid.TSID, timeline.Options{MaxLen: 4000})
			if err != nil {
				return err
			}
			msgs := make([]timeline.Message[uint64], 5000)
			for i := range msgs {
				msgs[i] = timeline.Message[uint64]{ID: uint64(1000+i) << 22, Payload: []byte("m")}
			}
			if err := tl.AppendMany(ctx, msgs); err != nil {
				return err
			}
			rm := make([]uint64, timeline.MaxRemove)
			for i := range rm {
				rm[i] = msgs[len(msgs)-1-i].ID
			}
			_, err = tl.Remove(ctx, rm...)
			return err
		}},
		row{"decimalmap Add of 100 values, Remove of 1,000 keys", func(c rueidis.Client) error {
			m, err := decimalmap.New(c, "args", decimalmap.Options{})
			if err != nil {
				return err
			}
			values := make([]string, decimalmap.MaxAddValues)
			for i := range values {
				values[i] = "v" + strconv.Itoa(i)
			}
			if _, err := m.Add(ctx, "1.5", values...); err != nil {
				return err
			}
			keys := make([]string, decimalmap.MaxRemove)
			for i := range keys {
				keys[i] = strconv.Itoa(i) + ".25"
			}
			_, err = m.Remove(ctx, keys...)
			return err
		}},
		row{"ratelimit AllowN of 1,000", func(c rueidis.Client) error {
			l, err := ratelimit.New(c, ratelimit.Options{})
			if err != nil {
				return err
			}
			_, err = l.AllowN(ctx, "args", ratelimit.Limit{N: 1000, Window: time.Minute}, ratelimit.MaxAllowN)
			return err
		}},
	)
	for _, r := range rows {
		n, name := largest(t, client, r.call)
		t.Logf("%s: at most %d arguments (%s)", r.what, n, name)
		if n > maxCommandArgs {
			t.Errorf("%s sent %s with %d arguments, over %d", r.what, name, n, maxCommandArgs)
		}
	}
}

// firstErr is the first error of rs.
func firstErr(rs []board.ManyResult) error {
	for _, r := range rs {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}
