package redistest

import (
	"context"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// testCtx returns a context that ends with the test or after a minute.
func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// set stores value at key, failing t on error.
func set(t *testing.T, c rueidis.Client, key, value string) {
	t.Helper()
	if err := c.Do(testCtx(t), c.B().Set().Key(key).Value(value).Build()).Error(); err != nil {
		t.Fatalf("SET %s: %v", key, err)
	}
}

// get returns the value at key and whether it exists, failing t on error.
func get(t *testing.T, c rueidis.Client, key string) (string, bool) {
	t.Helper()
	v, err := c.Do(testCtx(t), c.B().Get().Key(key).Build()).ToString()
	if rueidis.IsRedisNil(err) {
		return "", false
	}
	if err != nil {
		t.Fatalf("GET %s: %v", key, err)
	}
	return v, true
}

// keysMatching returns the keys containing prefix on every node of c.
func keysMatching(t *testing.T, c rueidis.Client, prefix string) []string {
	t.Helper()
	keys, err := redisops.ScanKeys(testCtx(t), c, "*"+prefix+"*")
	if err != nil {
		t.Fatalf("SCAN *%s*: %v", prefix, err)
	}
	return keys
}
