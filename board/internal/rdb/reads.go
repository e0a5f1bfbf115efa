package rdb

import (
	"context"
	"strconv"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisretry"
)

// The reads of one command that a board's hot reads send: each builds
// its command for each send (rueidis recycles a command it sent), so
// that a read allocates no command.

// ZRangeWithScores is ZRANGE key start stop WITHSCORES.
func (c Conn) ZRangeWithScores(ctx context.Context, key string, start, stop int64) Result {
	return Result(redisretry.DoBuilt(ctx, c.c, func() rueidis.Completed {
		return c.c.B().Zrange().Key(key).Min(strconv.FormatInt(start, 10)).Max(strconv.FormatInt(stop, 10)).Withscores().Build()
	}))
}

// ZRank is ZRANK key member.
func (c Conn) ZRank(ctx context.Context, key, member string) Result {
	return Result(redisretry.DoBuilt(ctx, c.c, func() rueidis.Completed {
		return c.c.B().Zrank().Key(key).Member(member).Build()
	}))
}

// ZRankWithScore is ZRANK key member WITHSCORE (Redis 7.2+, Valkey).
func (c Conn) ZRankWithScore(ctx context.Context, key, member string) Result {
	return Result(redisretry.DoBuilt(ctx, c.c, func() rueidis.Completed {
		return c.c.B().Zrank().Key(key).Member(member).Withscore().Build()
	}))
}

// ZCard is ZCARD key.
func (c Conn) ZCard(ctx context.Context, key string) Result {
	return Result(redisretry.DoBuilt(ctx, c.c, func() rueidis.Completed {
		return c.c.B().Zcard().Key(key).Build()
	}))
}

// HGet is HGET key field.
func (c Conn) HGet(ctx context.Context, key, field string) Result {
	return Result(redisretry.DoBuilt(ctx, c.c, func() rueidis.Completed {
		return c.c.B().Hget().Key(key).Field(field).Build()
	}))
}

// HMGet is HMGET key fields...
func (c Conn) HMGet(ctx context.Context, key string, fields ...string) Result {
	return Result(redisretry.DoBuilt(ctx, c.c, func() rueidis.Completed {
		return c.c.B().Hmget().Key(key).Field(fields...).Build()
	}))
}
