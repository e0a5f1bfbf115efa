package timeline

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/errs"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/internal/redisretry"
	"github.com/tiebreak/tiebreak/tsid"
)

// Timeline is the chat history of one room in Redis: messages keyed by
// time-ordered IDs of one layout, each with a payload, read back in pages
// in exact ID order. It keeps one sorted set, tl:{room}:z, whose hash tag
// is the room's; every write is one script, every read one round trip
// (two for a split time unit crowded with more than 32 messages). See the
// package documentation for the storage.
//
// A Timeline holds no state beyond its configuration and is safe for
// concurrent use. One not made by New (a zero value, or nil) refuses every
// call that talks to Redis (ErrArgument).
type Timeline[ID any] struct {
	client  rueidis.Client
	room    string
	codec   Codec[ID]
	opts    Options
	keys    []string // the sorted set, as the scripts' KEYS
	scripts *scriptSet
	split   bool
	timeLen int // hex digits of the time part
	sufLen  int // hex digits of the suffix
	maxTime uint64
	crowd   int // split: see crowdLimit (tests lower it)
}

// New returns the timeline of room on client, for IDs of codec's layout
// (tsid.TSID, tsid.ULID, any tsid layout, or another Codec). It refuses
// (ErrRoom) an empty room, one over MaxRoomLen bytes or one holding a
// brace, and (ErrOptions) a nil client or codec, a zero tsid.Layout or
// tsid.Layout128 (not tsid.ULID or tsid.UUIDv7), a codec whose time part
// exceeds 53 bits or whose suffix is empty or over 64 digits, and options
// out of bounds (see Options). It does not talk to Redis.
func New[ID any](client rueidis.Client, room string, codec Codec[ID], opts Options) (*Timeline[ID], error) {
	if err := checkRoom(room); err != nil {
		return nil, err
	}
	o, bad := opts.withDefaults()
	if bad == "" {
		bad = checkHandles(client, codec)
	}
	if bad != "" {
		return nil, fmt.Errorf("timeline: room %s: %s: %w", clip.Quote(room), bad, ErrOptions)
	}
	maxTime, sufLen := codec.MaxTime(), codec.SuffixLen()
	tl := &Timeline[ID]{
		client: redisretry.Wrap(client), room: room, codec: codec, opts: o, keys: []string{roomKey(room)},
		split: o.Strategy == SplitScore, sufLen: sufLen, maxTime: maxTime,
		timeLen: max(1, (bits.Len64(maxTime)+3)/4), crowd: crowdLimit,
	}
	tl.scripts = scriptsFor(scriptConsts(tl.split, tl.idLen(), sufLen, o), tl.split, o.retains())
	return tl, nil
}

// checkHandles says what is wrong with a client and codec, if anything.
func checkHandles[ID any](client rueidis.Client, codec Codec[ID]) string {
	switch {
	case client == nil:
		return "client is nil"
	case isNil(codec):
		return "codec is nil"
	}
	if l, ok := any(codec).(*tsid.Layout128); ok && l.Name() == "" {
		return "codec is a tsid.Layout128 other than tsid.ULID and tsid.UUIDv7 (a zero value), which refuses every ID"
	}
	maxTime, sufLen := codec.MaxTime(), codec.SuffixLen()
	switch {
	case maxTime >= 1<<tsid.MaxTimeBits:
		return fmt.Sprintf("codec %s: MaxTime = %d out of range [0, %d]", codec.Name(), maxTime, uint64(1)<<tsid.MaxTimeBits-1)
	case sufLen < 1 || sufLen > maxSuffixLen:
		return fmt.Sprintf("codec %s: SuffixLen = %d out of range [1, %d]", codec.Name(), sufLen, maxSuffixLen)
	}
	return ""
}

// isNil reports a nil interface or a nil pointer in one (a nil
// *tsid.Layout), whose methods would panic.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

// Room returns the timeline's room.
func (tl *Timeline[ID]) Room() string { return tl.v().room }

// Codec returns the layout of the timeline's IDs.
func (tl *Timeline[ID]) Codec() Codec[ID] { return tl.v().codec }

// Strategy returns the timeline's storage strategy.
func (tl *Timeline[ID]) Strategy() Strategy { return tl.v().opts.Strategy }

// Key returns the timeline's Redis key, the sorted set tl:{room}:z ("" for
// a Timeline not made by New).
func (tl *Timeline[ID]) Key() string {
	if tl.unmade() != nil {
		return ""
	}
	return tl.keys[0]
}

// unmade refuses a Timeline not made by New (ErrArgument).
func (tl *Timeline[ID]) unmade() error {
	if tl == nil || tl.client == nil {
		return fmt.Errorf("timeline: a Timeline not made by New (a zero value or nil): %w", ErrArgument)
	}
	return nil
}

// usable is unmade for a call given ctx, refusing a nil ctx too
// (ErrArgument): rueidis would panic on it or wait forever.
func (tl *Timeline[ID]) usable(ctx context.Context) error {
	if err := tl.unmade(); err != nil {
		return err
	}
	return errs.NilContext("timeline", ctx)
}

// v returns tl, or a zero Timeline for nil.
func (tl *Timeline[ID]) v() *Timeline[ID] {
	if tl == nil {
		return &Timeline[ID]{}
	}
	return tl
}

// Len returns the number of messages.
func (tl *Timeline[ID]) Len(ctx context.Context) (int64, error) {
	if err := tl.usable(ctx); err != nil {
		return 0, err
	}
	if tl.opts.Observer != nil {
		return observed.Call(ctx, tl.opts.Observer, tl.op("Len", 0), errKinds, func(ctx context.Context) (int64, error) { return tl.length(ctx) }, observed.Count[int64])
	}
	return tl.length(ctx)
}

// length is Len.
func (tl *Timeline[ID]) length(ctx context.Context) (int64, error) {
	n, err := tl.client.Do(ctx, tl.client.B().Zcard().Key(tl.keys[0]).Build()).AsInt64()
	return n, tl.redisErr("Len", err)
}

// Drop deletes the whole timeline in one command (UNLINK: Redis frees the
// memory in the background).
func (tl *Timeline[ID]) Drop(ctx context.Context) error {
	if err := tl.usable(ctx); err != nil {
		return err
	}
	if tl.opts.Observer != nil {
		return observed.Do(ctx, tl.opts.Observer, tl.op("Drop", 0), errKinds, func(ctx context.Context) error { return tl.drop(ctx) })
	}
	return tl.drop(ctx)
}

// drop is Drop.
func (tl *Timeline[ID]) drop(ctx context.Context) error {
	_, err := tl.write(ctx, "Drop", func(c rueidis.Client) (int64, error) {
		return 0, tl.redisErr("Drop", c.Do(ctx, c.B().Unlink().Key(tl.keys...).Build()).Error())
	})
	return err
}

// idLen is the length of a member's ID prefix.
func (tl *Timeline[ID]) idLen() int { return tl.timeLen + tl.sufLen }

// appendPrefix appends the ID prefix of id's member to dst (split: suffix,
// then time part in hex; lex: time part in hex, then suffix) and returns
// the time part too. It refuses what the codec's AppendSplit refuses
// (ErrID, wrapping the codec's error), and reports a codec that breaks its
// contract (ErrOptions). Its errors do not name the package: the callers
// put "timeline: room ...: op: " before them.
func (tl *Timeline[ID]) appendPrefix(dst []byte, id ID) (uint64, []byte, error) {
	var buf [maxSuffixLen]byte
	score, suf, err := tl.codec.AppendSplit(buf[:0], id)
	if err != nil {
		return 0, dst, fmt.Errorf("%w: %w", ErrID, err)
	}
	t := uint64(score)
	if len(suf) != tl.sufLen || float64(t) != score || t > tl.maxTime || !isLowerHex(suf) {
		return 0, dst, fmt.Errorf("codec %s split an ID into %v, %q, want a whole score in [0, %d] and %d hex digits: %w",
			tl.codec.Name(), score, suf, tl.maxTime, tl.sufLen, ErrOptions)
	}
	if tl.split {
		return t, appendHex(append(dst, suf...), t, tl.timeLen), nil
	}
	return t, append(appendHex(dst, t, tl.timeLen), suf...), nil
}

// isLowerHex reports whether s is lowercase hex digits only, as a codec's
// suffix must be: the member's order and parsing rely on it (the value
// parseLowerHex computes, which wraps past 16 digits, is not used).
func isLowerHex(s []byte) bool {
	_, ok := parseLowerHex(string(s))
	return ok
}

// cursor is an ID as the scripts and commands take it.
type cursor struct {
	prefix string // the ID prefix of its member
	score  string // split: its time part in decimal; lex: empty
}

// cursorOf validates id, named arg, for op. With zeroOK, the zero ID
// always works, even when the codec refuses it (UUIDv7's nil UUID): it
// then stands below every ID, as it does in the layouts that accept it.
func (tl *Timeline[ID]) cursorOf(op, arg string, id ID, zeroOK bool) (cursor, error) {
	var buf [maxIDLen]byte
	t, p, err := tl.appendPrefix(buf[:0], id)
	if err != nil && zeroOK && !errors.Is(err, ErrOptions) && isZero(id) {
		return tl.lowest(), nil
	}
	if err != nil {
		return cursor{}, fmt.Errorf("timeline: room %s: %s: %s: %w", clip.Quote(tl.room), op, arg, err)
	}
	c := cursor{prefix: string(p)}
	if tl.split {
		c.score = strconv.FormatUint(t, 10)
	}
	return c, nil
}

// lowest is the cursor below every ID: an ID prefix of zeros, which no
// member's prefix sorts below.
func (tl *Timeline[ID]) lowest() cursor {
	c := cursor{prefix: strings.Repeat("0", tl.idLen())}
	if tl.split {
		c.score = "0"
	}
	return c
}

// isZero reports whether id is its type's zero value.
func isZero[ID any](id ID) bool { return reflect.ValueOf(&id).Elem().IsZero() }

// below is the exclusive BYLEX bound under which lie the members of
// lower IDs: '(' and the prefix (a member of this ID is longer, so above).
func (c cursor) below() string { return "(" + c.prefix }

// from and upTo bound the member of this very ID: '[' and the prefix, '('
// and its successor, the prefix with its last byte raised by one (a hex
// digit, so no carry): every member of a higher ID sorts at or above it.
func (c cursor) from() string { return "[" + c.prefix }
func (c cursor) upTo() string { return "(" + c.successor() }

// above is the inclusive BYLEX bound from which lie the members of higher
// IDs.
func (c cursor) above() string { return "[" + c.successor() }

func (c cursor) successor() string {
	b := []byte(c.prefix)
	b[len(b)-1]++
	return string(b)
}

// decode returns the message a stored member holds.
func (tl *Timeline[ID]) decode(m rueidis.RedisMessage) (Message[ID], error) {
	s, err := m.ToString()
	if err != nil {
		return Message[ID]{}, tl.replyErr("member not a string")
	}
	n := tl.idLen()
	if len(s) <= n {
		return Message[ID]{}, tl.replyErr("member " + clip.Quote(s) + " too short")
	}
	th, suf := s[:tl.timeLen], s[tl.timeLen:n]
	if tl.split {
		suf, th = s[:tl.sufLen], s[tl.sufLen:n]
	}
	t, ok := parseLowerHex(th)
	if !ok {
		return Message[ID]{}, tl.replyErr("member " + clip.Quote(s) + " with a bad time part")
	}
	id, err := tl.codec.Join(float64(t), suf)
	if err != nil {
		return Message[ID]{}, tl.replyErr(fmt.Sprintf("member %s: %v", clip.Quote(s), err))
	}
	b, _ := m.AsBytes() // each reply string is its own allocation: no copy needed
	return Message[ID]{ID: id, Payload: b[n:len(b):len(b)]}, nil
}

// pageSize returns n, or DefaultPage for 0, refusing (ErrPageSize) n below
// 0 or above MaxPage.
func (tl *Timeline[ID]) pageSize(op string, n int) (int, error) {
	switch {
	case n == 0:
		return tl.opts.DefaultPage, nil
	case n < 0 || n > tl.opts.MaxPage:
		return 0, fmt.Errorf("timeline: room %s: %s: n = %d out of range [0, %d] (0 means %d): %w",
			clip.Quote(tl.room), op, n, tl.opts.MaxPage, tl.opts.DefaultPage, ErrPageSize)
	}
	return n, nil
}

func (tl *Timeline[ID]) redisErr(op string, err error) error {
	if err == nil {
		return nil
	}
	return errs.FromRedis(fmt.Sprintf("timeline: room %s: %s", clip.Quote(tl.room), op), err)
}

func (tl *Timeline[ID]) replyErr(detail string) error {
	return fmt.Errorf("timeline: room %s: %s: %w", clip.Quote(tl.room), detail, ErrReply)
}
