package hashtag

import (
	"errors"
	"strings"
	"testing"
)

var errBad = errors.New("bad")

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		s    string
		ok   bool
		want string // in the message
	}{
		{"a", true, ""},
		{"user:42", true, ""},
		{strings.Repeat("x", 10), true, ""},
		{"", false, "x: name is empty"},
		{strings.Repeat("x", 11), false, "of 11 bytes out of range [1, 10]"},
		{"a{b", false, `"a{b" holds a brace`},
		{"}", false, "holds a brace"},
	} {
		err := Check(tc.s, 10, "x: name", errBad)
		if tc.ok {
			if err != nil {
				t.Errorf("Check(%q) = %v, want nil", tc.s, err)
			}
			continue
		}
		if !errors.Is(err, errBad) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%q) = %v, want an error wrapping errBad that says %q", tc.s, err, tc.want)
		}
	}
}

// The Redis Cluster specification's CRC16 check value: "123456789" hashes
// to 0x31C3. The board's cluster tests compare Slot with CLUSTER KEYSLOT
// on a real cluster.
func TestSlotCheckValue(t *testing.T) {
	if got, want := Slot("123456789"), 0x31C3; got != want {
		t.Errorf("Slot(%q) = %#x, want %#x", "123456789", got, want)
	}
	for _, s := range []string{"", "a", "tb", strings.Repeat("\xff", 300)} {
		if got := Slot(s); got < 0 || got >= Slots {
			t.Errorf("Slot(%q) = %d, out of [0, %d)", s, got, Slots)
		}
	}
}
