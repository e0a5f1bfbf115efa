package ratelimit

import "github.com/tiebreak/tiebreak/internal/hashtag"

// MaxKeyLen is the longest limited key, in bytes.
const MaxKeyLen = 512

// DefaultPrefix is the default Options.Prefix.
const DefaultPrefix = "rl:"

// MaxPrefixLen is the longest Options.Prefix, in bytes: every call sends
// it and every log's key holds it.
const MaxPrefixLen = 64

// redisKey returns the Redis key of the log of key: prefix{key}. The braces
// make key the hash tag, so each limited key lives in one Redis Cluster
// slot and different keys spread over the cluster.
func redisKey(prefix, key string) (string, error) {
	if err := hashtag.Check(key, MaxKeyLen, "ratelimit: key", ErrKey); err != nil {
		return "", err
	}
	return prefix + "{" + key + "}", nil
}
