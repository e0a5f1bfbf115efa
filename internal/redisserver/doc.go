// Package redisserver starts real redis-server processes and local Redis
// Clusters on loopback ports, for tests, benchmarks and the example
// programs. It needs redis-server (and, for a cluster, redis-cli) on PATH.
//
// A cluster can have replicas and its own node timeout ([StartClusterWith]),
// and can change shape as in production: [Cluster.MoveSlot] moves a slot
// and its keys between masters as an operator's resharding does, and
// [Cluster.Kill] crashes a node (SIGKILL) so that its replica takes over.
//
// On Linux every redis-server started here is killed with the process that
// started it, even when that process is itself killed (Pdeathsig, see
// spawn.go).
package redisserver
