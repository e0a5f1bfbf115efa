package tsid

import "errors"

// Sentinel errors of Timeline. They join those of errors.go: every error a
// Timeline returns wraps exactly one sentinel of this package (a refused
// cursor wraps the layout's own: ErrRange, ErrVersion...), so callers test
// with errors.Is.
var (
	// ErrRoom reports a room name that is empty, longer than MaxRoomLen
	// bytes or holds a brace, which would break the room's hash tag.
	ErrRoom = errors.New("tsid: invalid room")

	// ErrPageSize reports a page size n below 0 or above the timeline's
	// MaxPage (0 means the timeline's DefaultPage).
	ErrPageSize = errors.New("tsid: invalid page size")

	// ErrPayload reports an empty payload (nil or zero bytes) or one longer
	// than the timeline's MaxPayload.
	ErrPayload = errors.New("tsid: invalid payload")

	// ErrNotFound reports an ID that is not in the timeline.
	ErrNotFound = errors.New("tsid: message not found")

	// ErrRedis wraps an error from Redis or the connection (including a
	// cancelled context, which it also wraps).
	ErrRedis = errors.New("tsid: redis error")

	// ErrReply reports a reply of an unexpected shape, or a stored member
	// that is not one the timeline writes: keys changed behind its back.
	ErrReply = errors.New("tsid: unexpected reply")
)
