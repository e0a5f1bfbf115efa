package redistest

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewGivesWorkingClient(t *testing.T) {
	env := New(t)
	t.Logf("source %s, addr %s, prefix %s", env.Source, env.Addr, env.Prefix)
	if env.Addr == "127.0.0.1:6379" && env.Source != "REDIS_URL" {
		t.Errorf("Addr = %s: the system Redis, not one started for the tests", env.Addr)
	}
	key := env.Prefix + ":greeting"
	set(t, env.Client, key, "hello")
	got, ok := get(t, env.Client, key)
	if diff := cmp.Diff("hello", got); diff != "" || !ok {
		t.Errorf("GET %s (exists %v) mismatch (-want +got):\n%s", key, ok, diff)
	}
}

func TestNewPrefixes(t *testing.T) {
	valid := regexp.MustCompile(`^[a-z0-9_]+$`)
	a, b := New(t), New(t)
	for _, p := range []string{a.Prefix, b.Prefix} {
		if !valid.MatchString(p) {
			t.Errorf("Prefix %q has characters outside [a-z0-9_]", p)
		}
	}
	if a.Prefix == b.Prefix {
		t.Errorf("two New calls gave the same Prefix %q", a.Prefix)
	}
	if a.Client != b.Client {
		t.Errorf("two New calls gave different clients, want one shared client")
	}
}

func TestNewCleanupDeletesKeys(t *testing.T) {
	var prefix string
	t.Run("writer", func(t *testing.T) {
		env := New(t)
		prefix = env.Prefix
		set(t, env.Client, prefix+":a", "1")
		set(t, env.Client, "{"+prefix+"}:b", "2")
		set(t, env.Client, "x:"+prefix, "3")
		if got := len(keysMatching(t, env.Client, prefix)); got != 3 {
			t.Fatalf("%d keys under %s before cleanup, want 3", got, prefix)
		}
	})
	env := New(t)
	set(t, env.Client, env.Prefix+":other", "kept")
	if diff := cmp.Diff([]string(nil), keysMatching(t, env.Client, prefix)); diff != "" {
		t.Errorf("keys left after the subtest (-want +got):\n%s", diff)
	}
	got := keysMatching(t, env.Client, env.Prefix)
	if diff := cmp.Diff([]string{env.Prefix + ":other"}, got); diff != "" {
		t.Errorf("cleanup of the subtest touched other keys (-want +got):\n%s", diff)
	}
}

func TestNoRedisErrorSaysHow(t *testing.T) {
	msg := noRedisError(nil).Error()
	for _, want := range []string{"apt-get install redis-server", "REDIS_URL", "Docker"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not mention %q", msg, want)
		}
	}
}

func TestDockerEngineSaysWhyNot(t *testing.T) {
	t.Setenv("DOCKER_HOST", "")
	err := dockerEngine()
	if _, statErr := os.Stat(dockerSocket); statErr == nil {
		if err != nil {
			t.Errorf("dockerEngine with %s present: %v", dockerSocket, err)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), "DOCKER_HOST") {
		t.Errorf("dockerEngine without an engine = %v, want an error naming DOCKER_HOST", err)
	}
	t.Setenv("DOCKER_HOST", "unix:///nonexistent.sock")
	if err := dockerEngine(); err != nil {
		t.Errorf("dockerEngine with DOCKER_HOST set = %v, want nil (the helper finds out)", err)
	}
}

func TestNoRedisInstructionsOnce(t *testing.T) {
	noRedisShown.Store(true) // as if a test of this binary had given them
	if got := failure(noRedisError(nil)); strings.Contains(got, "apt-get") {
		t.Errorf("second report repeats the instructions: %s", got)
	}
	other := errors.New("REDIS_URL: malformed")
	if got := failure(other); !strings.Contains(got, "malformed") {
		t.Errorf("another failure is not reported in full: %s", got)
	}
}

func TestStopAllRunsLastFirst(t *testing.T) {
	stopMu.Lock()
	saved := stops
	stops = nil
	stopMu.Unlock()
	t.Cleanup(func() {
		stopMu.Lock()
		stops = append(saved, stops...)
		stopMu.Unlock()
	})
	var order []int
	for i := range 3 {
		atExit(func() error { order = append(order, i); return nil })
	}
	if err := stopAll(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{2, 1, 0}, order); diff != "" {
		t.Errorf("stop order mismatch (-want +got):\n%s", diff)
	}
	if len(stops) != 0 {
		t.Errorf("stops not emptied")
	}
}

// fatalRecorder records Fatalf instead of stopping the test.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}

func (f *fatalRecorder) Fatalf(format string, args ...any) { f.msg = fmt.Sprintf(format, args...) }

func TestRequireMainSaysHow(t *testing.T) {
	mainRunning.Store(false)
	defer mainRunning.Store(true)
	rec := &fatalRecorder{TB: t}
	requireMain(rec)
	if want := "func TestMain(m *testing.M) { redistest.Main(m) }"; !strings.Contains(rec.msg, want) {
		t.Errorf("requireMain outside Main said %q, want it to mention %q", rec.msg, want)
	}
}
