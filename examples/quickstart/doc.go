// Command quickstart builds seed 002's leaderboard (points high first, then
// paid first, then earlier first) and prints its ranking: D, E, C, B, A.
//
// It runs with no setup at all: it uses REDIS_URL if set, else starts a
// temporary redis-server if one is on PATH, else an in-process server
// (miniredis), and says which one it used.
//
//	go run ./examples/quickstart
package main
