// Package durable makes a write wait for replicas: every command a write
// sends is followed, on the same connection and in the same round trip, by
// Redis's WAIT numreplicas timeout, and the write reports an error wrapping
// ErrNotReplicated when fewer replicas than asked acknowledged it in time.
//
// Redis replicates asynchronously: a master that dies after acknowledging a
// write but before sending it to a replica loses it when that replica is
// promoted. WAIT bounds the loss: a write that returned without error was
// held by at least Replicas replicas, so a failover that promotes one of
// them keeps it. (WAIT is not consensus: a failover that promotes a replica
// that had not acknowledged it can still lose it, and a write whose WAIT
// fell short was still applied on the master.)
//
// A write runs with a client that pins one connection (rueidis's
// Dedicate: the node of the write's keys, in a cluster) so that WAIT
// follows the write's own commands: WAIT counts the replicas that hold
// every write its connection sent before it. A command the node refuses
// with MOVED (the slot moved to another master; nothing ran) goes again
// on a connection to the new master, followed by its own WAIT, and the
// write is acknowledged only when the last WAIT of every connection it
// used counted enough replicas; ASK (the slot half moved) is waited out
// until the move ends (package redisretry's Dedicated).
package durable
