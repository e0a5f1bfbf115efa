// Package timeline keeps the chat history of a room in Redis: messages
// keyed by time-ordered IDs (TSID, Snowflake, Discord, Sonyflake, custom
// layouts, ULID, UUIDv7: any layout of package
// [github.com/tiebreak/tiebreak/tsid], or any Codec) with payload bytes,
// read back in pages in exact ID order, even when thousands of messages
// share one millisecond and their IDs collapse into one float64 score.
//
//	ids, err := tsid.NewGenerator(tsid.GeneratorOptions{})
//	tl, err := timeline.New(client, "general", tsid.TSID, timeline.Options{})
//	id, err := ids.Next()
//	err = tl.Append(ctx, id, []byte("hello"))
//	page, err := tl.Latest(ctx, 50)           // newest first
//	page, err = tl.Before(ctx, page.Next, 50) // and on, older
//	page, err = tl.Oldest(ctx, 50)            // oldest first
//	page, err = tl.After(ctx, page.Next, 50)  // and on, newer
//	win, err := tl.Around(ctx, id, 21)        // id, 10 older, 10 newer
//
// # Storage
//
// A Timeline keeps one sorted set. Its key carries the room as hash tag,
// so it works on Redis Cluster. Each member starts with an ID prefix of
// fixed width that names the message on its own, followed by the payload,
// and the set holds one member per ID:
//
//	tl:{room}:z  sorted set
//
//	SplitScore  score  = time part                           exact below 2^53
//	            member = [suffix][time part, hex][payload ...]
//	                      ^ orders a millisecond's messages
//	LexID       score  = 0
//	            member = [time part, hex][suffix][payload ...]
//	                      ^ the whole ID, fixed width: byte order = ID order
//
// The time part and the suffix are those of the codec's split (see
// [tsid.Layout.Split]): the time part, at most 53 bits, is exact as a score;
// the suffix is the rest bits as fixed-width lowercase hex. For TSID the
// ID prefix is 17 hex digits (11 of time, 6 of suffix), for ULID and
// UUIDv7 32. The time part is in the member of both strategies because a
// suffix alone repeats across milliseconds: with the suffix as the whole
// member, ZADD would move an older message to a newer score.
//
// # Reads and writes
//
// Pages are read by value, with exclusive cursors that need not be stored
// (a removed message, an ID never appended, the zero ID), each in one
// round trip:
//
//	LexID       Before  ZRANGE key (<id> - BYLEX REV LIMIT 0 n+1
//	            After   ZRANGE key [<id'> + BYLEX LIMIT 0 n+1
//	SplitScore  Before  MULTI
//	                    ZRANGE key <t> <t> BYSCORE LIMIT 0 33      the cursor's unit
//	                    ZRANGE key (<t> -inf BYSCORE REV LIMIT 0 n+1
//	                    EXEC     and the unit's members below the cursor
//
// where <id> is the cursor's ID prefix and <id'> the same with its last
// digit raised by one, the least string above every member of <id>; n+1
// tells whether there is more. A split time unit crowded with more than
// 32 messages is read again by a script that finds the cursor by binary
// search over the unit's ranks: a second round trip, with bounded work
// even for 10,000 messages in one millisecond. Around is one script in
// both strategies; Latest and Oldest are one ZRANGE by rank. Every write
// is one script: Append and AppendMany store messages, replacing the
// payload of an ID already stored, and apply the retention (MaxLen,
// MaxAge) in the same script; Trim applies it alone; Remove removes the
// messages of up to MaxRemove IDs; Drop deletes the whole timeline (one
// UNLINK). A script is one EVALSHA (AppendMany pipelines one per chunk);
// where a server answers NOSCRIPT (restarted, flushed, a new node) the
// call is sent again as EVAL, which caches the script there: no call ever
// sends SCRIPT LOAD, so none waits on a node that does not hold the room.
//
// # Messages that land late
//
// A page holds every message stored when it is read, in ID order, and
// paging by cursor never skips or repeats one of them. But an ID is made
// by its writer before its append travels to Redis, so the appends of
// several writers (or goroutines) land out of ID order: by a round trip
// or so, more with clocks that differ between hosts. A message that lands
// after a reader's cursor has passed its ID is not in that reader's later
// pages. A client that tails a room with After therefore reads, on each
// poll, from a little before the newest ID it has shown, and shows the
// messages whose IDs it has not shown yet: for a 64-bit layout of
// millisecond units,
//
//	tl, err := timeline.New(client, "general", tsid.TSID, timeline.Options{})
//	var newest uint64                      // the newest ID shown
//	overlap := 5 * time.Second             // longer than an append takes
//	from := newest - min(newest, uint64(overlap.Milliseconds())<<tsid.TSID.RestBits())
//	page, err := tl.After(ctx, from, 1000) // then show the IDs not shown yet
//
// with overlap above the longest time between making an ID and its append
// being acknowledged (a few seconds). History read backwards with Before
// is complete for IDs older than that. (A page's Next is its last ID; an
// empty page's, the cursor it was read from.)
//
// # Around
//
// Around(ctx, anchor, n) reads n messages in total, oldest first, as
// central as the edges allow: the anchor's own message when it is stored,
// then floor(slots/2) older messages and the rest newer, slots being n
// less the anchor's own message; near either end, the other side fills
// the window. Board.Around of package
// [github.com/tiebreak/tiebreak/board] means the same.
//
// # Bounds
//
// No call can stall Redis: every script does bounded work, and a call over
// a bound is refused before anything is sent (ErrPayload, ErrArgument).
// The worst call allowed at each bound, in Redis time (INFO commandstats,
// one server of the test's own, on a shared 2-core machine):
//
//	payload      at most MaxPayloadLimit (64 KiB)      an Append of 64 KiB: 0.3-0.8 ms
//	AppendMany   at most MaxAppendMany (100,000) msgs,  a chunk of 64 messages of 4 KiB,
//	             one script per chunk of 64 messages   with MaxLen: 1.5-1.9 ms (one 5 ms
//	             and 256 KiB                           outlier under load)
//	Remove       at most MaxRemove (50) IDs            split, 50 IDs in a time unit of
//	                                                   20,000 messages: 1.7-2.1 ms (5.5);
//	                                                   lex: 0.4-0.6 ms
//	retention    at most MaxTrim (64) messages removed a Trim of 64 messages of 64 KiB:
//	             per script (append or Trim)           1.0-1.4 ms
//	page         at most MaxPage (1000; MaxPageLimit    Around 1000 messages of 100 bytes:
//	             5000) messages                        0.3-0.8 ms
//
// A retention backlog longer than MaxTrim goes over the next appends or
// Trim calls, oldest first. Reads are not scripts of writes but still copy
// what they return: a page of n messages costs Redis about n times their
// size, so keep MaxPage and MaxPayload to what a screen shows.
//
// # Errors
//
// Every error wraps exactly one of the sentinels ErrOptions, ErrRoom,
// ErrID, ErrPageSize, ErrPayload, ErrArgument, ErrNotFound, ErrRedis and
// ErrReply, ErrArgument aside: ErrRoom, ErrID, ErrPageSize and ErrPayload
// (bad input) wrap it too; an error caused by the caller's context wraps
// context.Canceled or context.DeadlineExceeded instead, and none of them.
// Test for them with errors.Is. An ID the codec refuses is ErrID
// and also wraps the codec's own error (tsid.ErrRange, tsid.ErrVersion,
// ...). An error says "timeline: " once, names the room, the call and the
// argument with its value and the range allowed:
//
//	timeline: room "general": Latest: n = 5000 out of range [0, 1000] (0 means 50): invalid page size
//
// A refused call changes nothing.
//
// # A changing cluster
//
// On a Redis Cluster, a call that Redis refused without running it (TRYAGAIN
// while the timeline's slot moves between masters, CLUSTERDOWN until a
// replica takes over from a dead master, LOADING) is sent again, with waits
// from 1 ms to 100 ms, within ctx and for 10 s at most. After a connection
// error a write is never sent again (its message says whether it may have
// run), but a read is, by rueidis or by this package, until ctx ends: give
// every call a deadline, or a read waits as long as the server is down
// (docs/operating.md, "A server that is down"). Every call is safe to make
// again after an error: Append and AppendMany (an ID stored again keeps
// one message), Remove, Trim, Drop and every read.
package timeline
