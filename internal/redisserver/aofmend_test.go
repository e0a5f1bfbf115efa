package redisserver

import "testing"

// Only a server whose last --appendonly is yes reads an append-only file
// at its start, and so only it may need its file rewritten.
func TestAppendOnly(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--appendonly", "no"}, false},
		{[]string{"--appendonly", "yes"}, true},
		{[]string{"--appendonly", "no", "--appendfsync", "always", "--appendonly", "yes"}, true},
		{[]string{"--appendonly", "yes", "--appendonly", "no"}, false},
		{[]string{"--port", "1", "--appendonly"}, false},
		{[]string{"--appendonly", "YES"}, true},
	} {
		if got := appendOnly(c.args); got != c.want {
			t.Errorf("appendOnly(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
