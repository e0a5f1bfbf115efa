package timeline

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// Page is one page of a timeline, read by Latest, Oldest, Before or After.
type Page[ID any] struct {
	// Messages holds the page: newest first for Latest and Before, oldest
	// first for Oldest and After. Nil when the page is empty.
	Messages []Message[ID]
	// HasMore reports that messages exist past the last one of the page,
	// in its direction: older ones for Latest and Before, newer ones for
	// Oldest and After. It comes from the same snapshot as the page.
	HasMore bool
	// Next is the cursor of the next page in the same direction, the ID of
	// the last message: pass it to Before (after Latest or Before) or to
	// After (after Oldest or After). When the page is empty, the cursor it
	// was read from (Before's or After's), so that a caller polling with
	// each page's Next keeps its place; the zero ID for an empty Latest or
	// Oldest (the timeline is empty).
	Next ID
}

// Window is the view of a timeline around an anchor, read by Around.
type Window[ID any] struct {
	// Messages holds the window, oldest first: the anchor's own message
	// when it is stored, and the messages nearest to the anchor on both
	// sides (see Around). Nil when the timeline is empty.
	Messages []Message[ID]
	// HasOlder reports that messages older than the first one exist;
	// HasNewer, that messages newer than the last one exist.
	HasOlder, HasNewer bool
	// Older and Newer are the IDs of the first (oldest) and last (newest)
	// messages, which may be the anchor's: pass Older to Before and Newer
	// to After to read on past the window without repeating a message.
	// Zero IDs when the window is empty.
	Older, Newer ID
}

// Get returns the message id, in one round trip (two for a split time
// unit of more than 32 messages, see the package documentation). It
// refuses an ID the codec refuses (ErrID, wrapping the codec's error) and
// reports an ID not in the timeline as ErrNotFound. Redis errors wrap
// ErrRedis.
func (tl *Timeline[ID]) Get(ctx context.Context, id ID) (Message[ID], error) {
	if err := tl.usable(ctx); err != nil {
		return Message[ID]{}, err
	}
	if tl.opts.Observer != nil {
		return observed.Call(ctx, tl.opts.Observer, tl.op("Get", 0), errKinds, func(ctx context.Context) (Message[ID], error) { return tl.get(ctx, id) }, nil)
	}
	return tl.get(ctx, id)
}

// get is Get.
func (tl *Timeline[ID]) get(ctx context.Context, id ID) (Message[ID], error) {
	c, err := tl.cursorOf("Get", "id", id, false)
	if err != nil {
		return Message[ID]{}, err
	}
	var members []rueidis.RedisMessage
	if tl.split {
		members, err = tl.splitGet(ctx, c)
	} else { // an array of 0 or 1 member
		cmd := tl.client.B().Zrange().Key(tl.keys[0]).Min(c.from()).Max(c.upTo()).Bylex().Limit(0, 1).Build()
		if members, err = tl.client.Do(ctx, cmd).ToArray(); err != nil {
			err = tl.redisErr("Get", err)
		}
	}
	if err != nil {
		return Message[ID]{}, err
	}
	if len(members) == 0 {
		return Message[ID]{}, fmt.Errorf("timeline: room %s: Get: id %s: %w", clip.Quote(tl.room), tl.idText(id), ErrNotFound)
	}
	return tl.decode(members[0])
}

// Latest returns the n newest messages, newest first, in one command;
// n = 0 means DefaultPage. Pass the page's Next to Before to read on,
// older. It refuses n below 0 or above MaxPage (ErrPageSize). Redis errors
// wrap ErrRedis.
func (tl *Timeline[ID]) Latest(ctx context.Context, n int) (Page[ID], error) {
	if err := tl.usable(ctx); err != nil {
		return Page[ID]{}, err
	}
	if tl.opts.Observer != nil {
		return observed.Call(ctx, tl.opts.Observer, tl.op("Latest", n), errKinds, func(ctx context.Context) (Page[ID], error) { return tl.latest(ctx, n) }, pageOutcome[ID])
	}
	return tl.latest(ctx, n)
}

// latest is Latest.
func (tl *Timeline[ID]) latest(ctx context.Context, n int) (Page[ID], error) {
	n, err := tl.pageSize("Latest", n)
	if err != nil {
		return Page[ID]{}, err
	}
	r := tl.client.Do(ctx, tl.client.B().Zrange().Key(tl.keys[0]).Min("0").Max(strconv.Itoa(n)).Rev().Build())
	return tl.page("Latest", r, n, true)
}

// Oldest returns the n oldest messages, oldest first, in one command;
// n = 0 means DefaultPage. Pass the page's Next to After to read on,
// newer. It refuses n below 0 or above MaxPage (ErrPageSize). Redis errors
// wrap ErrRedis.
func (tl *Timeline[ID]) Oldest(ctx context.Context, n int) (Page[ID], error) {
	if err := tl.usable(ctx); err != nil {
		return Page[ID]{}, err
	}
	if tl.opts.Observer != nil {
		return observed.Call(ctx, tl.opts.Observer, tl.op("Oldest", n), errKinds, func(ctx context.Context) (Page[ID], error) { return tl.oldest(ctx, n) }, pageOutcome[ID])
	}
	return tl.oldest(ctx, n)
}

// oldest is Oldest.
func (tl *Timeline[ID]) oldest(ctx context.Context, n int) (Page[ID], error) {
	n, err := tl.pageSize("Oldest", n)
	if err != nil {
		return Page[ID]{}, err
	}
	r := tl.client.Do(ctx, tl.client.B().Zrange().Key(tl.keys[0]).Min("0").Max(strconv.Itoa(n)).Build())
	return tl.page("Oldest", r, n, true)
}

// Before returns the n messages just older than cursor, newest first, in
// one round trip (two for a split time unit of more than 32 messages, see
// the package documentation); n = 0 means DefaultPage. The cursor is
// exclusive and compared by value: it need not be stored (a removed
// message, an ID never appended). The zero ID always works, and stands
// below every ID, even for a codec that refuses it (UUIDv7's nil UUID);
// every tsid layout parses the zero ID's text back to it, so an empty
// page's Next survives a trip through a client as text.
// It refuses another cursor the codec refuses (ErrID, wrapping the codec's
// error) and n below 0 or above MaxPage (ErrPageSize). Redis errors wrap
// ErrRedis.
func (tl *Timeline[ID]) Before(ctx context.Context, cursor ID, n int) (Page[ID], error) {
	if err := tl.usable(ctx); err != nil {
		return Page[ID]{}, err
	}
	if tl.opts.Observer != nil {
		return observed.Call(ctx, tl.opts.Observer, tl.op("Before", n), errKinds, func(ctx context.Context) (Page[ID], error) { return tl.before(ctx, cursor, n) }, pageOutcome[ID])
	}
	return tl.before(ctx, cursor, n)
}

// before is Before.
func (tl *Timeline[ID]) before(ctx context.Context, cursor ID, n int) (Page[ID], error) {
	c, n, err := tl.pageArgs("Before", "cursor", cursor, n)
	if err != nil {
		return Page[ID]{}, err
	}
	if tl.split {
		return stay(cursor)(tl.splitPage(ctx, "Before", c, n, true))
	}
	cmd := tl.client.B().Zrange().Key(tl.keys[0]).Min(c.below()).Max("-").Bylex().Rev().Limit(0, int64(n)+1).Build()
	return stay(cursor)(tl.page("Before", tl.client.Do(ctx, cmd), n, true))
}

// stay returns a function that gives an empty page read from cursor
// (Before's or After's) the cursor as its Next, so that a caller polling
// with each page's Next keeps its place.
func stay[ID any](cursor ID) func(Page[ID], error) (Page[ID], error) {
	return func(p Page[ID], err error) (Page[ID], error) {
		if err == nil && len(p.Messages) == 0 {
			p.Next = cursor
		}
		return p, err
	}
}

// After returns the n messages just newer than cursor, oldest first, in
// one round trip (two for a crowded split time unit, as Before); n = 0
// means DefaultPage. The cursor is exclusive and compared by value, as in
// Before: After(zero ID, n) reads what Oldest(n) reads, less a message
// whose ID is the zero ID itself (a layout's zero ID is a valid ID, which
// Append takes). After refuses what Before refuses.
func (tl *Timeline[ID]) After(ctx context.Context, cursor ID, n int) (Page[ID], error) {
	if err := tl.usable(ctx); err != nil {
		return Page[ID]{}, err
	}
	if tl.opts.Observer != nil {
		return observed.Call(ctx, tl.opts.Observer, tl.op("After", n), errKinds, func(ctx context.Context) (Page[ID], error) { return tl.after(ctx, cursor, n) }, pageOutcome[ID])
	}
	return tl.after(ctx, cursor, n)
}

// after is After.
func (tl *Timeline[ID]) after(ctx context.Context, cursor ID, n int) (Page[ID], error) {
	c, n, err := tl.pageArgs("After", "cursor", cursor, n)
	if err != nil {
		return Page[ID]{}, err
	}
	if tl.split {
		return stay(cursor)(tl.splitPage(ctx, "After", c, n, false))
	}
	cmd := tl.client.B().Zrange().Key(tl.keys[0]).Min(c.above()).Max("+").Bylex().Limit(0, int64(n)+1).Build()
	return stay(cursor)(tl.page("After", tl.client.Do(ctx, cmd), n, true))
}

// Around returns n messages around anchor, oldest first, in one round
// trip, as central as the edges allow: the anchor's own message when it is
// stored, and of the other slots (n-1, or n when the anchor is not stored)
// floor(slots/2) for the messages just older than the anchor and the rest
// for those just newer. Where one side runs short the other fills the
// window, so it holds min(n, Len) messages. With messages m1..m9 and
// n = 4: around m5, m4 m5 m6 m7; around an ID between m4 and m5 that is not
// stored, m3 m4 m5 m6; around m1, m1 m2 m3 m4; around m9, m6 m7 m8 m9.
//
// The anchor is compared by value, as Before's cursor: it need not be
// stored, and the zero ID always works. n = 0 means DefaultPage. Around
// refuses what Before refuses.
func (tl *Timeline[ID]) Around(ctx context.Context, anchor ID, n int) (Window[ID], error) {
	if err := tl.usable(ctx); err != nil {
		return Window[ID]{}, err
	}
	if tl.opts.Observer != nil {
		return observed.Call(ctx, tl.opts.Observer, tl.op("Around", n), errKinds, func(ctx context.Context) (Window[ID], error) { return tl.around(ctx, anchor, n) }, func(w Window[ID], o observe.Outcome) observe.Outcome { return observed.Count(len(w.Messages), o) })
	}
	return tl.around(ctx, anchor, n)
}

// around is Around.
func (tl *Timeline[ID]) around(ctx context.Context, anchor ID, n int) (Window[ID], error) {
	c, n, err := tl.pageArgs("Around", "anchor", anchor, n)
	if err != nil {
		return Window[ID]{}, err
	}
	args := []string{c.prefix, c.score, "", "", strconv.Itoa(n)}
	if !tl.split {
		args = []string{c.prefix, c.below(), c.from(), c.upTo(), strconv.Itoa(n)}
	}
	parts, err := tl.scripts.around.Exec(ctx, tl.client, tl.keys, args).ToArray()
	if err != nil {
		return Window[ID]{}, tl.redisErr("Around", err)
	}
	if len(parts) != 3 {
		return Window[ID]{}, tl.replyErr(fmt.Sprintf("Around reply of %d elements", len(parts)))
	}
	members, err := parts[0].ToArray()
	if err != nil {
		return Window[ID]{}, tl.replyErr("Around reply without members")
	}
	msgs, err := tl.messages(members, false)
	if err != nil {
		return Window[ID]{}, err
	}
	w := Window[ID]{Messages: msgs, HasOlder: flag(parts[1]), HasNewer: flag(parts[2])}
	if len(msgs) > 0 {
		w.Older, w.Newer = msgs[0].ID, msgs[len(msgs)-1].ID
	}
	return w, nil
}

// pageArgs validates a cursor (or anchor), named arg, and n.
func (tl *Timeline[ID]) pageArgs(op, arg string, id ID, n int) (cursor, int, error) {
	n, err := tl.pageSize(op, n)
	if err != nil {
		return cursor{}, 0, err
	}
	c, err := tl.cursorOf(op, arg, id, true)
	return c, n, err
}

// page reads up to n+1 members into a page of n. inOrder says the reply
// is in page order, the extra member (if any) last; otherwise it is
// ascending for a newest-first page, the extra member first.
func (tl *Timeline[ID]) page(op string, r rueidis.RedisResult, n int, inOrder bool) (Page[ID], error) {
	members, err := r.ToArray()
	if err != nil {
		return Page[ID]{}, tl.redisErr(op, err)
	}
	var p Page[ID]
	if p.HasMore = len(members) > n; p.HasMore {
		if inOrder {
			members = members[:n]
		} else {
			members = members[1:]
		}
	}
	if p.Messages, err = tl.messages(members, !inOrder); err != nil {
		return Page[ID]{}, err
	}
	if len(p.Messages) > 0 {
		p.Next = p.Messages[len(p.Messages)-1].ID
	}
	return p, nil
}

// messages decodes members, in reverse order if reverse.
func (tl *Timeline[ID]) messages(members []rueidis.RedisMessage, reverse bool) ([]Message[ID], error) {
	if len(members) == 0 {
		return nil, nil
	}
	msgs := make([]Message[ID], len(members))
	for i := range members {
		var err error
		if msgs[i], err = tl.decode(members[i]); err != nil {
			return nil, err
		}
	}
	if reverse {
		slices.Reverse(msgs)
	}
	return msgs, nil
}

// flag reads a 0 or 1 integer of a script reply.
func flag(m rueidis.RedisMessage) bool {
	n, err := m.AsInt64()
	return err == nil && n == 1
}

// idText is id in an error: in the codec's text form when it has one
// (every tsid layout's Format), else a 64-bit ID in decimal, a 128-bit one
// in hex.
func (tl *Timeline[ID]) idText(id ID) string {
	if f, ok := tl.codec.(interface{ Format(ID) string }); ok {
		return f.Format(id)
	}
	if b, ok := any(id).([16]byte); ok {
		return fmt.Sprintf("%x", b)
	}
	return fmt.Sprint(id)
}
