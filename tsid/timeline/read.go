package timeline

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/redis/rueidis"
)

// Page is one page of a timeline, read by Latest, Before or After.
type Page[ID any] struct {
	// Messages holds the page: newest first for Latest and Before, oldest
	// first for After. Nil when the page is empty.
	Messages []Message[ID]
	// HasMore reports that messages exist past the last one of the page,
	// in its direction: older ones for Latest and Before, newer ones for
	// After. It comes from the same snapshot as the page.
	HasMore bool
	// Next is the cursor of the next page in the same direction, the ID of
	// the last message: pass it to Before (after Latest or Before) or to
	// After. The zero ID when the page is empty.
	Next ID
}

// Window is the view of a timeline around a cursor, read by Around.
type Window[ID any] struct {
	// Messages holds the window, oldest first, without the cursor's own
	// message. Nil when the window is empty.
	Messages []Message[ID]
	// HasOlder reports that messages older than the first one exist;
	// HasNewer, that messages newer than the last one exist.
	HasOlder, HasNewer bool
	// Older and Newer are the IDs of the first and last messages: pass
	// them to Before and After to read on. Zero IDs when the window is
	// empty.
	Older, Newer ID
}

// Get returns the message id, in one round trip (two for a split time
// unit of more than 32 messages, see the package documentation). It
// refuses an ID the codec refuses (ErrID, wrapping the codec's error) and
// reports an ID not in the timeline as ErrNotFound. Redis errors wrap
// ErrRedis.
func (tl *Timeline[ID]) Get(ctx context.Context, id ID) (Message[ID], error) {
	c, err := tl.cursorOf("Get", id)
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
		return Message[ID]{}, fmt.Errorf("timeline: room %s: Get: no message of member prefix %s: %w", quote(tl.room), c.prefix, ErrNotFound)
	}
	return tl.decode(members[0])
}

// Latest returns the n newest messages, newest first, in one command;
// n = 0 means DefaultPage. It refuses n below 0 or above MaxPage
// (ErrPageSize). Redis errors wrap ErrRedis.
func (tl *Timeline[ID]) Latest(ctx context.Context, n int) (Page[ID], error) {
	n, err := tl.pageSize("Latest", n)
	if err != nil {
		return Page[ID]{}, err
	}
	r := tl.client.Do(ctx, tl.client.B().Zrange().Key(tl.keys[0]).Min("0").Max(strconv.Itoa(n)).Rev().Build())
	return tl.page("Latest", r, n, true)
}

// Before returns the n messages just older than cursor, newest first, in
// one round trip (two for a split time unit of more than 32 messages, see
// the package documentation); n = 0 means DefaultPage. The cursor is
// exclusive and compared by value: it need not be stored (a deleted
// message, an ID never appended, the zero ID all work). It refuses a
// cursor the codec refuses (ErrID, wrapping the codec's error) and n below
// 0 or above MaxPage (ErrPageSize). Redis errors wrap ErrRedis.
func (tl *Timeline[ID]) Before(ctx context.Context, cursor ID, n int) (Page[ID], error) {
	c, n, err := tl.pageArgs("Before", cursor, n)
	if err != nil {
		return Page[ID]{}, err
	}
	if tl.split {
		return tl.splitPage(ctx, "Before", c, n, true)
	}
	cmd := tl.client.B().Zrange().Key(tl.keys[0]).Min(c.below()).Max("-").Bylex().Rev().Limit(0, int64(n)+1).Build()
	return tl.page("Before", tl.client.Do(ctx, cmd), n, true)
}

// After returns the n messages just newer than cursor, oldest first, in
// one round trip (two for a crowded split time unit, as Before); n = 0
// means DefaultPage. The cursor is exclusive and compared by value, as in
// Before, and After refuses what Before refuses.
func (tl *Timeline[ID]) After(ctx context.Context, cursor ID, n int) (Page[ID], error) {
	c, n, err := tl.pageArgs("After", cursor, n)
	if err != nil {
		return Page[ID]{}, err
	}
	if tl.split {
		return tl.splitPage(ctx, "After", c, n, false)
	}
	cmd := tl.client.B().Zrange().Key(tl.keys[0]).Min(c.above()).Max("+").Bylex().Limit(0, int64(n)+1).Build()
	return tl.page("After", tl.client.Do(ctx, cmd), n, true)
}

// Around returns up to n messages around cursor, oldest first, in one
// round trip: the floor(n/2) messages just older than the cursor and the
// rest just newer, the window filled from the other side where one side
// runs short, so it holds min(n, messages other than the cursor's). The
// cursor's own message is not included (cursors are exclusive; use Get);
// the cursor need not be stored. n = 0 means DefaultPage. It refuses what
// Before refuses.
func (tl *Timeline[ID]) Around(ctx context.Context, cursor ID, n int) (Window[ID], error) {
	c, n, err := tl.pageArgs("Around", cursor, n)
	if err != nil {
		return Window[ID]{}, err
	}
	args := []string{c.prefix, c.score, "", "", strconv.Itoa(n)}
	if !tl.split {
		args = []string{c.prefix, c.below(), c.from(), c.upTo(), strconv.Itoa(n)}
	}
	r := tl.scripts.around.Exec(ctx, tl.client, tl.keys, args)
	parts, err := r.ToArray()
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

// pageArgs validates a cursor and n.
func (tl *Timeline[ID]) pageArgs(op string, id ID, n int) (cursor, int, error) {
	n, err := tl.pageSize(op, n)
	if err != nil {
		return cursor{}, 0, err
	}
	c, err := tl.cursorOf(op+": cursor", id)
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
