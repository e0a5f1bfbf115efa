// Command priceindex is the price-index example: exact decimal prices, kept
// in order in Redis, each with the list of users who asked for it, and the
// inclusive range [25500.12346, 25505.2] read in one round trip.
//
// It runs with no setup at all: it uses REDIS_URL if set, else starts a
// temporary redis-server if one is on PATH, else an in-process server
// (miniredis), and says which one it used.
//
//	go run ./examples/priceindex
package main
