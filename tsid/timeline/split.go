package timeline

import (
	"context"
	"strconv"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisretry"
)

// crowdLimit is how many messages of the cursor's time unit the split
// strategy reads with plain commands; a unit holding more is read by a
// script instead (see splitPage).
const crowdLimit = 32

// splitPage reads a split-strategy page before (older) or after a cursor.
// The members older (newer) than the cursor are those of lower (higher)
// scores, plus those of the cursor's own score whose suffix is lower
// (higher). In one MULTI/EXEC round trip, atomic, it reads the cursor's
// time unit (up to crowdLimit+1 members) and the n+1 nearest members of
// the other scores with ZRANGE ... BYSCORE [REV] LIMIT, then picks the
// unit's members in Go. When the unit holds more than crowdLimit members
// (10,000 messages in one millisecond), it reads the page again with the
// binary-searching script: one more round trip, bounded work.
func (tl *Timeline[ID]) splitPage(ctx context.Context, op string, c cursor, n int, older bool) (Page[ID], error) {
	same, others, err := tl.unitAndRest(ctx, op, c, n, older)
	if err != nil {
		return Page[ID]{}, err
	}
	if len(same) > tl.crowd {
		return tl.splitScriptPage(ctx, op, c, n, older)
	}
	members := append(tl.pickUnit(same, c.prefix[:tl.sufLen], older), others...)
	p := Page[ID]{HasMore: len(members) > n}
	if p.Messages, err = tl.messages(members[:min(n, len(members))], false); err != nil {
		return Page[ID]{}, err
	}
	if len(p.Messages) > 0 {
		p.Next = p.Messages[len(p.Messages)-1].ID
	}
	return p, nil
}

// unitAndRest runs splitPage's transaction: the members of the cursor's
// unit (up to crowd+1, ascending) and the n+1 nearest of the other scores
// in the page's direction.
func (tl *Timeline[ID]) unitAndRest(ctx context.Context, op string, c cursor, n int, older bool) (same, others []rueidis.RedisMessage, err error) {
	b, key := tl.client.B(), tl.keys[0]
	res := redisretry.DoReadMulti(ctx, tl.client, func() rueidis.Commands {
		unit := b.Zrange().Key(key).Min(c.score).Max(c.score).Byscore().Limit(0, int64(tl.crowd)+1).Build()
		var rest rueidis.Completed
		if older {
			rest = b.Zrange().Key(key).Min("("+c.score).Max("-inf").Byscore().Rev().Limit(0, int64(n)+1).Build()
		} else {
			rest = b.Zrange().Key(key).Min("("+c.score).Max("+inf").Byscore().Limit(0, int64(n)+1).Build()
		}
		return rueidis.Commands{b.Multi().Build(), unit, rest, b.Exec().Build()}
	})
	for _, r := range res[:3] { // OK, QUEUED, QUEUED
		if err := r.Error(); err != nil {
			return nil, nil, tl.redisErr(op, err)
		}
	}
	got, err := res[3].ToArray()
	if err != nil {
		return nil, nil, tl.redisErr(op, err)
	}
	if len(got) == 2 {
		same, err = got[0].ToArray()
		if err == nil {
			others, err = got[1].ToArray()
		}
	}
	if _, ok := rueidis.IsRedisErr(err); ok {
		return nil, nil, tl.redisErr(op, err) // a command of the transaction failed: WRONGTYPE
	}
	if len(got) != 2 || err != nil {
		return nil, nil, tl.replyErr(op + " transaction reply of the wrong shape")
	}
	return same, others, nil
}

// pickUnit returns the members of the cursor's unit (ascending) whose
// suffix is below suffix, newest first, if older, else those above it,
// oldest first. A member too short to compare is kept for decode to
// report.
func (tl *Timeline[ID]) pickUnit(unit []rueidis.RedisMessage, suffix string, older bool) []rueidis.RedisMessage {
	var out []rueidis.RedisMessage
	for i := range unit {
		j := i
		if older {
			j = len(unit) - 1 - i
		}
		s, _ := unit[j].ToString()
		if len(s) < tl.sufLen || (older && s[:tl.sufLen] < suffix) || (!older && s[:tl.sufLen] > suffix) {
			out = append(out, unit[j])
		}
	}
	return out
}

// splitScriptPage reads a split-strategy page with before_split.lua or
// after_split.lua, which find the cursor by binary search.
func (tl *Timeline[ID]) splitScriptPage(ctx context.Context, op string, c cursor, n int, older bool) (Page[ID], error) {
	args := []string{c.prefix, c.score, strconv.Itoa(n)}
	if older {
		return tl.page(op, tl.scripts.before.Exec(ctx, tl.client, tl.keys, args), n, false)
	}
	return tl.page(op, tl.scripts.after.Exec(ctx, tl.client, tl.keys, args), n, true)
}

// splitGet reads the member of the ID c names: from its unit with one
// ZRANGE ... BYSCORE, or with get_split.lua when the unit is crowded. It
// returns no member when the ID is not stored.
func (tl *Timeline[ID]) splitGet(ctx context.Context, c cursor) ([]rueidis.RedisMessage, error) {
	cmd := tl.client.B().Zrange().Key(tl.keys[0]).Min(c.score).Max(c.score).Byscore().Limit(0, int64(tl.crowd)+1).Build()
	unit, err := tl.client.Do(ctx, cmd).ToArray()
	if err != nil {
		return nil, tl.redisErr("Get", err)
	}
	if len(unit) <= tl.crowd {
		for _, m := range unit {
			if s, _ := m.ToString(); len(s) >= len(c.prefix) && s[:len(c.prefix)] == c.prefix {
				return []rueidis.RedisMessage{m}, nil
			}
		}
		return nil, nil
	}
	m, err := tl.scripts.get.Exec(ctx, tl.client, tl.keys, []string{c.prefix, c.score}).ToMessage()
	if rueidis.IsRedisNil(err) {
		return nil, nil
	}
	if err != nil {
		return nil, tl.redisErr("Get", err)
	}
	return []rueidis.RedisMessage{m}, nil
}
