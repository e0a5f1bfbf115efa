// Command httplimit serves HTTP behind a per-client sliding-window rate
// limit (package ratelimit): each client, named by its X-Client header or
// else its IP address, gets -limit requests per -window; past that the
// server answers 429 Too Many Requests with a Retry-After header.
//
//	go run ./examples/httplimit -addr 127.0.0.1:8080 -limit 5 -window 10s
//	for i in 1 2 3 4 5 6; do curl -si localhost:8080/ | head -1; done
//
// It runs with no setup: it uses REDIS_URL if set, else starts a temporary
// redis-server if one is on PATH, else an in-process server (miniredis),
// and says which. On miniredis the limit holds, but keys do not expire as
// time passes (miniredis moves its TTLs only when told to), so an idle
// client's log is dropped at its next request instead of by expiry.
//
// It listens on a loopback address only: it is an example, not a server
// to expose.
package main
