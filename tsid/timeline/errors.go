package timeline

import "errors"

// Sentinel errors. Every error a Timeline returns wraps exactly one of
// them, so callers test with errors.Is. An ID the codec refuses is
// reported as ErrID wrapping the codec's own error too: with tsid's
// layouts, errors.Is(err, tsid.ErrRange) and errors.Is(err,
// tsid.ErrVersion) work on it as well.
var (
	// ErrConfig reports a timeline that cannot be built: a nil client or
	// codec, options out of bounds (see Options), a codec whose time part
	// is wider than 53 bits or whose suffix is empty or longer than 64
	// digits. It also reports a codec that breaks the Codec contract when
	// used: a split of the wrong width or a score that is no time part.
	ErrConfig = errors.New("timeline: invalid configuration")

	// ErrRoom reports a room name that is empty, longer than MaxRoomLen
	// bytes or holds a brace, which would break the room's hash tag.
	ErrRoom = errors.New("timeline: invalid room")

	// ErrID reports an ID, of a message or a cursor, that the codec
	// refuses. The error wraps the codec's own error as well: for tsid's
	// layouts, tsid.ErrRange for an ID above the layout's Max and
	// tsid.ErrVersion for a UUID that is not version 7.
	ErrID = errors.New("timeline: invalid ID")

	// ErrPageSize reports a page size n below 0 or above the timeline's
	// MaxPage (0 means the timeline's DefaultPage).
	ErrPageSize = errors.New("timeline: invalid page size")

	// ErrPayload reports an empty payload (nil or zero bytes) or one longer
	// than the timeline's MaxPayload.
	ErrPayload = errors.New("timeline: invalid payload")

	// ErrNotFound reports an ID that is not in the timeline.
	ErrNotFound = errors.New("timeline: message not found")

	// ErrRedis wraps an error from Redis or the connection (including a
	// cancelled context, which it also wraps).
	ErrRedis = errors.New("timeline: redis error")

	// ErrReply reports a reply of an unexpected shape, or a stored member
	// that is not one the timeline writes: keys changed behind its back.
	ErrReply = errors.New("timeline: unexpected reply")
)
