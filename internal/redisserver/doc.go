// Package redisserver starts real redis-server processes and local Redis
// Clusters on loopback ports, for tests, benchmarks and the example
// programs. It needs redis-server (and, for a cluster, redis-cli) on PATH.
//
// On Linux every redis-server started here is killed with the process that
// started it, even when that process is itself killed (Pdeathsig, see
// spawn.go).
package redisserver
