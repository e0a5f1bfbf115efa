package timeline

import (
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/errs"
)

// Sentinel errors. Every error a Timeline returns wraps exactly one of
// them (ErrArgument aside, which every sentinel of bad input wraps too),
// so callers test with errors.Is. An ID the codec refuses is
// reported as ErrID wrapping the codec's own error too: with tsid's
// layouts, errors.Is(err, tsid.ErrRange) and errors.Is(err,
// tsid.ErrVersion) work on it as well. The sentinels' texts do not repeat
// the package name: an error says "timeline: " once, then the room, the
// call, the argument with its value and what is allowed. Every sentinel
// for bad input (ErrOptions, ErrRoom, ErrID, ErrPageSize, ErrPayload)
// wraps ErrArgument: errors.Is(err, ErrArgument) means the caller's
// mistake, with nothing written. ErrArgument, ErrOptions, ErrNotFound,
// ErrRedis, ErrReply and ErrNotReplicated are the same values in every
// package of tiebreak. An error caused by the caller's context wraps
// context.Canceled or context.DeadlineExceeded, not ErrRedis.
var (
	// ErrOptions reports a timeline that cannot be built: a nil client or
	// codec, options out of bounds (see Options), a codec whose time part
	// is wider than 53 bits or whose suffix is empty or longer than 64
	// digits. It also reports a codec that breaks the Codec contract when
	// used: a split of the wrong width or not lowercase hex, or a score
	// that is no time part (nothing is written).
	ErrOptions = errs.Options

	// ErrRoom reports a room name that is empty, longer than MaxRoomLen
	// bytes or holds a brace, which would break the room's hash tag.
	ErrRoom = errs.Invalid("invalid room")

	// ErrID reports an ID, of a message, a cursor or an anchor, that the
	// codec refuses. The error wraps the codec's own error as well: for
	// tsid's layouts, tsid.ErrRange for an ID above the layout's Max and
	// tsid.ErrVersion for a UUID that is not version 7. (The zero ID is
	// always accepted as a cursor or an anchor; see Timeline.Before.)
	ErrID = errs.Invalid("invalid ID")

	// ErrPageSize reports a page size n below 0 or above the timeline's
	// MaxPage (0 means the timeline's DefaultPage).
	ErrPageSize = errs.Invalid("invalid page size")

	// ErrPayload reports an empty payload (nil or zero bytes) or one longer
	// than the timeline's MaxPayload.
	ErrPayload = errs.Invalid("invalid payload")

	// ErrArgument reports another bad argument to a call: a Remove of no
	// IDs or of more than MaxRemove.
	ErrArgument = errs.Argument

	// ErrNotFound reports an ID that is not in the timeline.
	ErrNotFound = errs.NotFound

	// ErrRedis wraps an error from Redis or the connection.
	ErrRedis = errs.Redis

	// ErrNotReplicated reports a write that the master applied but that
	// fewer than Options.WaitReplicas replicas acknowledged within
	// Options.WaitTimeout (or whose WAIT failed): a failover before it
	// reaches a replica may lose it. It is the same error value in every
	// package of tiebreak.
	ErrNotReplicated = durable.ErrNotReplicated

	// ErrReply reports a reply of an unexpected shape, or a stored member
	// that is not one the timeline writes: keys changed behind its back.
	ErrReply = errs.Reply
)
