// Package baseline holds the hand-written schemes tiebreak is measured
// against, written the way they are usually written, bugs included: the
// two-level decimal index (an integer part as score, a per-integer sorted
// set of fraction strings ordered by BYLEX, one list per key) and the naive
// log limiter (a Lua script logging the request's millisecond as its
// member, on the client's clock). Nothing but benchmarks (the bench command
// and the packages' own) uses them.
package baseline
