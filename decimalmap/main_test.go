package decimalmap

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// newMap builds a map with a name unique to the test on client; the
// redistest cleanup deletes its keys, as the name holds prefix.
func newMap(t testing.TB, client rueidis.Client, prefix, suffix string) *Map {
	t.Helper()
	m, err := New(client, prefix+"_"+suffix, Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m
}

// priceIndex is the price-index example: five prices, each with the users
// who asked for it, repeats kept, smallest price first.
var priceIndex = []Entry{
	{Key: "25500.12345", Values: []string{"user1", "user2"}},
	{Key: "25500.12346", Values: []string{"user2", "user3", "user2"}},
	{Key: "25505.05443", Values: []string{"user2", "user1"}},
	{Key: "25505.233", Values: []string{"user3"}},
	{Key: "25506.12345", Values: []string{"user3", "user5"}},
}

// addAll adds every entry, failing t on an error.
func addAll(t testing.TB, m *Map, entries []Entry) {
	t.Helper()
	for _, e := range entries {
		if _, err := m.Add(context.Background(), e.Key, e.Values...); err != nil {
			t.Fatalf("Add(%q, %q): %v", e.Key, e.Values, err)
		}
	}
}

// snapshot returns every Redis key containing prefix with its type and
// contents, as lines, sorted: equal snapshots mean nothing was written.
func snapshot(t testing.TB, client rueidis.Client, prefix string) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for _, node := range client.Nodes() {
		keys, err := node.Do(ctx, node.B().Keys().Pattern("*"+prefix+"*").Build()).AsStrSlice()
		if err != nil {
			t.Fatalf("KEYS: %v", err)
		}
		for _, k := range keys {
			typ, err := node.Do(ctx, node.B().Type().Key(k).Build()).ToString()
			if err != nil {
				t.Fatalf("TYPE %s: %v", k, err)
			}
			var body []string
			switch typ {
			case "list":
				body, err = node.Do(ctx, node.B().Lrange().Key(k).Start(0).Stop(-1).Build()).AsStrSlice()
			case "zset":
				body, err = node.Do(ctx, node.B().Zrange().Key(k).Min("0").Max("-1").Withscores().Build()).AsStrSlice()
			case "string":
				var s string
				s, err = node.Do(ctx, node.B().Get().Key(k).Build()).ToString()
				body = []string{s}
			}
			if err != nil {
				t.Fatalf("reading %s: %v", k, err)
			}
			out = append(out, k+" "+typ+" "+strings.Join(body, "\x1f"))
		}
	}
	slices.Sort(out)
	return out
}
