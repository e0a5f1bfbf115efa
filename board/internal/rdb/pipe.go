package rdb

import (
	"slices"
	"strconv"

	"github.com/redis/rueidis"
)

// Pipe is the commands of one send (Conn.Do, DoMulti, ReadTx), in order.
// Each method adds one command; the names are Redis's.
type Pipe struct {
	c    rueidis.Client
	cmds rueidis.Commands
	buf  [8]rueidis.Completed // cmds's first memory: a write's transaction fits
}

// newPipe is an empty Pipe of c's commands.
func newPipe(c rueidis.Client) *Pipe {
	p := &Pipe{c: c}
	p.cmds = p.buf[:0]
	return p
}

func (p *Pipe) add(c rueidis.Completed) { p.cmds = append(p.cmds, c) }

// Grow makes room for n more commands.
func (p *Pipe) Grow(n int) { p.cmds = slices.Grow(p.cmds, n) }

// Multi is MULTI: the commands up to Exec are one transaction.
func (p *Pipe) Multi() { p.add(p.c.B().Multi().Build()) }

// Exec is EXEC.
func (p *Pipe) Exec() { p.add(p.c.B().Exec().Build()) }

// ClientCachingYes is CLIENT CACHING YES.
func (p *Pipe) ClientCachingYes() { p.add(p.c.B().ClientCaching().Yes().Build()) }

// Exists is EXISTS keys...
func (p *Pipe) Exists(keys ...string) { p.add(p.c.B().Exists().Key(keys...).Build()) }

// Unlink is UNLINK keys...
func (p *Pipe) Unlink(keys ...string) { p.add(p.c.B().Unlink().Key(keys...).Build()) }

// HGet is HGET key field.
func (p *Pipe) HGet(key, field string) { p.add(p.c.B().Hget().Key(key).Field(field).Build()) }

// HGetAll is HGETALL key.
func (p *Pipe) HGetAll(key string) { p.add(p.c.B().Hgetall().Key(key).Build()) }

// HSet is HSET key field value.
func (p *Pipe) HSet(key, field, value string) {
	p.add(p.c.B().Hset().Key(key).FieldValue().FieldValue(field, value).Build())
}

// HSetNX is HSETNX key field value.
func (p *Pipe) HSetNX(key, field, value string) {
	p.add(p.c.B().Hsetnx().Key(key).Field(field).Value(value).Build())
}

// SCard is SCARD key.
func (p *Pipe) SCard(key string) { p.add(p.c.B().Scard().Key(key).Build()) }

// SRandMember is SRANDMEMBER key count.
func (p *Pipe) SRandMember(key string, count int64) {
	p.add(p.c.B().Srandmember().Key(key).Count(count).Build())
}

// SScan is SSCAN key cursor COUNT count.
func (p *Pipe) SScan(key string, cursor uint64, count int64) {
	p.add(p.c.B().Sscan().Key(key).Cursor(cursor).Count(count).Build())
}

// ZAddCh is ZADD key CH score member, with LT where lt: its reply counts
// a changed score too.
func (p *Pipe) ZAddCh(key string, score float64, member string, lt bool) {
	if lt {
		p.add(p.c.B().Zadd().Key(key).Lt().Ch().ScoreMember().ScoreMember(score, member).Build())
		return
	}
	p.add(p.c.B().Zadd().Key(key).Ch().ScoreMember().ScoreMember(score, member).Build())
}

// ZCard is ZCARD key.
func (p *Pipe) ZCard(key string) { p.add(p.c.B().Zcard().Key(key).Build()) }

// ZRange is ZRANGE key start stop: the members of 0-based ranks start to
// stop (-1 the last).
func (p *Pipe) ZRange(key string, start, stop int64) {
	p.add(p.c.B().Zrange().Key(key).Min(strconv.FormatInt(start, 10)).Max(strconv.FormatInt(stop, 10)).Build())
}

// ZRank is ZRANK key member.
func (p *Pipe) ZRank(key, member string) { p.add(p.c.B().Zrank().Key(key).Member(member).Build()) }

// ZRankWithScore is ZRANK key member WITHSCORE (Redis 7.2+, Valkey).
func (p *Pipe) ZRankWithScore(key, member string) {
	p.add(p.c.B().Zrank().Key(key).Member(member).Withscore().Build())
}

// ZScore is ZSCORE key member.
func (p *Pipe) ZScore(key, member string) { p.add(p.c.B().Zscore().Key(key).Member(member).Build()) }
