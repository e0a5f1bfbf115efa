package faulttest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/board/league"
)

// Every feature of a board that its own scripts serve (a tournament's
// rules and entrants, request ids, a kept top read from client memory and
// watched, hiding, emptying, percentiles, a key-suffix board emptied id
// by id) and a league run as a user holding exactly the ACL
// docs/operating.md lists for board, and for a handle with CacheTop: the
// ACL refuses nothing, and every key is in one object's namespace.
func TestBoardFeaturesLeastPrivilege(t *testing.T) {
	srv, admin := aclServer(t)
	var patterns []string
	for _, n := range []string{"cup", "hot", "hotweek:*", "veil", "ks", "req", "pct", "pct~*", "lg", "lg~*", "game"} {
		patterns = append(patterns, "tb:{"+n+"}:*")
	}
	c := aclUser(t, srv, admin, "features", aclBoard+" "+aclCaching, patterns)
	cs := &calls{t: t, pkg: "board"}
	ctx := t.Context()
	var drops []func(context.Context) error
	for _, ops := range []func(context.Context, *testing.T, *calls, rueidis.Client) func(context.Context) error{
		tournamentOps, requestOps, keptTopOps, hidingOps, keySuffixEmptied, percentileOps, leagueOps,
	} {
		if drop := ops(ctx, t, cs, c); drop != nil {
			drops = append(drops, drop)
		}
	}
	checkKeyspace(t, admin, func(k string) bool {
		for _, p := range patterns {
			if strings.HasPrefix(k, strings.TrimSuffix(strings.TrimSuffix(p, "*}:*"), "}:*")) {
				return true
			}
		}
		return false
	})
	for _, drop := range drops {
		cs.check("Drop", drop(ctx), nil)
	}
	// Drop leaves the results of request ids to expire (see Board.Drop).
	checkKeyspace(t, admin, func(k string) bool {
		ttl, err := admin.Do(ctx, admin.B().Pttl().Key(k).Build()).AsInt64()
		return strings.Contains(k, ":r:") && err == nil && ttl > 0
	})
	checkACLLog(t, admin)
	t.Logf("%d calls", cs.n)
}

// tournamentOps enters, writes, reads and removes members of a board with
// rules.
func tournamentOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) func(context.Context) error {
	rules := board.Rules{End: time.Now().Add(time.Hour), JoinRequired: true, MaxMembers: 3, MaxAttempts: 2}
	b, err := board.New(ctx, c, "cup", boardLayout(t), board.Options{Rules: rules, DenseRanks: true})
	cs.check("New with rules", err, nil)
	if err != nil {
		return nil
	}
	cs.check("Join", b.Join(ctx, "a", "b"), nil)
	cs.check("Submit of an entrant", errOf(b.Submit(ctx, board.Submission{ID: "a", Values: []float64{3, 1, 1}})), nil)
	cs.check("Submit of a stranger", errOf(b.Submit(ctx, board.Submission{ID: "z", Values: []float64{3, 1, 1}})), board.ErrNotJoined)
	cs.check("Entrant", errOf(b.Entrant(ctx, "a")), nil)
	cs.check("Remove an entrant", errOf(b.Remove(ctx, "a")), nil)
	return b.Drop
}

// requestOps writes with request ids, once and again, on a board and a
// group.
func requestOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) func(context.Context) error {
	b, err := board.New(ctx, c, "req", boardLayout(t), board.Options{})
	cs.check("New", err, nil)
	if err != nil {
		return nil
	}
	sub := board.Submission{ID: "a", Values: []float64{1, 1, 1}, Fields: []board.Policy{board.Add, board.Replace, board.Replace}, RequestID: "r1"}
	for range 2 {
		cs.check("Submit with a request id", errOf(b.Submit(ctx, sub)), nil)
	}
	var gb []*board.Board
	for _, n := range []string{"all", "week"} {
		g, err := board.New(ctx, c, n, boardLayout(t), board.Options{Group: "game"})
		cs.check("New in a group", err, nil)
		if err != nil {
			return b.Drop
		}
		gb = append(gb, g)
	}
	g, err := board.NewGroup(gb...)
	cs.check("NewGroup", err, nil)
	if err == nil {
		e := sub
		for range 2 {
			cs.check("group Submit with a request id", errOf(g.Submit(ctx, []board.Submission{e, e})), nil)
		}
	}
	return func(ctx context.Context) error { return errors.Join(b.Drop(ctx), gb[0].Drop(ctx), gb[1].Drop(ctx)) }
}

// keptTopOps writes a board that keeps its top, reads it from client
// memory and watches it.
func keptTopOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) func(context.Context) error {
	b, err := board.New(ctx, c, "hot", boardLayout(t), board.Options{KeepTop: 3, CacheTop: true, Strategy: board.KeySuffix})
	cs.check("New keeping its top", err, nil)
	if err != nil {
		return nil
	}
	for i, id := range []string{"a", "b", "c", "d"} {
		cs.check("Submit", errOf(b.Submit(ctx, board.Submission{ID: id, Values: []float64{float64(i), 1, 1}})), nil)
	}
	for range 2 {
		cs.check("cached Top", errOf(b.Top(ctx, 3)), nil)
	}
	wctx, stop := context.WithCancel(ctx)
	top := func(ctx context.Context) (board.List, error) { return b.Top(ctx, 3) }
	err = board.Watch(wctx, time.Millisecond, top, func(board.List) error { stop(); return nil })
	cs.check("Watch", err, context.Canceled)
	cs.check("Remove from the top", errOf(b.Remove(ctx, "d")), nil)
	cs.check("Remove the rest", errOf(b.Remove(ctx, "a", "b", "c")), nil) // the kept top goes too
	cs.check("Submit again", errOf(b.Submit(ctx, board.Submission{ID: "e", Values: []float64{1, 1, 1}})), nil)
	cs.check("Clear", b.Clear(ctx), nil)
	// A window's kept top expires with it.
	p, err := board.NewPeriodic(c, "hotweek", boardLayout(t), board.Daily(nil), time.Hour, board.Options{KeepTop: 3})
	cs.check("NewPeriodic keeping its top", err, nil)
	if err != nil {
		return b.Drop
	}
	w := p.At(time.Now())
	cs.check("window Submit", errOf(w.Submit(ctx, board.Submission{ID: "a", Values: []float64{1, 1, 1}})), nil)
	return func(ctx context.Context) error { return errors.Join(b.Drop(ctx), w.Drop(ctx)) }
}

// hidingOps hides and shows a member.
func hidingOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) func(context.Context) error {
	b, err := board.New(ctx, c, "veil", boardLayout(t), board.Options{Hiding: true, Strategy: board.KeySuffix, DenseRanks: true})
	cs.check("New with hiding", err, nil)
	if err != nil {
		return nil
	}
	for i, id := range []string{"a", "b"} {
		cs.check("Submit", errOf(b.Submit(ctx, board.Submission{ID: id, Values: []float64{float64(i), 1, 1}})), nil)
	}
	cs.check("Hide", errOf(b.Hide(ctx, "a")), nil)
	cs.check("Top while hiding", errOf(b.Top(ctx, 3)), nil)
	cs.check("Show", errOf(b.Show(ctx, "a")), nil)
	return b.Drop
}

// keySuffixEmptied removes every id of a key-suffix board, one by one:
// the last one deletes its lookup.
func keySuffixEmptied(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) func(context.Context) error {
	b, err := board.New(ctx, c, "ks", boardLayout(t), board.Options{Strategy: board.KeySuffix})
	cs.check("New key suffix", err, nil)
	if err != nil {
		return nil
	}
	var ids []string // enough for the lookup to split its buckets
	for i := range 40 {
		ids = append(ids, fmt.Sprintf("p%d", i))
		cs.check("Submit", errOf(b.Submit(ctx, board.Submission{ID: ids[i], Values: []float64{float64(i), 1, 1}})), nil)
	}
	for _, id := range ids {
		cs.check("Remove", errOf(b.Remove(ctx, id)), nil)
	}
	return b.Drop
}

// percentileOps reads a member's percentile on a sharded board.
func percentileOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) func(context.Context) error {
	b, err := board.New(ctx, c, "pct", boardLayout(t), board.Options{Shards: 2})
	cs.check("New sharded", err, nil)
	if err != nil {
		return nil
	}
	for i, id := range []string{"a", "b", "c", "d"} {
		cs.check("Submit", errOf(b.Submit(ctx, board.Submission{ID: id, Values: []float64{float64(i), 1, 1}})), nil)
	}
	cs.check("Percentile", errOf(b.Percentile(ctx, "b")), nil)
	return b.Drop
}

// leagueOps places members, rolls a season and reads the league.
func leagueOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) func(context.Context) error {
	origin := time.Now().Add(-time.Hour).Truncate(time.Hour)
	l, err := league.New(ctx, c, "lg", boardLayout(t), board.Every(time.Hour).From(origin), league.Options{
		CohortSize: 2, Partitions: 2, Promote: league.Zone{Count: 1}, Board: board.Options{Strategy: board.KeySuffix}})
	cs.check("league New", err, nil)
	if err != nil {
		return nil
	}
	s := l.At(origin)
	for i, id := range []string{"a", "b", "c", "d", "e"} {
		sub := board.Submission{ID: id, Values: []float64{float64(i), 1, 1}, RequestID: "r-" + id}
		cs.check("league Submit", errOf(s.Submit(ctx, sub)), nil)
	}
	cs.check("Roll", s.Roll(ctx), nil)
	cs.check("Tier", errOf(l.Tier(ctx, "e")), nil)
	cs.check("History", errOf(l.History(ctx, "e")), nil)
	cs.check("Cohorts", errOf(s.Cohorts(ctx, "bronze")), nil)
	cs.check("next season's Submit", errOf(l.At(origin.Add(time.Hour)).Submit(ctx, board.Submission{ID: "e", Values: []float64{1, 1, 1}})), nil)
	return l.Drop
}
