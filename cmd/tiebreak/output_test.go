package main

import (
	"strings"
	"testing"
	"time"
)

// ago rounds to a tenth of a second, and says "now" rather than "in 0s".
func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "now"}, {40 * time.Millisecond, "now"}, {-40 * time.Millisecond, "now"},
		{58200 * time.Millisecond, "in 58.2s"}, {-3 * time.Minute, "3m0s ago"}, {60 * time.Millisecond, "in 100ms"},
	} {
		if got := ago(now.Add(c.d), now); got != c.want {
			t.Errorf("ago(now%+v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// count names one thing in the singular, whatever the unit list prints.
func TestCountSingular(t *testing.T) {
	for _, unit := range []string{"entries", "messages", "keys", "requests", "values", "partitions"} {
		if got := count(1, unit); got == "1 "+unit {
			t.Errorf("count(1, %q) = %q", unit, got)
		}
	}
}

// A name holding a newline, a tab or a control byte breaks neither a row
// nor a note: rows Go-quote the cell, notes escape the byte alone.
func TestTableShowsControlBytes(t *testing.T) {
	var out strings.Builder
	tb := &table{header: []string{"NAME", "SIZE"}}
	tb.add("new\nline", "1")
	tb.note("board %s: done: remove 1 entry (keys: tb:{%s}:z)", "new\nline", "tab\there\x00")
	if err := (&printer{w: &out}).emit(nil, tb); err != nil {
		t.Fatal(err)
	}
	want := "NAME         SIZE\n\"new\\nline\"  1\n\nboard new\\nline: done: remove 1 entry (keys: tb:{tab\there\\x00}:z)\n"
	if out.String() != want {
		t.Errorf("table with control bytes:\n%q\nwant\n%q", out.String(), want)
	}
}
