package hashtag

import (
	"errors"
	"strconv"
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

// Partition spreads ids over every partition, each id always to the same
// one, and the known values of FNV-1a hold (the stored partitions of a
// league depend on them).
func TestPartition(t *testing.T) {
	seen := map[int]int{}
	for i := range 1000 {
		id := "p" + strconv.Itoa(i)
		p := Partition(id, 7)
		if p < 0 || p >= 7 || Partition(id, 7) != p {
			t.Fatalf("Partition(%s, 7) = %d", id, p)
		}
		seen[p]++
	}
	for p := range 7 {
		if seen[p] < 100 {
			t.Errorf("partition %d got %d of 1000 ids", p, seen[p])
		}
	}
	// FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c.
	if got, want := Partition("a", 1<<30), int(uint64(0xaf63dc4c8601ec8c)%(1<<30)); got != want {
		t.Errorf("Partition(a, 2^30) = %d, want %d", got, want)
	}
}
