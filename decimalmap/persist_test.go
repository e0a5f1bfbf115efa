package decimalmap

import (
	"context"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// TestPersistence writes a map to a server with AOF on (appendfsync
// always), restarts it, and finds every key, value and order again.
func TestPersistence(t *testing.T) {
	srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	m, err := New(client, "prices", Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	addAll(t, m, priceIndex)
	extra := []Entry{{Key: "-1E+40", Values: []string{"a"}}, {Key: "0", Values: []string{"b", "b"}}, {Key: "9007199254740993.000001", Values: []string{"c"}}}
	addAll(t, m, extra)
	if _, err := m.RemoveValue(ctx, "25500.12346", "user3"); err != nil {
		t.Fatal(err)
	}
	before, err := m.Range(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	after, err := retry(func() ([]Entry, error) { return m.Range(ctx, Query{}) })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("after restart (-before +after):\n%s", diff)
	}
	want := []string{"user2", "user2"}
	if got, err := m.Get(ctx, "25500.12346"); err != nil || !cmp.Equal(want, got) {
		t.Errorf("Get(25500.12346) after restart = %q, %v; want %q", got, err, want)
	}
	if len(after) != 8 {
		t.Errorf("%d keys after restart, want 8", len(after))
	}
}

// retry calls f again after a failure, at most 3 times: the first command
// after a restart may meet the closed connection.
func retry[T any](f func() (T, error)) (v T, err error) {
	for range 3 {
		if v, err = f(); err == nil {
			return v, nil
		}
	}
	return v, err
}

// TestRangeOneRoundTrip: a Range over 200 keys is one MULTI/EXEC from the
// client, of two ZRANGEs: the keys, and every value of them. Counted on a
// private server, where nothing else runs.
func TestRangeOneRoundTrip(t *testing.T) {
	_, client := redistest.Private(t)
	m, err := New(client, "rt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 200 {
		if _, err := m.Add(ctx, strconv.Itoa(i/10)+"."+strconv.Itoa(i), "v"); err != nil {
			t.Fatal(err)
		}
	}
	if err := client.Do(ctx, client.B().ConfigResetstat().Build()).Error(); err != nil {
		t.Fatal(err)
	}
	got, err := m.Range(ctx, Query{})
	if err != nil || len(got) != 200 {
		t.Fatalf("Range = %d entries, %v", len(got), err)
	}
	stats, err := redisops.CommandCalls(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"multi": 1, "zrange": 2, "exec": 1, "config|resetstat": 1}
	if diff := cmp.Diff(want, stats); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
}
