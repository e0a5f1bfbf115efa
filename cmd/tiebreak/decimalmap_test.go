package main

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func testMap(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := context.Background()
	name := env.Prefix + "_prices"
	m := seedMap(t, ctx, env.Client, name)

	for _, q := range []struct {
		flags []string
		query decimalmap.Query
		more  bool
	}{
		{nil, decimalmap.Query{}, false},
		{[]string{"--min", "25500.12345", "--max", "25505.2"}, decimalmap.Query{Min: decimalmap.Inclusive("25500.12345"), Max: decimalmap.Inclusive("25505.2")}, false},
		{[]string{"--gt", "25500.12345", "--lt", "25505.2"}, decimalmap.Query{Min: decimalmap.Exclusive("25500.12345"), Max: decimalmap.Exclusive("25505.2")}, false},
		{[]string{"--gt", "-1", "-n", "2"}, decimalmap.Query{Min: decimalmap.Exclusive("-1"), Limit: 2}, true},
		{[]string{"--reverse", "-n", "3"}, decimalmap.Query{Reverse: true, Limit: 3}, true},
		{[]string{"--min", "2.55001E4", "--reverse"}, decimalmap.Query{Min: decimalmap.Inclusive("25500.1"), Reverse: true}, false},
		{[]string{"--min", "7", "--max", "6"}, decimalmap.Query{Min: decimalmap.Inclusive("7"), Max: decimalmap.Inclusive("6")}, false},
	} {
		es, err := m.Range(ctx, q.query)
		if err != nil {
			t.Fatal(err)
		}
		want := rangeOut{Map: name, Entries: []mapEntry{}, HasMore: q.more}
		for _, e := range es {
			want.Entries = append(want.Entries, mapEntry{Key: e.Key, Values: e.Values})
		}
		if q.more {
			want.Next = want.Entries[len(want.Entries)-1].Key
		}
		var got rangeOut
		c.json(&got, append([]string{"map", "range", name}, q.flags...)...)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("map range %v (-want +got):\n%s", q.flags, diff)
		}
	}
	want := "KEY          VALUES\n" +
		"25500.1      user5\n" +
		"25500.12345  user1\n" +
		"25500.12346  user2, user3, user2\n" +
		"\nmore keys follow: tiebreak map range " + name + " --gt 25500.12346 -n 3\n"
	if diff := cmp.Diff(want, c.ok("map", "range", name, "--min", "25500", "-n", "3")); diff != "" {
		t.Errorf("map range table (-want +got):\n%s", diff)
	}
	// The printed next range, run, lists the keys after the last shown,
	// in the range's direction, within its other bound.
	for _, flags := range [][]string{{"--min", "25500", "-n", "2"}, {"--max", "25505.2", "--reverse", "-n", "2"}} {
		out := c.ok(append([]string{"map", "range", name}, flags...)...)
		_, next, ok := strings.Cut(out, "more keys follow: tiebreak ")
		if !ok {
			t.Fatalf("map range %v: no next range:\n%s", flags, out)
		}
		var page rangeOut
		c.json(&page, strings.Fields(next)...)
		var all rangeOut
		c.json(&all, append([]string{"map", "range", name}, append(flags[:len(flags)-1:len(flags)-1], "10")...)...)
		if len(all.Entries) < 3 || len(page.Entries) == 0 || !cmp.Equal(page.Entries[0], all.Entries[2]) {
			t.Errorf("map range %v: the printed next range %q starts at %+v, want the third key of the whole range %+v", flags, next, page.Entries, all.Entries)
		}
	}
	var got mapGetOut
	c.json(&got, "map", "get", name, "25500.123460")
	if diff := cmp.Diff(mapGetOut{Map: name, mapEntry: mapEntry{Key: "25500.12346", Values: []string{"user2", "user3", "user2"}}}, got, cmp.AllowUnexported(mapGetOut{})); diff != "" {
		t.Errorf("map get (-want +got):\n%s", diff)
	}
	c.fails(exitFailure, []string{`key 42 is not in map "` + name + `" (not found)`}, "map", "get", name, "42")
	c.fails(exitUsage, []string{"--min and --gt both given"}, "map", "range", name, "--min", "1", "--gt", "2")
	c.fails(exitUsage, []string{"Query.Max", "invalid key"}, "map", "range", name, "--max", "abc")
	c.fails(exitUsage, []string{"-n 0"}, "map", "range", name, "-n", "0")
}
