package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// cli runs the command built for the tests against one server.
type cli struct {
	t   *testing.T
	bin string
	url string
	env []string // the environment, without REDIS_URL unless a test sets it
}

// result is one run of the command.
type result struct {
	stdout, stderr string
	code           int
}

// TestCommand builds the command once and runs every group of subtests
// against it as a subprocess, on data seeded through the packages.
func TestCommand(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "tiebreak")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, g := range []struct {
		name string
		fn   func(t *testing.T, bin string)
	}{
		{"list", testList},
		{"board", testBoard},
		{"watch", testWatch},
		{"watchoutage", testWatchOutage},
		{"describe", testDescribe},
		{"timeline", testTimeline},
		{"map", testMap},
		{"limiter", testLimiter},
		{"errors", testErrors},
		{"usage", testUsage},
		{"readonly", testReadOnly},
		{"cluster", testCluster},
		{"names", testNames},
		{"write", testWrite},
		{"tournament", testTournament},
		{"league", testLeague},
		{"hidden", testHidden},
		{"owned", testOwned},
		{"retired", testRetiredShard},
		{"damaged", testDamagedDense},
		{"dash", testDashName},
		{"longid", testLongID},
	} {
		t.Run(g.name, func(t *testing.T) { g.fn(t, bin) })
	}
}

// newCLI returns a runner of bin against the test binary's Redis.
func newCLI(t *testing.T, bin string, env *redistest.Env) *cli {
	t.Helper()
	url := "redis://" + env.Addr
	if env.Source == "REDIS_URL" {
		url = os.Getenv("REDIS_URL")
	}
	return &cli{t: t, bin: bin, url: url, env: withoutRedisURL()}
}

// withoutRedisURL is the test's environment less REDIS_URL, so that only
// --url names the server.
func withoutRedisURL() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "REDIS_URL=") })
}

// run runs the command with args and --url, and returns what it printed
// and its exit status.
func (c *cli) run(args ...string) result {
	c.t.Helper()
	cmd := exec.Command(c.bin, append(args, "--url", c.url)...)
	return c.exec(cmd)
}

// exec runs cmd in c's environment.
func (c *cli) exec(cmd *exec.Cmd) result {
	c.t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Env = &out, &errOut, c.env
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errOut.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		c.t.Fatalf("running %v: %v", cmd.Args, err)
	}
	return r
}

// ok runs the command, fails the test unless it exits 0 with nothing on
// stderr, and returns its output.
func (c *cli) ok(args ...string) string {
	c.t.Helper()
	r := c.run(args...)
	if r.code != 0 || r.stderr != "" {
		c.t.Fatalf("tiebreak %s: exit %d\nstderr: %s\nstdout: %s", strings.Join(args, " "), r.code, r.stderr, r.stdout)
	}
	return r.stdout
}

// json runs the command with --json and decodes its output into v,
// refusing unknown fields so that every field printed is checked.
func (c *cli) json(v any, args ...string) {
	c.t.Helper()
	out := c.ok(append(args, "--json")...)
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		c.t.Fatalf("tiebreak %s --json: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// fails runs the command, checks its exit status and that stderr holds
// every one of want, and returns stderr.
func (c *cli) fails(code int, want []string, args ...string) string {
	c.t.Helper()
	r := c.run(args...)
	if r.code != code {
		c.t.Errorf("tiebreak %s: exit %d, want %d\nstderr: %s\nstdout: %s", strings.Join(args, " "), r.code, code, r.stderr, r.stdout)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			c.t.Errorf("tiebreak %s: stderr lacks %q:\n%s", strings.Join(args, " "), w, r.stderr)
		}
	}
	if r.stdout != "" {
		c.t.Errorf("tiebreak %s: a failure printed on stdout: %s", strings.Join(args, " "), r.stdout)
	}
	return r.stderr
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
