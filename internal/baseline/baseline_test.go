package baseline

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// The price-index example (five prices, the range [25500.12346, 25505.2])
// through the two-level index.
func TestTwoLevelIndexExample(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	s := NewTwoLevelIndex(env.Client, env.Prefix)
	for _, p := range []Price{{"25500.12345", []string{"user1", "user2"}}, {"25500.12346", []string{"user2", "user3", "user2"}},
		{"25505.05443", []string{"user2", "user1"}}, {"25505.233", []string{"user3"}}, {"25506.12345", []string{"user3", "user5"}}} {
		ip, frac := p.Key[:5], p.Key[6:]
		if err := s.Save(ctx, ip, frac, p.Values); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Find(ctx, "25500.12346", "25505.2")
	if err != nil {
		t.Fatal(err)
	}
	want := []Price{{"25500.12346", []string{"user2", "user3", "user2"}}, {"25505.05443", []string{"user2", "user1"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Find (-want +got):\n%s", diff)
	}
}

// The naive log limiter admits its limit, then refuses; requests of one
// millisecond collapse into one member (its bug).
func TestNaiveLogLimiter(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	now := time.UnixMilli(1_700_000_000_000)
	for i := 0; i < 3; i++ {
		ok, err := NaiveLogAllow(ctx, env.Client, env.Prefix+":k", 3, time.Minute, now.Add(time.Duration(i)*time.Millisecond))
		if err != nil || !ok {
			t.Fatalf("request %d: %v, %v", i, ok, err)
		}
	}
	if ok, _ := NaiveLogAllow(ctx, env.Client, env.Prefix+":k", 3, time.Minute, now.Add(5*time.Millisecond)); ok {
		t.Error("fourth request admitted")
	}
	for i := 0; i < 10; i++ {
		if ok, _ := NaiveLogAllow(ctx, env.Client, env.Prefix+":same", 3, time.Minute, now); !ok {
			t.Fatalf("same-millisecond request %d refused: the naive limiter's same-millisecond collapse should admit it", i)
		}
	}
}
