package redistest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redisserver"
)

// installHint tells how to give the tests a Redis.
const installHint = "to get Redis, install redis-server (which also provides redis-cli), " +
	"e.g. `apt-get install redis-server`, or set REDIS_URL=redis://host:port/0 " +
	"to use a running server, or run a Docker engine"

const cleanupTimeout = 30 * time.Second

var (
	mainRunning atomic.Bool
	prefixSeq   atomic.Uint64

	stopMu sync.Mutex
	stops  []func() error // run by Main in reverse order
)

// Main runs the tests and then stops every server this package started and
// removes their directories. Packages call it from TestMain:
//
//	func TestMain(m *testing.M) { redistest.Main(m) }
func Main(m *testing.M) {
	mainRunning.Store(true)
	code := m.Run()
	if err := stopAll(); err != nil {
		fmt.Fprintln(os.Stderr, "redistest: stopping servers:", err)
		code = max(code, 1)
	}
	os.Exit(code)
}

// atExit registers f to be run by Main after the tests.
func atExit(f func() error) {
	stopMu.Lock()
	defer stopMu.Unlock()
	stops = append(stops, f)
}

// stopAll runs the functions registered with atExit, last first.
func stopAll() error {
	stopMu.Lock()
	defer stopMu.Unlock()
	var err error
	for _, f := range slices.Backward(stops) {
		err = errors.Join(err, f())
	}
	stops = nil
	return err
}

// requireMain fails t unless the test binary runs through Main, which alone
// stops the shared servers and removes their directories.
func requireMain(t testing.TB) {
	t.Helper()
	if !mainRunning.Load() {
		t.Fatalf("redistest: this package must run its tests through redistest.Main; add\n" +
			"\tfunc TestMain(m *testing.M) { redistest.Main(m) }")
	}
}

// Env is one test's view of a Redis server. The server is shared with the
// other tests of the binary (and, through REDIS_URL, maybe with other
// binaries): touch only keys containing Prefix, never FLUSHDB or FLUSHALL.
type Env struct {
	Client rueidis.Client // shared per test binary; do NOT close it in tests
	Addr   string         // host:port
	Prefix string         // unique per call, only [a-z0-9_], e.g. "t12_3f9a04c1"; build key names from it
	Source string         // "REDIS_URL", "redis-server" or "docker"
}

// New returns an Env for t on the test binary's shared server, found as the
// package documentation describes, and fails t when there is none. When t
// ends, every key containing Env.Prefix is deleted.
func New(t testing.TB) *Env {
	t.Helper()
	requireMain(t)
	b, err := sharedBackend()
	if err != nil {
		t.Fatal(failure(err))
	}
	env := &Env{Client: b.client, Addr: b.addr, Prefix: newPrefix(), Source: b.source}
	cleanupKeys(t, b.client, env.Prefix)
	return env
}

// newPrefix returns a prefix unique in this binary and, by its random part,
// among binaries sharing one server.
func newPrefix() string {
	return fmt.Sprintf("t%d_%08x", prefixSeq.Add(1), rand.Uint32())
}

// cleanupKeys deletes every key containing prefix when t ends.
func cleanupKeys(t testing.TB, client rueidis.Client, prefix string) {
	t.Helper()
	t.Cleanup(func() {
		if err := deleteMatching(client, "*"+prefix+"*"); err != nil {
			t.Errorf("redistest: deleting keys of %s: %v", prefix, err)
		}
	})
}

// deleteMatching unlinks every key matching the glob pattern.
func deleteMatching(client rueidis.Client, pattern string) error {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	keys, err := redisops.ScanKeys(ctx, client, pattern)
	if err != nil || len(keys) == 0 {
		return err
	}
	cmds := make(rueidis.Commands, 0, len(keys))
	for _, k := range keys {
		cmds = append(cmds, client.B().Unlink().Key(k).Build())
	}
	for _, r := range client.DoMulti(ctx, cmds...) {
		err = errors.Join(err, r.Error())
	}
	return err
}

// Shared returns an Env on the test binary's shared server for code that
// has no testing.T, such as Example functions. Nothing deletes its keys:
// the caller removes what it writes. The binary must still run through
// Main, which stops the server.
func Shared() (*Env, error) {
	b, err := sharedBackend()
	if err != nil {
		return nil, errors.New(failure(err))
	}
	return &Env{Client: b.client, Addr: b.addr, Prefix: newPrefix(), Source: b.source}, nil
}

var noRedisShown atomic.Bool

// failure is what New says when the binary has no Redis. The instructions
// of a missing Redis are given in full once per `go test` run: by the first
// test of the first binary to fail (binaries of one run share a parent, the
// go command, and leave a marker named for it); the others say it briefly.
func failure(err error) string {
	if !errors.Is(err, errNoRedis) && !errors.Is(err, redisserver.ErrNoBinary) || firstToReport() {
		return "redistest: " + err.Error()
	}
	return "redistest: no Redis for the tests (the instructions are printed once, above)"
}

// firstToReport reports whether no test of this `go test` run has yet
// given the instructions.
func firstToReport() bool {
	if noRedisShown.Swap(true) {
		return false
	}
	marker := filepath.Join(os.TempDir(), fmt.Sprintf("tiebreak-noredis-%d", os.Getppid()))
	f, err := os.OpenFile(marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
