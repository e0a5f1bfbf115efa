package ratelimit

import (
	"context"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// newLimiter returns a limiter on client whose keys all contain prefix, so
// the redistest cleanup deletes them.
func newLimiter(t testing.TB, client rueidis.Client, prefix string) *Limiter {
	t.Helper()
	l, err := New(client, Options{Prefix: prefix + ":"})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return l
}

// mustAllowN calls AllowN and fails t on error.
func mustAllowN(t testing.TB, l *Limiter, key string, limit Limit, n int) Result {
	t.Helper()
	res, err := l.AllowN(context.Background(), key, limit, n)
	if err != nil {
		t.Fatalf("AllowN(%q, %v, %d): %v", key, limit, n, err)
	}
	return res
}

// zcard returns the number of entries in a Redis key.
func zcard(t testing.TB, client rueidis.Client, key string) int64 {
	t.Helper()
	n, err := client.Do(context.Background(), client.B().Zcard().Key(key).Build()).AsInt64()
	if err != nil {
		t.Fatalf("ZCARD %s: %v", key, err)
	}
	return n
}

// pttl returns the time to live of a Redis key (-2: absent, -1: none).
func pttl(t testing.TB, client rueidis.Client, key string) time.Duration {
	t.Helper()
	ms, err := client.Do(context.Background(), client.B().Pttl().Key(key).Build()).AsInt64()
	if err != nil {
		t.Fatalf("PTTL %s: %v", key, err)
	}
	if ms < 0 {
		return time.Duration(ms)
	}
	return time.Duration(ms) * time.Millisecond
}

// pexpiretime returns the absolute expiry of a Redis key in Unix ms
// (-2: absent, -1: none).
func pexpiretime(t testing.TB, client rueidis.Client, key string) int64 {
	t.Helper()
	ms, err := client.Do(context.Background(), client.B().Pexpiretime().Key(key).Build()).AsInt64()
	if err != nil {
		t.Fatalf("PEXPIRETIME %s: %v", key, err)
	}
	return ms
}
