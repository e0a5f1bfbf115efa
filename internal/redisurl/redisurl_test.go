package redisurl

import (
	"strings"
	"testing"
)

func TestParseAcceptsTheForm(t *testing.T) {
	for _, raw := range []string{"redis://127.0.0.1:6379", "redis://u:secret@h:1/2", "rediss://h:6380", "unix:///tmp/redis.sock"} {
		opt, err := Parse(raw)
		if err != nil {
			t.Errorf("Parse(%q): %v", raw, err)
			continue
		}
		if len(opt.InitAddress) != 1 {
			t.Errorf("Parse(%q).InitAddress = %v, want one address", raw, opt.InitAddress)
		}
	}
}

func TestParseRefusesWithFormAndNoPassword(t *testing.T) {
	for _, raw := range []string{"127.0.0.1:6379", "http://u:secret@h:1", "redis://u:secret@h:notaport", "redis://u:secret@h:1/x", "redis://u:secret@%zz"} {
		_, err := Parse(raw)
		if err == nil {
			t.Errorf("Parse(%q) accepted a malformed URL", raw)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "secret") {
			t.Errorf("Parse(%q) error shows the password: %s", raw, msg)
		}
		if !strings.Contains(msg, Form) {
			t.Errorf("Parse(%q) error does not say the form expected: %s", raw, msg)
		}
	}
}

func TestRedact(t *testing.T) {
	for raw, want := range map[string]string{
		"redis://u:secret@h:1/0": "redis://u:xxxxx@h:1/0",
		"redis://h:1":            "redis://h:1",
		"redis://u:secret@%zz":   "(unparseable, not shown)",
	} {
		if got := Redact(raw); got != want {
			t.Errorf("Redact(%q) = %q, want %q", raw, got, want)
		}
	}
}
