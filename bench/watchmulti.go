package main

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/redis/rueidis"
)

// watchMulti is the watch-multi baseline, the usual hand-written leaderboard: a
// sorted set whose member carries the tie-breaking fields before the id,
// and a HASH from id to the current member so that a player has one entry.
// Only a better result replaces the stored one; the replace (remove the old
// member, add the new one, update the HASH) runs in WATCH/MULTI/EXEC and
// is retried when EXEC aborts, the retries left to the caller.
//
//	z  sorted set: score = points, member = "<paid,time packed: 7 digits>:<id>"
//	m  HASH id -> member
//
// It is given every benefit the API allows: WATCH and HGET share a round
// trip, and MULTI..EXEC is one pipelined round trip.
type watchMulti struct {
	client  rueidis.Client
	z, m    string
	retries atomic.Int64 // EXECs aborted by a concurrent write
}

// restDigits is the width of the watch-multi baseline's member prefix: the packing of
// (paid, time) is below 2^23 = 8388608.
const restDigits = 7

// newWatchMulti keeps its keys under the hash tag {name}.
func newWatchMulti(c rueidis.Client, name string) *watchMulti {
	return &watchMulti{client: c, z: "bench:{" + name + "}:z", m: "bench:{" + name + "}:m"}
}

// member is the stored member of id with e's tie-breaking fields.
func (s *watchMulti) member(id string, e entry) string {
	r := strconv.FormatUint(e.rest(), 10)
	return fmt.Sprintf("%0*s:%s", restDigits, r, id)
}

// better reports whether e beats the stored (score, member): more points,
// or equal points and a greater (paid, time) packing, which reads first in
// ZREVRANGE.
func (s *watchMulti) better(e entry, newMember string, score float64, old string) bool {
	p := float64(e.points)
	return p > score || (p == score && newMember[:restDigits] > old[:restDigits])
}

// submit writes e for id if it beats the stored entry, retrying aborted
// transactions until one commits or finds nothing to write.
func (s *watchMulti) submit(ctx context.Context, id string, e entry) error {
	for {
		done, err := s.try(ctx, id, e)
		if err != nil || done {
			return err
		}
		s.retries.Add(1)
	}
}

// try makes one WATCH/MULTI/EXEC attempt on a dedicated connection; done
// is false when EXEC aborted.
func (s *watchMulti) try(ctx context.Context, id string, e entry) (done bool, err error) {
	nm := s.member(id, e)
	err = s.client.Dedicated(func(c rueidis.DedicatedClient) error {
		r := c.DoMulti(ctx, c.B().Watch().Key(s.z, s.m).Build(), c.B().Hget().Key(s.m).Field(id).Build())
		old, err := r[1].ToString()
		if err = firstErr(r[0].Error(), nilOK(err)); err != nil {
			return err
		}
		if old != "" {
			score, err := c.Do(ctx, c.B().Zscore().Key(s.z).Member(old).Build()).AsFloat64()
			if rueidis.IsRedisNil(err) {
				// A concurrent write replaced the member since HGET: EXEC
				// would abort, so retry now.
				return c.Do(ctx, c.B().Unwatch().Build()).Error()
			}
			if err != nil || !s.better(e, nm, score, old) {
				done = err == nil
				return firstErr(err, c.Do(ctx, c.B().Unwatch().Build()).Error())
			}
		}
		done, err = s.exec(ctx, c, id, old, nm, float64(e.points))
		return err
	})
	return done, err
}

// exec replaces old (if any) by the new member in one transaction; false
// when a watched key changed.
func (s *watchMulti) exec(ctx context.Context, c rueidis.DedicatedClient, id, old, nm string, score float64) (bool, error) {
	cmds := rueidis.Commands{c.B().Multi().Build()}
	if old != "" {
		cmds = append(cmds, c.B().Zrem().Key(s.z).Member(old).Build())
	}
	cmds = append(cmds,
		c.B().Zadd().Key(s.z).ScoreMember().ScoreMember(score, nm).Build(),
		c.B().Hset().Key(s.m).FieldValue().FieldValue(id, nm).Build(),
		c.B().Exec().Build())
	res := c.DoMulti(ctx, cmds...)
	err := res[len(res)-1].Error()
	if rueidis.IsRedisNil(err) {
		return false, nil
	}
	return err == nil, err
}

// load writes entries 0..n-1 with zero points, pipelined.
func (s *watchMulti) load(ctx context.Context, from, to int64) error {
	c := s.client
	cmds := make(rueidis.Commands, 0, 2*(to-from))
	for i := from; i < to; i++ {
		e := startEntry(i)
		m := s.member(idOf(i), e)
		cmds = append(cmds, c.B().Zadd().Key(s.z).ScoreMember().ScoreMember(float64(e.points), m).Build(),
			c.B().Hset().Key(s.m).FieldValue().FieldValue(idOf(i), m).Build())
	}
	return firstErr(resultErrs(c.DoMulti(ctx, cmds...))...)
}

// keys returns the baseline's keys.
func (s *watchMulti) keys() []string { return []string{s.z, s.m} }
