package timeline

import (
	"fmt"
	"strings"
)

// MaxRoomLen is the longest room name, in bytes.
const MaxRoomLen = 200

// roomKey returns a room's sorted set, tl:{room}:z. Its hash tag
// {room} is the room's: any key added beside it must share it, so that
// every script runs on one Redis Cluster slot.
func roomKey(room string) string { return "tl:{" + room + "}:z" }

// checkRoom refuses a room name that is empty, too long or holds a brace.
func checkRoom(room string) error {
	switch {
	case room == "":
		return fmt.Errorf("timeline: empty room name: %w", ErrRoom)
	case len(room) > MaxRoomLen:
		return fmt.Errorf("timeline: room name of %d bytes, over %d: %w", len(room), MaxRoomLen, ErrRoom)
	case strings.ContainsAny(room, "{}"):
		return fmt.Errorf("timeline: room name %s holds a brace: %w", quote(room), ErrRoom)
	}
	return nil
}
