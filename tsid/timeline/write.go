package timeline

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/observed"
)

// Message is one message of a timeline.
type Message[ID any] struct {
	// ID names the message and orders it.
	ID ID
	// Payload is the message's body: 1 to MaxPayload bytes, stored as is.
	Payload []byte
}

// Limits of one append script of AppendMany: a chunk holds at most this
// many messages (MaxTrim: an append to a full timeline removes as many as
// it adds) and payload bytes (four payloads of MaxPayloadLimit).
const (
	chunkMessages = MaxTrim
	chunkBytes    = 4 * MaxPayloadLimit
)

// Append stores a message in one atomic script, then applies the
// retention (MaxLen, MaxAge) in the same script; a message the retention
// removes at once (older than MaxAge, or not among the MaxLen newest, as
// an edit of an old message may be) is thus not kept, and Append still
// returns nil (a retention backlog of more than MaxTrim messages is
// removed MaxTrim at a time, by this and the next writes: see MaxTrim). It is one EVALSHA, one round trip (an
// EVAL follows when the server lost its scripts: restarted, flushed, a
// new node); it never sends SCRIPT LOAD. Appending an ID that is already stored
// replaces its payload (an edit, or a retried append: appending is
// idempotent). An edit is not conditional: appending the ID of a message
// removed meanwhile stores it again; Append does not say whether it
// replaced a message (read it with Get first where that matters).
//
// It refuses, storing nothing: an ID the codec refuses (ErrID, wrapping
// the codec's error: tsid.ErrRange for an ID above the layout's Max,
// tsid.ErrVersion for a UUID that is not version 7) and an empty payload
// or one over MaxPayload (ErrPayload). Redis errors wrap ErrRedis.
func (tl *Timeline[ID]) Append(ctx context.Context, id ID, payload []byte) error {
	if err := tl.usable(ctx); err != nil {
		return err
	}
	if tl.opts.Observer != nil {
		return observed.Do(ctx, tl.opts.Observer, tl.op("Append", 1), errKinds, func(ctx context.Context) error {
			return tl.appendMsgs(ctx, "Append", []Message[ID]{{ID: id, Payload: payload}})
		})
	}
	return tl.appendMsgs(ctx, "Append", []Message[ID]{{ID: id, Payload: payload}})
}

// AppendMany stores many messages in one pipelined round trip, as Append
// would one after the other: a script (EVALSHA) per chunk of up to 64
// messages and 256 KiB of payload, each chunk atomic with its retention;
// the chunks that find the server without the script are sent again in a
// second round trip, the first as EVAL (which loads it), the others as
// EVALSHA. It validates
// every message first and, if one is refused (as Append refuses it),
// returns that error, naming its index (msgs[i]), and sends nothing; it
// refuses more than MaxAppendMany messages (ErrArgument) likewise. On a
// Redis error some chunks may be stored and others not; appending again is
// safe.
func (tl *Timeline[ID]) AppendMany(ctx context.Context, msgs []Message[ID]) error {
	if err := tl.usable(ctx); err != nil {
		return err
	}
	if tl.opts.Observer != nil {
		return observed.Do(ctx, tl.opts.Observer, tl.op("AppendMany", len(msgs)), errKinds, func(ctx context.Context) error { return tl.appendMsgs(ctx, "AppendMany", msgs) })
	}
	return tl.appendMsgs(ctx, "AppendMany", msgs)
}

// appendMsgs is Append and AppendMany, op naming the call in errors.
func (tl *Timeline[ID]) appendMsgs(ctx context.Context, op string, msgs []Message[ID]) error {
	if len(msgs) > MaxAppendMany {
		return fmt.Errorf("timeline: room %s: %s: len(msgs) = %d over MaxAppendMany = %d: %w",
			clip.Quote(tl.room), op, len(msgs), MaxAppendMany, ErrArgument)
	}
	bound := tl.ageBound()
	var execs []rueidis.LuaExec
	for start := 0; start < len(msgs); {
		end := chunkEnd(msgs, start)
		args, err := tl.appendArgs(op, bound, msgs, start, end)
		if err != nil {
			return err
		}
		execs = append(execs, rueidis.LuaExec{Keys: tl.keys, Args: args})
		start = end
	}
	if len(execs) == 0 {
		return nil
	}
	_, err := tl.write(ctx, op, func(c rueidis.Client) (int64, error) {
		for _, r := range tl.scripts.appendMsgs.ExecMany(ctx, c, execs...) {
			if err := r.Error(); err != nil {
				return 0, tl.redisErr(op, err)
			}
		}
		return 0, nil
	})
	return err
}

// write runs one write call, op, on c: the timeline's client, or one that
// waits for replicas after each command (Options.WaitReplicas).
func (tl *Timeline[ID]) write(ctx context.Context, op string, call func(c rueidis.Client) (int64, error)) (int64, error) {
	return durable.Write(ctx, tl.client, tl.opts.wait(), fmt.Sprintf("timeline: room %s: %s", clip.Quote(tl.room), op), call)
}

// chunkEnd returns the end of the chunk that starts at msgs[start]: at
// most chunkMessages messages and chunkBytes of payload, at least one
// message (a payload over chunkBytes is refused by appendArgs).
func chunkEnd[ID any](msgs []Message[ID], start int) int {
	end, size := start+1, len(msgs[start].Payload)
	for end < len(msgs) && end-start < chunkMessages && size+len(msgs[end].Payload) <= chunkBytes {
		size += len(msgs[end].Payload)
		end++
	}
	return end
}

// appendArgs validates msgs[start:end] and builds append.lua's ARGV.
func (tl *Timeline[ID]) appendArgs(op, bound string, msgs []Message[ID], start, end int) ([]string, error) {
	args := make([]string, 2, 2+2*(end-start))
	args[0], args[1] = bound, strconv.Itoa(end-start)
	var buf []byte
	for i := start; i < end; i++ {
		m := msgs[i]
		if len(m.Payload) == 0 || len(m.Payload) > tl.opts.MaxPayload {
			return nil, fmt.Errorf("timeline: room %s: %s: %spayload of %d bytes out of range [1, %d]: %w",
				clip.Quote(tl.room), op, element(op, i), len(m.Payload), tl.opts.MaxPayload, ErrPayload)
		}
		t, member, err := tl.appendPrefix(buf[:0], m.ID)
		if err != nil {
			return nil, fmt.Errorf("timeline: room %s: %s: %sid: %w", clip.Quote(tl.room), op, element(op, i), err)
		}
		buf = append(member, m.Payload...)
		score := "0"
		if tl.split {
			score = strconv.FormatUint(t, 10)
		}
		args = append(args, score, string(buf))
	}
	return args, nil
}

// element names message i of an AppendMany in an error ("msgs[3]: "), and
// nothing for Append's one message.
func element(op string, i int) string {
	if op == "Append" {
		return ""
	}
	return fmt.Sprintf("msgs[%d]: ", i)
}

// Remove removes the messages of ids, in one atomic script, and returns
// how many were stored (an ID given twice counts once). It refuses, removing
// nothing, no IDs or more than MaxRemove (ErrArgument) and an ID the codec
// refuses (ErrID, wrapping the codec's error, naming its index: ids[i]).
// Redis errors wrap ErrRedis.
func (tl *Timeline[ID]) Remove(ctx context.Context, ids ...ID) (int64, error) {
	if err := tl.usable(ctx); err != nil {
		return 0, err
	}
	if tl.opts.Observer != nil {
		return observed.Call(ctx, tl.opts.Observer, tl.op("Remove", len(ids)), errKinds, func(ctx context.Context) (int64, error) { return tl.remove(ctx, ids) }, observed.Count[int64])
	}
	return tl.remove(ctx, ids)
}

// remove is Remove.
func (tl *Timeline[ID]) remove(ctx context.Context, ids []ID) (int64, error) {
	if len(ids) < 1 || len(ids) > MaxRemove {
		return 0, fmt.Errorf("timeline: room %s: Remove: len(ids) = %d out of range [1, %d]: %w",
			clip.Quote(tl.room), len(ids), MaxRemove, ErrArgument)
	}
	args := make([]string, 0, 2*len(ids))
	for i, id := range ids {
		c, err := tl.cursorOf("Remove", fmt.Sprintf("ids[%d]", i), id, false)
		if err != nil {
			return 0, err
		}
		if tl.split {
			args = append(args, c.prefix, c.score)
		} else {
			args = append(args, c.from(), c.upTo())
		}
	}
	return tl.write(ctx, "Remove", func(c rueidis.Client) (int64, error) {
		n, err := tl.scripts.remove.Exec(ctx, c, tl.keys, args).AsInt64()
		return n, tl.redisErr("Remove", err)
	})
}

// Trim applies the retention now, in one script, and returns the number
// of messages it removed: those older than MaxAge, then all but the MaxLen
// newest, at most MaxTrim in all (call it again while it returns MaxTrim
// to clear a longer backlog). Appends do the same; Trim serves rooms that
// have gone quiet. Without retention options it does nothing and returns
// 0.
func (tl *Timeline[ID]) Trim(ctx context.Context) (int64, error) {
	if err := tl.usable(ctx); err != nil {
		return 0, err
	}
	if tl.opts.Observer != nil {
		return observed.Call(ctx, tl.opts.Observer, tl.op("Trim", 0), errKinds, func(ctx context.Context) (int64, error) { return tl.trim(ctx) }, observed.Count[int64])
	}
	return tl.trim(ctx)
}

// trim is Trim.
func (tl *Timeline[ID]) trim(ctx context.Context) (int64, error) {
	if tl.opts.MaxLen == 0 && tl.opts.MaxAge == 0 {
		return 0, nil
	}
	return tl.write(ctx, "Trim", func(c rueidis.Client) (int64, error) {
		n, err := tl.scripts.trim.Exec(ctx, c, tl.keys, []string{tl.ageBound()}).AsInt64()
		return n, tl.redisErr("Trim", err)
	})
}

// ageBound returns retain.lua's age bound: empty when MaxAge is 0 or no ID
// can be that old, else an exclusive bound on the time part of
// Clock()-MaxAge; '+inf' or '+' when every ID is older.
func (tl *Timeline[ID]) ageBound() string {
	if tl.opts.MaxAge == 0 {
		return ""
	}
	cut := tl.opts.Clock().Add(-tl.opts.MaxAge)
	var zero ID
	if cut.Before(tl.codec.Time(zero)) {
		return "" // before time part 0: nothing is that old
	}
	score, err := tl.codec.Score(cut)
	switch {
	case err != nil && tl.split:
		return "+inf" // past the last time part: everything is older
	case err != nil:
		return "+"
	case tl.split:
		return "(" + strconv.FormatUint(uint64(score), 10)
	}
	return string(appendHex([]byte{'('}, uint64(score), tl.timeLen))
}
