package board

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/pack"
)

// faultChildEnv holds the JSON faultSpec of a child process of the fault
// tests: the test binary run again with -test.run=^TestFaultChild$.
const faultChildEnv = "TIEBREAK_FAULT_CHILD"

// faultSpec says what a child process does: which operation on which
// board, and at which step it kills itself.
type faultSpec struct {
	Op    string   // "Migrate", "Reshard" or "Archive"
	Addrs []string // the server, or the cluster's masters
	Name  string   // the board's name (the Periodic's, for Archive)
	// Kill is "op:step:n": the child sends itself SIGKILL the n-th time
	// the operation reaches step (counted from 1). Empty: never.
	Kill string
	// Retry calls the operation again while it is refused because
	// another process holds its lease (ErrMigrating), for up to retryFor.
	Retry bool

	Batch  int // Migrate, Reshard: the copy's batch
	Shards int // Reshard: the new count
	// Archive: the Periodic's Every and retention, and an instant of the
	// window to archive, in ms.
	PeriodMS, RetentionMS, WindowMS int64
}

// retryFor is how long a child retries an operation refused with
// ErrMigrating: a racing process holds the lease for the second or two
// its operation takes, a dead one's runs out in 3 s.
const retryFor = 10 * time.Second

// childResult is the line a child prints when the operation returns.
const childResult = "fault child result: "

// TestFaultChild is the child process of the fault tests; without its
// environment variable (any ordinary test run) it does nothing. It builds
// its handle from the client address and the board's name alone (Open,
// OpenSharded; NewPeriodic with the period for an archive) and runs the
// operation with the new settings, killing itself at the step the spec
// names.
func TestFaultChild(t *testing.T) {
	arg := os.Getenv(faultChildEnv)
	if arg == "" {
		return
	}
	var spec faultSpec
	if err := json.Unmarshal([]byte(arg), &spec); err != nil {
		t.Fatal(err)
	}
	if spec.Kill != "" {
		faultPoint = killAt(spec.Kill)
	}
	client, err := redisserver.Dial(spec.Addrs...)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	deadline := time.Now().Add(retryFor)
	for last := ""; ; {
		err = runFaultOp(ctx, client, spec)
		if !spec.Retry || !errors.Is(err, ErrMigrating) || time.Now().After(deadline) {
			break
		}
		if err.Error() != last {
			last = err.Error()
			fmt.Printf("fault child: refused, retrying for up to %v: %v\n", retryFor, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		fmt.Printf("%serror: %v\n", childResult, err)
		t.Fatal(err)
	}
	fmt.Printf("%sok\n", childResult)
}

// killAt returns a faultPoint that sends the process SIGKILL the n-th
// time step of op is reached ("op:step:n"); it prints every step reached,
// so that the parent can tell where a child stopped.
func killAt(point string) func(op, step string) {
	parts := strings.Split(point, ":")
	n, _ := strconv.Atoi(parts[2])
	var mu sync.Mutex
	seen := map[string]int{}
	return func(op, step string) {
		mu.Lock()
		defer mu.Unlock() // held until the kill: no other step runs meanwhile
		seen[op+":"+step]++
		k := seen[op+":"+step]
		fmt.Printf("fault child: step %s:%s:%d\n", op, step, k)
		if op == parts[0] && step == parts[1] && k == n {
			fmt.Printf("fault child: killing myself at %s\n", point)
			os.Stdout.Sync()
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	}
}

// faultLayout is the layout of the fault tests' boards: points (width
// bits, higher first), paid (1 bit), time (8 bits, lower first).
func faultLayout(width int) *pack.Layout {
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: width},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		panic(err)
	}
	return l
}

// The migration of the fault tests: a PackedScore board with 12-bit
// points becomes a KeySuffix board with 20-bit points.
const (
	migrateFromWidth = 12
	migrateToWidth   = 20
)

var migrateToOptions = Options{Strategy: KeySuffix}

// runFaultOp runs spec's operation once, from a handle built from the
// board's name.
func runFaultOp(ctx context.Context, c rueidis.Client, spec faultSpec) error {
	switch spec.Op {
	case "Migrate":
		b, err := Open(ctx, c, spec.Name, Options{})
		if err != nil {
			return err
		}
		_, err = b.Migrate(ctx, faultLayout(migrateToWidth), migrateToOptions, MigrateOptions{Batch: spec.Batch})
		return err
	case "Reshard":
		sb, err := Open(ctx, c, spec.Name, Options{})
		if err != nil {
			return err
		}
		// A pause between copy steps leaves the writers time to write to
		// the shards being copied, so that every run has ids to drain.
		_, err = sb.Reshard(ctx, spec.Shards, MigrateOptions{Batch: spec.Batch, Pause: 2 * time.Millisecond})
		return err
	case "Archive":
		p, err := NewPeriodic(c, spec.Name, faultLayout(migrateFromWidth), Every(time.Duration(spec.PeriodMS)*time.Millisecond),
			time.Duration(spec.RetentionMS)*time.Millisecond, Options{})
		if err != nil {
			return err
		}
		w, err := p.period.Window(time.UnixMilli(spec.WindowMS))
		if err != nil {
			return err
		}
		_, err = p.Archive(ctx, w, ArchiveOptions{})
		return err
	}
	return fmt.Errorf("fault child: unknown operation %q", spec.Op)
}

// child is a child process running a faultSpec.
type child struct {
	spec faultSpec
	cmd  *exec.Cmd
	out  bytes.Buffer
	done chan struct{}
	err  error
}

// startChild starts a child process running spec.
func startChild(t *testing.T, spec faultSpec) *child {
	t.Helper()
	j, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	c := &child{spec: spec, done: make(chan struct{})}
	c.cmd = exec.Command(os.Args[0], "-test.run=^TestFaultChild$", "-test.count=1", "-test.v", "-test.timeout=3m")
	c.cmd.Env = append(os.Environ(), faultChildEnv+"="+string(j))
	c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.out
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.err = c.cmd.Wait()
		close(c.done)
	}()
	t.Cleanup(func() {
		select {
		case <-c.done:
		default:
			_ = c.cmd.Process.Kill()
			<-c.done
		}
	})
	return c
}

// wait waits for the child to exit and returns how: killed (by its own
// SIGKILL) or finished (the operation returned nil).
func (c *child) wait(t *testing.T) (killed, finished bool) {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(3 * time.Minute):
		t.Fatalf("child %s %s: still running after 3 minutes:\n%s", c.spec.Op, c.spec.Kill, c.out.String())
	}
	if ee, ok := c.err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true, false
		}
	}
	return false, c.err == nil && strings.Contains(c.out.String(), childResult+"ok")
}

// mustBeKilled waits for a child with a kill point and fails t unless it
// was killed there.
func (c *child) mustBeKilled(t *testing.T) {
	t.Helper()
	killed, finished := c.wait(t)
	switch {
	case killed:
		return
	case finished:
		t.Fatalf("kill point %s never reached: the operation finished without it; steps reached:\n%s", c.spec.Kill, c.steps())
	default:
		t.Fatalf("kill point %s never reached: the child failed first (%v):\n%s", c.spec.Kill, c.err, c.tail())
	}
}

// mustFinish waits for a child and fails t unless its operation returned
// nil.
func (c *child) mustFinish(t *testing.T, what string) {
	t.Helper()
	if killed, finished := c.wait(t); !finished {
		t.Fatalf("%s: the operation did not finish (killed %t, %v):\n%s", what, killed, c.err, c.tail())
	}
}

// steps returns the steps the child reported, one line each.
func (c *child) steps() string {
	var out []string
	for _, l := range strings.Split(c.out.String(), "\n") {
		if strings.HasPrefix(l, "fault child: step ") {
			out = append(out, strings.TrimPrefix(l, "fault child: step "))
		}
	}
	if len(out) > 40 {
		out = append(out[:20], append([]string{"..."}, out[len(out)-20:]...)...)
	}
	if len(out) == 0 {
		return "(none)"
	}
	return strings.Join(out, " ")
}

// tail returns the end of the child's output.
func (c *child) tail() string {
	s := c.out.String()
	return s[max(0, len(s)-3000):]
}
