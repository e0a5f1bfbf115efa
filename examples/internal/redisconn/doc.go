// Package redisconn finds a Redis for the example programs, so that each of
// them runs with no setup at all: REDIS_URL if set, else a temporary
// redis-server if one is on PATH, else an in-process miniredis (which
// exists only for that: no test relies on it).
//
// In a program of your own, connect with rueidis.NewClient directly.
package redisconn
