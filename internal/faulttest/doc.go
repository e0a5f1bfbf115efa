// Package faulttest holds the tests of tiebreak's Redis-backed packages
// together, against real redis-server processes under faults: a crash
// (SIGKILL) of a server that syncs its append-only file on every write, a
// failover that promotes a replica after the master is killed, with and
// without writes that wait for the replica (Options.WaitReplicas), and
// every package run as a Redis user holding exactly the ACL the README
// documents for it, fed hostile names, ids, keys and payloads. It has no
// code of its own outside its tests.
package faulttest
