// Package baseline holds the hand-written schemes tiebreak is measured
// against, written the way they are usually written, bugs included: the
// watch-multi leaderboard (WATCH/MULTI/EXEC, the tie-breakers in the
// member), the read-then-CAS update of a packed score (spun until it
// writes), the bare EVALSHA of a packed submit's Redis calls, the
// two-level decimal index (an integer part as score, a per-integer sorted
// set of fraction strings ordered by BYLEX, one list per key) and the naive
// log limiter (a Lua script logging the request's millisecond as its
// member, on the client's clock). Nothing but the shared workloads of
// internal/benchload (run by the bench command and the packages' Go
// benchmarks) uses them.
package baseline
