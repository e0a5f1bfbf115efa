package baseline

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// WatchMulti is the watch-multi baseline, the usual hand-written
// leaderboard: a sorted set whose member carries the tie-breaking fields
// before the id, and a HASH from id to the current member so that a player
// has one entry. Only a better result replaces the stored one; the replace
// (remove the old member, add the new one, update the HASH) runs in
// WATCH/MULTI/EXEC and is retried when EXEC aborts.
//
//	Z  sorted set: score = points, member = "<tie-breakers, RestDigits digits>:<id>"
//	M  HASH id -> member
//
// It is given every benefit the API allows: WATCH and HGET share a round
// trip, and MULTI..EXEC is one pipelined round trip.
type WatchMulti struct {
	client rueidis.Client
	// Z and M are its keys, under the hash tag {name}.
	Z, M string
	// Retries counts the EXECs aborted by a concurrent write.
	Retries atomic.Int64
}

// RestDigits is the width of the member's tie-breaking prefix: the
// tie-breakers are packed into an integer below 10^RestDigits.
const RestDigits = 7

// NewWatchMulti keeps its keys under the hash tag {name}.
func NewWatchMulti(c rueidis.Client, name string) *WatchMulti {
	return &WatchMulti{client: c, Z: "bench:{" + name + "}:z", M: "bench:{" + name + "}:m"}
}

// Member is the stored member of id with the packed tie-breakers rest
// (greater is better).
func (s *WatchMulti) Member(id string, rest uint64) string {
	return fmt.Sprintf("%0*s:%s", RestDigits, strconv.FormatUint(rest, 10), id)
}

// Submit writes (points, rest) for id if it beats the stored entry: more
// points, or as many and greater tie-breakers. It retries aborted
// transactions until one commits or finds nothing to write.
func (s *WatchMulti) Submit(ctx context.Context, id string, points int64, rest uint64) error {
	for {
		done, err := s.try(ctx, id, float64(points), s.Member(id, rest))
		if err != nil || done {
			return err
		}
		s.Retries.Add(1)
	}
}

// try makes one WATCH/MULTI/EXEC attempt on a dedicated connection; done
// is false when EXEC aborted.
func (s *WatchMulti) try(ctx context.Context, id string, points float64, nm string) (done bool, err error) {
	err = s.client.Dedicated(func(c rueidis.DedicatedClient) error {
		r := c.DoMulti(ctx, c.B().Watch().Key(s.Z, s.M).Build(), c.B().Hget().Key(s.M).Field(id).Build())
		old, err := r[1].ToString()
		if err = cmp.Or(r[0].Error(), redisops.NilOK(err)); err != nil {
			return err
		}
		if old != "" {
			score, err := c.Do(ctx, c.B().Zscore().Key(s.Z).Member(old).Build()).AsFloat64()
			if rueidis.IsRedisNil(err) {
				// A concurrent write replaced the member since HGET: EXEC
				// would abort, so retry now.
				return c.Do(ctx, c.B().Unwatch().Build()).Error()
			}
			if better := points > score || (points == score && nm[:RestDigits] > old[:RestDigits]); err != nil || !better {
				done = err == nil
				return cmp.Or(err, c.Do(ctx, c.B().Unwatch().Build()).Error())
			}
		}
		done, err = s.exec(ctx, c, id, old, nm, points)
		return err
	})
	return done, err
}

// exec replaces old (if any) by the new member in one transaction; false
// when a watched key changed.
func (s *WatchMulti) exec(ctx context.Context, c rueidis.DedicatedClient, id, old, nm string, score float64) (bool, error) {
	cmds := rueidis.Commands{c.B().Multi().Build()}
	if old != "" {
		cmds = append(cmds, c.B().Zrem().Key(s.Z).Member(old).Build())
	}
	cmds = append(cmds,
		c.B().Zadd().Key(s.Z).ScoreMember().ScoreMember(score, nm).Build(),
		c.B().Hset().Key(s.M).FieldValue().FieldValue(id, nm).Build(),
		c.B().Exec().Build())
	res := c.DoMulti(ctx, cmds...)
	err := res[len(res)-1].Error()
	if rueidis.IsRedisNil(err) {
		return false, nil
	}
	return err == nil, err
}

// Seed writes entries without comparing, pipelined: ids[i] with points[i]
// and rests[i].
func (s *WatchMulti) Seed(ctx context.Context, ids []string, points []int64, rests []uint64) error {
	c := s.client
	cmds := make(rueidis.Commands, 0, 2*len(ids))
	for i, id := range ids {
		m := s.Member(id, rests[i])
		cmds = append(cmds, c.B().Zadd().Key(s.Z).ScoreMember().ScoreMember(float64(points[i]), m).Build(),
			c.B().Hset().Key(s.M).FieldValue().FieldValue(id, m).Build())
	}
	return redisops.FirstErr(c.DoMulti(ctx, cmds...))
}

// Keys returns the baseline's keys.
func (s *WatchMulti) Keys() []string { return []string{s.Z, s.M} }
