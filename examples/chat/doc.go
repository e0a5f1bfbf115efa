// Command chat writes a few thousand messages into a chat room kept by a
// timeline.Timeline and pages back through them, newest first, printing one
// line per page: its size, the IDs at its ends and the numbers of the
// messages it holds, as runs (2999..2900). Every message shows up once, in
// order, though the IDs come from a generator that makes many of them in
// the same millisecond.
//
// It runs with no setup at all: it uses REDIS_URL if set, else starts a
// temporary redis-server if one is on PATH, else an in-process server
// (miniredis), and says which one it used.
//
//	go run ./examples/chat [-n 3000] [-page 100] [-strategy lex|split]
package main
