// Package observe is how a tiebreak handle reports its operations to
// tracing and metrics, without depending on any of them: each package's
// Options has an Observer field, nil by default.
//
// A handle with an Observer calls Start as each public operation begins,
// with an Op naming it (board.Submit, timeline.Before, ratelimit.AllowN...),
// passes the context Start returns to every Redis call the operation makes
// (so that a client wrapped with an instrumentation such as rueidisotel
// puts its command spans under the operation's), and calls End on the
// returned Span once, with the Outcome: the error and the sentinel it
// wraps, and the result an operator filters on (a rank, whether an entry
// changed, whether a limiter admitted).
//
// A handle without one (the default) does nothing more than check that
// its Observer is nil: no allocation, no time measured.
//
// Start and End run on the caller's goroutine, in the call: a Start that
// blocks holds the call up (no context bounds it: it runs before any
// Redis call), and a panic in either reaches the caller, after the
// operation ran when End panics (a write is then stored, its result
// lost). An Observer must return promptly and not panic. board.Watch is
// not one operation: each of its reads is reported as the read it is
// (board.Top, board.Around, board.Among, ...), the last one, which its
// context ended, with the context's error.
//
// The module github.com/tiebreak/tiebreak/tiebreakotel implements Observer with
// OpenTelemetry's API (spans and metrics); it is a module of its own, so
// that a program that does not use it carries no OpenTelemetry module.
package observe
