// Package rdb is how packages board and league talk to Redis: the one
// package below them that names the client library (rueidis). They send
// every command, pipeline, transaction and script through a Conn, and
// read every reply through a Result, a Reply or a Scored; the rest of
// them never names a rueidis type. Another client library would change
// this package, the internal packages it sends through (redisretry,
// luascript, durable, which the other Redis-backed packages share) and
// the public constructors, which take the caller's client; not board's
// engine.
//
// A Conn sends again what Redis did not run (package redisretry): every
// command, pipeline and script sent through it does, but Peek, a read of
// the client's memory tried once. Durable runs a write whose commands
// each wait for replicas or the disk (package durable).
//
// What goes through here is the engine's vocabulary of Redis, not board's:
// keys, fields, members, scores, scripts. Which keys a board keeps and
// what its scripts reply stays in board.
package rdb
