package board

import "github.com/redis/rueidis"

// WithoutZRankWithScore returns a client of its own that sends through c
// and is taken to be one of an engine that refused ZRANK ... WITHSCORE:
// the native writes of its boards send ZSCORE and ZRANK, as on Redis 7.0.
// For the benchmarks, outside the package.
func WithoutZRankWithScore(c rueidis.Client) rueidis.Client {
	o := &otherClient{c}
	zrankWithScore.Refuse(o)
	return o
}
