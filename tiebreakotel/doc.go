// Package tiebreakotel traces and measures the operations of tiebreak's
// handles with OpenTelemetry: an observe.Observer to set as the
// Options.Observer of a board, a timeline, a decimal map or a limiter.
//
//	obs, err := tiebreakotel.New() // the global TracerProvider and MeterProvider
//	if err != nil {
//		return err
//	}
//	b, err := board.New(ctx, client, "arena", layout, board.Options{Observer: obs})
//
// Each operation is one span, named for it ("board.Submit",
// "timeline.Before", "ratelimit.AllowN"), of kind internal, a child of the
// span in the caller's context. The operation's Redis calls run with the
// span's context, so a client wrapped with rueidisotel puts its command
// spans (EVALSHA, ZRANGE...) under it. The kind is internal, not client:
// the command spans are the client ones, and a client span over client
// spans would count each call to Redis twice in a service map.
//
// Span attributes follow OpenTelemetry's database conventions where they
// fit and the tiebreak namespace otherwise:
//
//	db.system.name         "redis"
//	db.operation.name      the span's name, "board.Submit"
//	db.collection.name     the object: a board's name, a timeline's room,
//	                       a decimal map's name, a limiter's key prefix
//	tiebreak.group         a board's group
//	tiebreak.key           a limiter's key
//	tiebreak.strategy      the storage strategy, "PackedScore"
//	tiebreak.policy        a submission's policy, a Rank's rank kind, a
//	                       limiter's limit ("10 per 1s")
//	tiebreak.n             the count asked for or given
//	tiebreak.rank          the rank read or stored
//	tiebreak.count         entries returned, ids removed, submissions
//	                       written, requests a limiter's window still admits
//	tiebreak.changed       a write changed the entry
//	tiebreak.trimmed       a board's cap removed the entry at once
//	tiebreak.allowed       a limiter admitted the requests
//	tiebreak.update.attempts, tiebreak.update.conflicts
//	                       an Update's rounds and lost compare-and-sets
//	error.type             the sentinel the error wraps, qualified by its
//	                       package ("board.ErrMismatch"), or
//	                       "context.Canceled" or "context.DeadlineExceeded"
//	                       when the caller's context ended the call, or
//	                       "_OTHER"
//
// A failed operation also gets the status Error with the error's text and
// an exception event (span.RecordError).
//
// Metrics, with the attributes db.system.name, db.operation.name and, on
// failures, error.type (no object names: they may be many):
//
//	tiebreak.operation.duration  histogram, s: every operation
//	tiebreak.operation.errors    counter: failed operations, by error.type
//	tiebreak.update.retries      counter: Update rounds after the first
//	tiebreak.update.conflicts    counter: Update compare-and-sets lost
//	tiebreak.ratelimit.admits    counter: Allow and AllowN calls admitted
//	tiebreak.ratelimit.refusals  counter: Allow and AllowN calls refused
//
// The limiter counters carry db.collection.name too: a limiter's key
// prefix, one per limiter.
//
// It is a module of its own, so that programs that do not use it carry no
// OpenTelemetry module.
package tiebreakotel
