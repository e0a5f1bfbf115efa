// Package hashtag holds the one rule tiebreak's Redis-backed packages apply
// to the string they put between braces in their keys: a board's name, a
// timeline's room, a decimal map's name, a limited key.
//
//	tb:{name}:z   tb:{name}:i   ...   one object, one hash tag, one slot
//
// Redis Cluster hashes only what stands between the first '{' and the next
// '}', so the string must be non-empty and hold no brace for all of an
// object's keys to land in one slot, which its Lua scripts need.
package hashtag

import (
	"fmt"
	"strings"
)

// Check returns nil if s can be a hash tag of at most max bytes, else an
// error wrapping sentinel that says why: s is empty, longer than max, or
// holds a brace. what names s in the message, package first:
// "board: name", "timeline: room name".
func Check(s string, max int, what string, sentinel error) error {
	switch {
	case s == "":
		return fmt.Errorf("%s is empty, want 1 to %d bytes without a brace: %w", what, max, sentinel)
	case len(s) > max:
		return fmt.Errorf("%s of %d bytes out of range [1, %d]: %w", what, len(s), max, sentinel)
	case strings.ContainsAny(s, "{}"):
		return fmt.Errorf("%s %q holds a brace: %w", what, s, sentinel)
	}
	return nil
}

// Slots is the number of hash slots of a Redis Cluster.
const Slots = 16384

// Slot returns the Redis Cluster hash slot of a key whose hash tag is tag:
// CRC16 (XMODEM) of tag, modulo Slots, as Redis computes it.
func Slot(tag string) int {
	var crc uint16
	for i := 0; i < len(tag); i++ {
		crc ^= uint16(tag[i]) << 8
		for b := 0; b < 8; b++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % Slots
}

// Partition returns the partition, of n, of id: its FNV-1a hash modulo
// n. A league spreads its members over its partitions' hash tags so; the
// command finds a member's partition the same way.
func Partition(id string, n int) int {
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	return int(h % uint64(n))
}
