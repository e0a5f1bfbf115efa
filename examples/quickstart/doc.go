// Command quickstart builds a leaderboard ranked by points (high first), then
// the paid flag (paid first), then time (earliest first), and prints its ranking: D, E, C, B, A.
//
// It runs with no setup at all: it uses REDIS_URL if set, else starts a
// temporary redis-server if one is on PATH, else an in-process server
// (miniredis), and says which one it used.
//
//	go run ./examples/quickstart
package main
