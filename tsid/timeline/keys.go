package timeline

import "github.com/tiebreak/tiebreak/internal/hashtag"

// MaxRoomLen is the longest room name, in bytes.
const MaxRoomLen = 200

// roomKey returns a room's sorted set, tl:{room}:z. Its hash tag
// {room} is the room's: any key added beside it must share it, so that
// every script runs on one Redis Cluster slot.
func roomKey(room string) string { return "tl:{" + room + "}:z" }

// checkRoom refuses a room name that is empty, too long or holds a brace.
func checkRoom(room string) error {
	return hashtag.Check(room, MaxRoomLen, "timeline: room name", ErrRoom)
}
