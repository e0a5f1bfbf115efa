// Package redistest gives tests, benchmarks and examples a real Redis:
// never a mock, never a skipped test.
//
// A test package wires it up once:
//
//	func TestMain(m *testing.M) { redistest.Main(m) }
//
// and each test asks for an [Env]:
//
//	env := redistest.New(t)
//	key := "{" + env.Prefix + "}:board"
//
// [New] looks for Redis in this order and fails the test (it never skips)
// when none is found:
//
//  1. REDIS_URL: an existing server, reached with rueidis.ParseURL.
//  2. redis-server on PATH: one private server per test binary on a free
//     loopback port, without persistence, in a temporary directory.
//  3. A Docker engine (DOCKER_HOST, or /var/run/docker.sock): a container
//     started by the helper module in docker/, run with `go run`, so that
//     testcontainers and the Docker client stay out of this module's
//     go.mod and out of its users' go.sum.
//
// Tests share the server (and its client) of their test binary and are kept
// apart by [Env.Prefix], which is unique per call; every key that contains it
// is deleted when the test ends.
//
// [NewCluster] gives a real local Redis Cluster built from the redis-server
// and redis-cli binaries, shared per test binary and per number of masters.
// This package's own tests run every Redis-backed package, under load, on
// clusters of their own: while the slots of hot objects move between
// masters (TestReshardingUnderLoad) and while a master dies and its replica
// takes over (TestFailoverUnderLoad), counting the calls that fail and the
// acknowledged writes lost.
//
// [StartServer], [StartServerWith] and [StartCluster] start servers (from
// package redisserver, which the bench command and the example programs use
// directly). On Linux every redis-server started
// by this package is killed with the process that started it, even when that
// process is itself killed (Pdeathsig, see spawn.go); [Main] also stops them
// cleanly and removes their temporary directories once the tests have run.
package redistest
