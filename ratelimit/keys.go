package ratelimit

import (
	"fmt"
	"strings"
)

// MaxKeyLen is the longest limited key, in bytes.
const MaxKeyLen = 512

// DefaultPrefix is the default Options.Prefix.
const DefaultPrefix = "rl:"

// redisKey returns the Redis key of the log of key: prefix{key}. The braces
// make key the hash tag, so each limited key lives in one Redis Cluster
// slot and different keys spread over the cluster.
func redisKey(prefix, key string) (string, error) {
	switch {
	case key == "":
		return "", fmt.Errorf("ratelimit: empty key: %w", ErrKey)
	case len(key) > MaxKeyLen:
		return "", fmt.Errorf("ratelimit: key of %d bytes, over %d: %w", len(key), MaxKeyLen, ErrKey)
	case strings.ContainsAny(key, "{}"):
		return "", fmt.Errorf("ratelimit: key %q holds a brace: %w", key, ErrKey)
	}
	return prefix + "{" + key + "}", nil
}
