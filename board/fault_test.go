package board

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// The fault tests of the long operations (Migrate, Reshard, Archive): the
// operation's process killed at each of its steps, the server stopped and
// restarted in the middle of a copy, a cluster master failing over, two
// processes running the operation at once; all while writers and readers
// keep using the board. After each, no acknowledged write is lost, no
// entry is duplicated, and the operation has finished.
//
// The lease of a killed operation (a Reshard's, an Archive's claim: 3 s)
// runs out by itself, as it would in production: the writes that wait
// meanwhile count in the unavailability logged.
//
// The full matrix runs with TIEBREAK_FAULTS=1 (CI's .ci/run); without it,
// one kill point per operation and one restart. To run them alone:
//
//	TIEBREAK_FAULTS=1 go test ./board -run 'Survives|RacingProcesses|TestFault' -v
//
// Each test logs, per scenario, the writes acknowledged, those lost, and
// the longest stretch without an acknowledged write (and read), in
// seconds.

// faultsEnv turns on the full matrix.
const faultsEnv = "TIEBREAK_FAULTS"

func fullFaults() bool { return os.Getenv(faultsEnv) == "1" }

// needFullFaults skips t unless the full matrix is asked for.
func needFullFaults(t *testing.T) {
	t.Helper()
	if !fullFaults() {
		t.Skip("part of the full fault matrix, which takes minutes: set TIEBREAK_FAULTS=1 to run it")
	}
}

// Sizes of the fault tests: about twenty copy steps per operation.
const (
	faultEntries = 2000
	faultBatch   = 100
	faultWriters = 4
	faultReaders = 2
	// faultIDs is how many ids the writers write: those of the fill and
	// as many new ones.
	faultIDs = 2 * faultEntries
	// archivePeriod is the window of the archive tests: short, so that a
	// window ends soon after it is filled.
	archivePeriod = 2 * time.Second
)

// faultCase is a board ready for an operation under fault: its spec for
// the child processes, the load on it, and the checks after.
type faultCase struct {
	spec faultSpec
	load loadConfig
	// ready waits until the operation may start (an archive's window must
	// have ended).
	ready func(t *testing.T)
	// ledgers returns the ledgers of the board's writers.
	ledgers func() []*ledger
	// runInProcess runs the operation in this process.
	runInProcess func(ctx context.Context) error
	// verify checks that the operation finished and that the writes are
	// all there.
	verify func(t *testing.T)
	// killKey is a key in the slot whose master a failover test kills.
	killKey string
	// writes and reads log the load's calls.
	writes, reads callLog
}

// acked sums the acknowledged writes of c's ledgers.
func (c *faultCase) acked() int64 {
	var n int64
	for _, l := range c.ledgers() {
		n += l.acked.Load()
	}
	return n
}

// logUnavailability logs the longest stretches without an acknowledged
// write and read over [from, to].
func (c *faultCase) logUnavailability(t *testing.T, from, to time.Time) {
	t.Helper()
	t.Log(c.writes.summary("writes", from, to))
	t.Log(c.reads.summary("reads", from, to))
}

// migrateCase makes a PackedScore board of faultEntries entries, with
// 12-bit points, to migrate to KeySuffix with 20-bit points.
func migrateCase(t *testing.T, client rueidis.Client, addrs []string, name string, wait int) *faultCase {
	t.Helper()
	ctx := t.Context()
	from := Options{WaitReplicas: wait}
	b, err := New(ctx, client, name, faultLayout(migrateFromWidth), from)
	if err != nil {
		t.Fatal(err)
	}
	l := newLedger()
	fillFault(t, l, faultEntries, 1, func(s []Submission) []ManyResult { return b.SubmitMany(ctx, s) })
	var h atomic.Pointer[Board]
	h.Store(b)
	to := migrateToOptions
	to.WaitReplicas = wait
	c := &faultCase{
		spec:    faultSpec{Op: "Migrate", Addrs: addrs, Name: name, Batch: faultBatch},
		ledgers: func() []*ledger { return []*ledger{l} },
		killKey: prefixOf("", name) + "meta",
	}
	c.load = loadConfig{
		writers: faultWriters, readers: faultReaders, ids: faultIDs, seed: 1,
		target: func(ctx context.Context) (faultTarget, error) {
			if b := h.Load(); b != nil {
				return b, nil
			}
			// The board switched: a handle of the new settings.
			nb, err := New(ctx, client, name, faultLayout(migrateToWidth), to)
			if err != nil {
				return nil, err
			}
			h.CompareAndSwap(nil, nb)
			return nb, nil
		},
		stale: func(old faultTarget) {
			if old.(*Board).Options().Strategy != to.Strategy {
				h.CompareAndSwap(old.(*Board), nil)
			}
		},
		ledgerOf: func(faultTarget) *ledger { return l },
		writes:   &c.writes, reads: &c.reads,
	}
	c.ready = func(*testing.T) {}
	c.runInProcess = func(ctx context.Context) error {
		b, err := Open(ctx, client, name, Options{})
		if err != nil {
			return err
		}
		_, err = b.Migrate(ctx, faultLayout(migrateToWidth), migrateToOptions, MigrateOptions{Batch: faultBatch})
		return err
	}
	c.verify = func(t *testing.T) {
		t.Helper()
		nb, err := Open(t.Context(), client, name, Options{})
		if err != nil {
			t.Fatalf("Open after the migration: %v", err)
		}
		if w := nb.Layout().Field(0).Width; nb.Options().Strategy != KeySuffix || w != migrateToWidth {
			t.Errorf("the board is %v with %d-bit points, want the migration's KeySuffix with %d-bit points: the migration did not finish",
				nb.Options().Strategy, w, migrateToWidth)
		}
		checkLedger(l, readBoard(t, "migrated board", nb)).report(t, "migrated board")
	}
	return c
}

// reshardCase makes a board over 3 shards of faultEntries entries, to
// reshard to shards.
func reshardCase(t *testing.T, client rueidis.Client, addrs []string, name string, shards, wait int) *faultCase {
	t.Helper()
	ctx := t.Context()
	o := Options{WaitReplicas: wait, Shards: 3}
	sb, err := New(ctx, client, name, faultLayout(migrateFromWidth), o)
	if err != nil {
		t.Fatal(err)
	}
	l := newLedger()
	fillFault(t, l, faultEntries, 2, func(s []Submission) []ManyResult { return sb.SubmitMany(ctx, s) })
	// The writers' and readers' handle, built before the resharding: it
	// follows the board to its new shards.
	h, err := New(ctx, client, name, faultLayout(migrateFromWidth), o)
	if err != nil {
		t.Fatal(err)
	}
	meta := prefixOf("", name) + "meta"
	c := &faultCase{
		spec:    faultSpec{Op: "Reshard", Addrs: addrs, Name: name, Batch: faultBatch, Shards: shards},
		ledgers: func() []*ledger { return []*ledger{l} },
		killKey: meta,
		ready:   func(*testing.T) {},
	}
	c.load = loadConfig{
		writers: faultWriters, readers: faultReaders, ids: faultIDs, seed: 2,
		target:   func(context.Context) (faultTarget, error) { return h, nil },
		stale:    func(faultTarget) {},
		ledgerOf: func(faultTarget) *ledger { return l },
		writes:   &c.writes, reads: &c.reads,
	}
	c.runInProcess = func(ctx context.Context) error {
		sb, err := Open(ctx, client, name, Options{})
		if err != nil {
			return err
		}
		_, err = sb.Reshard(ctx, shards, MigrateOptions{Batch: faultBatch})
		return err
	}
	c.verify = func(t *testing.T) {
		t.Helper()
		nb, err := Open(t.Context(), client, name, Options{})
		if err != nil {
			t.Fatalf("OpenSharded after the resharding: %v", err)
		}
		if nb.Options().Shards != shards {
			t.Errorf("the board is over %d shards, want %d: the resharding did not finish", nb.Options().Shards, shards)
		}
		got := readBoard(t, "resharded board", nb)
		checkLedger(l, got).report(t, "resharded board")
		// Every new shard's histogram counts its entries, no more, no less.
		checkHistograms(t, "resharded board", client, nb)
		// The writers' handle, built before, reads the same entries.
		sameEntries(t, "resharded board through the writers' handle", got, readBoard(t, "resharded board through the writers' handle", h))
	}
	return c
}

// archiveCase makes a periodic board of windows of archivePeriod, fills a
// window just begun with faultEntries entries, and archives it once it
// has ended. The writers write to the current window throughout.
func archiveCase(t *testing.T, client rueidis.Client, addrs []string, name string, wait int) *faultCase {
	t.Helper()
	ctx := t.Context()
	p, err := NewPeriodic(client, name, faultLayout(migrateFromWidth), Every(archivePeriod), time.Hour, Options{WaitReplicas: wait})
	if err != nil {
		t.Fatal(err)
	}
	// A window just begun, so that it is filled and written before it ends.
	w, _ := p.period.Window(time.Now())
	time.Sleep(time.Until(w.End))
	w, _ = p.period.Window(time.Now())
	var mu sync.Mutex
	ledgers := map[string]*ledger{}
	ledgerOf := func(h faultTarget) *ledger {
		mu.Lock()
		defer mu.Unlock()
		n := h.(*Board).Name()
		if ledgers[n] == nil {
			ledgers[n] = newLedger()
		}
		return ledgers[n]
	}
	src := p.At(w.Start)
	fillFault(t, ledgerOf(src), faultEntries+faultEntries/4, 3, func(s []Submission) []ManyResult { return src.SubmitMany(ctx, s) })
	if time.Now().After(w.End) {
		// A slow machine: the writers will not write this window, which
		// the test still archives and checks.
		t.Logf("filling the window took more than its %v", archivePeriod)
	}
	c := &faultCase{
		spec: faultSpec{Op: "Archive", Addrs: addrs, Name: name, PeriodMS: archivePeriod.Milliseconds(),
			RetentionMS: time.Hour.Milliseconds(), WindowMS: w.Start.UnixMilli()},
		ledgers: func() []*ledger {
			mu.Lock()
			defer mu.Unlock()
			return slices.Collect(maps.Values(ledgers))
		},
		killKey: prefixOf("", src.Name()) + "meta",
	}
	c.load = loadConfig{
		writers: faultWriters, readers: faultReaders, ids: faultIDs, seed: 3,
		target:   func(context.Context) (faultTarget, error) { return p.At(time.Now()), nil },
		stale:    func(faultTarget) {},
		ledgerOf: ledgerOf,
		writes:   &c.writes, reads: &c.reads,
	}
	c.ready = func(t *testing.T) {
		// The window has ended, and the writes begun before its end are
		// done: an archive holds the window as it is from then on.
		time.Sleep(time.Until(w.End.Add(500 * time.Millisecond)))
	}
	c.runInProcess = func(ctx context.Context) error {
		_, err := p.Archive(ctx, w, ArchiveOptions{})
		return err
	}
	c.verify = func(t *testing.T) {
		t.Helper()
		a, err := p.Archived(t.Context(), w)
		if err != nil {
			t.Fatalf("Archived: %v: the archive was not made", err)
		}
		if _, err := Open(t.Context(), client, a.Name(), Options{}); err != nil {
			t.Errorf("Open %s: %v: the archive's descriptor is not readable", a.Name(), err)
		}
		checkLedger(ledgerOf(src), readBoard(t, "window "+w.Label, src)).report(t, "window "+w.Label)
		// The archive holds the window's entries, member data included.
		window := readEntries(t, "window "+w.Label, src, true)
		sameEntries(t, "archive of "+w.Label, window, readEntries(t, "archive of "+w.Label, a, true))
		mu.Lock()
		others := maps.Clone(ledgers)
		mu.Unlock()
		for n, l := range others {
			if n == src.Name() {
				continue
			}
			b, err := Open(t.Context(), client, n, Options{})
			if errors.Is(err, ErrNotFound) && l.acked.Load() == 0 {
				// Every write to this window failed (the load stopped as
				// it began, or the failover cut them) and none ran: no
				// board, and nothing acknowledged to lose.
				t.Logf("later window %s: no write acknowledged, %d failed, no board", n, l.failed.Load())
				continue
			}
			if err != nil {
				t.Fatalf("Open %s: %v", n, err)
			}
			checkLedger(l, readBoard(t, "later window "+n, b)).report(t, "later window "+n)
		}
	}
	return c
}

// sameEntries fails t unless got holds exactly want's entries, listing the
// ids that differ.
func sameEntries(t *testing.T, what string, want, got map[string]faultState) {
	t.Helper()
	var diff []string
	for id, s := range want {
		if g, ok := got[id]; !ok || g != s {
			if !ok {
				g = goneState
			}
			diff = append(diff, fmt.Sprintf("%s: want %s, got %s", id, s, g))
		}
	}
	for id, g := range got {
		if _, ok := want[id]; !ok {
			diff = append(diff, fmt.Sprintf("%s: want absent, got %s", id, g))
		}
	}
	sort.Strings(diff)
	t.Logf("%s: %d entries, want %d; %d differ", what, len(got), len(want), len(diff))
	for _, d := range diff[:min(len(diff), 20)] {
		t.Errorf("%s: %s", what, d)
	}
}

// runUnderLoad starts the load on c, runs fault (which breaks the
// operation), then a new process that finishes it, stops the load and
// checks everything. fault returns once the operation has been cut short.
func runUnderLoad(t *testing.T, c *faultCase, fault func(t *testing.T)) {
	t.Helper()
	ld := startLoad(c.load)
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			ld.stop()
		}
	}
	defer stop()
	before := c.acked()
	time.Sleep(200 * time.Millisecond)
	c.ready(t)
	from := time.Now()
	fault(t)
	during := c.acked() - before
	if during == 0 {
		t.Fatalf("no write acknowledged before the fault: the test tests nothing")
	}
	time.Sleep(200 * time.Millisecond) // writes on the half-done operation
	spec := c.spec
	spec.Retry = true
	startChild(t, spec).mustFinish(t, "the process finishing the operation")
	time.Sleep(300 * time.Millisecond) // writes after it
	to := time.Now()
	stop()
	t.Logf("%d writes acknowledged in all (the fill included), %d from the load's start to the fault", c.acked(), during)
	c.logUnavailability(t, from, to)
	c.verify(t)
}

// killPoint is where a child kills itself: the n-th time op reaches step.
type killPoint struct {
	step string
	n    int
}

func (k killPoint) String() string { return fmt.Sprintf("%s:%d", k.step, k.n) }

// killPoints returns the kill points of the full matrix for op's steps
// (copy at its first and a middle occurrence), or quick alone without
// the full matrix.
func killPoints(steps []string, copyMid int, quick killPoint) []killPoint {
	if !fullFaults() {
		return []killPoint{quick}
	}
	var out []killPoint
	for _, s := range steps {
		if s == "copy" {
			out = append(out, killPoint{"copy", 1}, killPoint{"copy", copyMid})
		} else {
			out = append(out, killPoint{s, 1})
		}
	}
	return out
}

var (
	migrateSteps = []string{"begin", "copy", "check", "switch"}
	reshardSteps = []string{"begin", "export", "copy", "drain", "freeze", "check", "switch", "retire"}
	archiveSteps = []string{"claim", "copy", "done"}
)

// killEveryStep runs, for each kill point, the operation in a child
// killed there, then a new child that finishes it.
func killEveryStep(t *testing.T, points []killPoint, mk func(t *testing.T, client rueidis.Client, addr, name string) *faultCase) {
	for _, k := range points {
		t.Run("kill-at-"+k.step+"-"+fmt.Sprint(k.n), func(t *testing.T) {
			srv, client := redistest.Private(t)
			c := mk(t, client, srv.Addr, "fault")
			runUnderLoad(t, c, func(t *testing.T) {
				spec := c.spec
				spec.Kill = c.spec.Op + ":" + k.String()
				startChild(t, spec).mustBeKilled(t)
			})
		})
	}
}

// A Migrate whose process is killed (SIGKILL) at any step is finished by
// a new process knowing only the board's name, while writers and readers
// go on: no acknowledged write is lost and the board ends on the new
// settings.
func TestMigrateSurvivesKillAtEveryStep(t *testing.T) {
	killEveryStep(t, killPoints(migrateSteps, faultEntries/faultBatch/2, killPoint{"copy", faultEntries / faultBatch / 2}),
		func(t *testing.T, client rueidis.Client, addr, name string) *faultCase {
			return migrateCase(t, client, []string{addr}, name, 0)
		})
}

// A Reshard (3 to 5 shards, and 3 to 2) whose process is killed at any
// step is finished by a new process: no acknowledged write is lost, no id
// is on two shards, and the board ends over the new count.
func TestReshardSurvivesKillAtEveryStep(t *testing.T) {
	for _, shards := range []int{5, 2} {
		t.Run(fmt.Sprintf("3-to-%d", shards), func(t *testing.T) {
			if shards != 5 && !fullFaults() {
				t.Skip("the quick run reshards 3 to 5 only: set TIEBREAK_FAULTS=1 for the full matrix")
			}
			// Copy steps run on every old shard at once: about
			// faultEntries/faultBatch of them in all.
			killEveryStep(t, killPoints(reshardSteps, faultEntries/faultBatch/2, killPoint{"copy", faultEntries / faultBatch / 2}),
				func(t *testing.T, client rueidis.Client, addr, name string) *faultCase {
					return reshardCase(t, client, []string{addr}, name, shards, 0)
				})
		})
	}
}

// An Archive whose process is killed at any step is finished by a new
// process: the archive holds every entry of the window, and no write to
// the window or the later ones is lost.
func TestArchiveSurvivesKillAtEveryStep(t *testing.T) {
	// archiveBatch entries a step: the window's entries take 3 steps.
	killEveryStep(t, killPoints(archiveSteps, 2, killPoint{"copy", 1}),
		func(t *testing.T, client rueidis.Client, addr, name string) *faultCase {
			return archiveCase(t, client, []string{addr}, name, 0)
		})
}

// restartModes are the ways the server goes down: a clean shutdown
// (SIGTERM, the append-only file flushed) and a crash (SIGKILL).
var restartModes = []string{"sigterm", "sigkill"}

// restartMidCopy kills the operation's process in the middle of the copy,
// then stops and restarts the server (append-only, fsync always), then a
// new process finishes the operation.
func restartMidCopy(t *testing.T, op string, copyMid int, quick string, mk func(t *testing.T, client rueidis.Client, addr, name string) *faultCase) {
	for _, mode := range restartModes {
		t.Run(mode, func(t *testing.T) {
			if mode != quick && !fullFaults() {
				t.Skip("the quick run restarts the server one way only: set TIEBREAK_FAULTS=1 for the full matrix")
			}
			srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
			c := mk(t, client, srv.Addr, "restart")
			runUnderLoad(t, c, func(t *testing.T) {
				spec := c.spec
				spec.Kill = fmt.Sprintf("%s:copy:%d", op, copyMid)
				startChild(t, spec).mustBeKilled(t)
				if mode == "sigkill" {
					if err := srv.Crash(); err != nil {
						t.Fatal(err)
					}
				}
				if err := srv.Restart(); err != nil {
					t.Fatal(err)
				}
				waitLoadedFault(t, client)
			})
		})
	}
}

// waitLoadedFault waits until the restarted server has loaded its data.
func waitLoadedFault(t *testing.T, client rueidis.Client) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		info, err := redisops.Info(ctx, client, "persistence")
		cancel()
		if err == nil && info["loading"] == "0" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the restarted server is still loading its data after 30s")
}

// A Migrate cut short in the middle of its copy by the loss of its process
// and a restart of the server (clean, or a crash) is finished by a new
// process, nothing acknowledged lost.
func TestMigrateSurvivesServerRestart(t *testing.T) {
	restartMidCopy(t, "Migrate", faultEntries/faultBatch/2, "sigkill", func(t *testing.T, client rueidis.Client, addr, name string) *faultCase {
		return migrateCase(t, client, []string{addr}, name, 0)
	})
}

// As TestMigrateSurvivesServerRestart, for a Reshard from 3 to 5 shards.
func TestReshardSurvivesServerRestart(t *testing.T) {
	needFullFaults(t)
	restartMidCopy(t, "Reshard", faultEntries/faultBatch/2, "", func(t *testing.T, client rueidis.Client, addr, name string) *faultCase {
		return reshardCase(t, client, []string{addr}, name, 5, 0)
	})
}

// As TestMigrateSurvivesServerRestart, for an Archive.
func TestArchiveSurvivesServerRestart(t *testing.T) {
	needFullFaults(t)
	restartMidCopy(t, "Archive", 2, "", func(t *testing.T, client rueidis.Client, addr, name string) *faultCase {
		return archiveCase(t, client, []string{addr}, name, 0)
	})
}

// failoverMidCopy runs the operation in this process on a cluster of 3
// masters with a replica each; in the middle of the copy it kills the
// master that holds the board's slot. The writers wait for a replica
// (WaitReplicas 1), so each acknowledged write survives the failover; the
// operation, called again while it fails, must finish once a replica has
// taken over.
func failoverMidCopy(t *testing.T, op string, copyAt int, mk func(t *testing.T, client rueidis.Client, addrs []string, name string) *faultCase) {
	needFullFaults(t)
	cl, client := redistest.PrivateCluster(t, redistest.ClusterOptions{Masters: 3, Replicas: 1, NodeTimeout: 2 * time.Second})
	c := mk(t, client, cl.Addrs, "failover")
	ctx := t.Context()
	slot, err := cl.SlotOf(ctx, c.killKey)
	if err != nil {
		t.Fatal(err)
	}
	victim, err := cl.SlotOwner(ctx, slot)
	if err != nil {
		t.Fatal(err)
	}
	ld := startLoad(c.load)
	defer ld.stop()
	before := c.acked()
	time.Sleep(300 * time.Millisecond)
	c.ready(t)
	var mu sync.Mutex
	seen := map[string]int{}
	killed := false
	var atKill int64 // writes acknowledged when the master was killed
	faultPoint = func(o, step string) {
		mu.Lock()
		defer mu.Unlock()
		seen[step]++
		if o == op && step == "copy" && seen[step] == copyAt && !killed {
			killed = true
			atKill = c.acked()
			t.Logf("killing master %s (slot %d of %s) at %s:copy:%d", victim, slot, c.killKey, op, copyAt)
			if err := cl.Kill(victim); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { faultPoint = nil }()
	from := time.Now()
	deadline := from.Add(90 * time.Second)
	var errs []string
	for {
		err := c.runInProcess(ctx)
		if err == nil {
			break
		}
		errs = append(errs, err.Error())
		if time.Now().After(deadline) {
			t.Fatalf("the operation did not finish within 90 s of the failover; its errors:\n%s", strings.Join(errs, "\n"))
		}
		time.Sleep(500 * time.Millisecond)
	}
	mu.Lock()
	wasKilled := killed
	mu.Unlock()
	faultPoint = nil
	if !wasKilled {
		t.Fatalf("kill point %s:copy:%d never reached; steps reached: %v", op, copyAt, seen)
	}
	t.Logf("the operation finished %.2fs after it began, after %d failed calls", time.Since(from).Seconds(), len(errs))
	for i, e := range errs[:min(len(errs), 5)] {
		t.Logf("failed call %d: %s", i+1, e)
	}
	if atKill == before {
		t.Fatalf("no write acknowledged before the master was killed: the test tests nothing")
	}
	time.Sleep(500 * time.Millisecond)
	to := time.Now()
	ld.stop()
	t.Logf("%d writes acknowledged in all (the fill included), %d from the load's start to the fault", c.acked(), atKill-before)
	c.logUnavailability(t, from, to)
	c.verify(t)
}

// A Migrate on a Redis Cluster survives the failover of the master holding
// the board, killed in the middle of the copy.
func TestMigrateSurvivesFailover(t *testing.T) {
	failoverMidCopy(t, "Migrate", faultEntries/faultBatch/2, func(t *testing.T, client rueidis.Client, addrs []string, name string) *faultCase {
		return migrateCase(t, client, addrs, name, 1)
	})
}

// A Reshard from 3 to 5 shards on a Redis Cluster survives the failover
// of the master holding the board's descriptor, killed in the middle of
// the copy.
func TestReshardSurvivesFailover(t *testing.T) {
	failoverMidCopy(t, "Reshard", faultEntries/faultBatch/2, func(t *testing.T, client rueidis.Client, addrs []string, name string) *faultCase {
		return reshardCase(t, client, addrs, name, 5, 1)
	})
}

// An Archive on a Redis Cluster survives the failover of the master
// holding the window, killed in the middle of the copy.
func TestArchiveSurvivesFailover(t *testing.T) {
	failoverMidCopy(t, "Archive", 1, func(t *testing.T, client rueidis.Client, addrs []string, name string) *faultCase {
		return archiveCase(t, client, addrs, name, 1)
	})
}

// racing runs the operation in two processes started at once, under
// load: both finish (the second may wait for the first's lease), and
// nothing acknowledged is lost.
func racing(t *testing.T, mk func(t *testing.T, client rueidis.Client, addr, name string) *faultCase) {
	needFullFaults(t)
	srv, client := redistest.Private(t)
	c := mk(t, client, srv.Addr, "race")
	runUnderLoad(t, c, func(t *testing.T) {
		spec := c.spec
		spec.Retry = true
		a, b := startChild(t, spec), startChild(t, spec)
		a.mustFinish(t, "the first of two racing processes")
		b.mustFinish(t, "the second of two racing processes")
	})
}

// Two processes migrating the same board to the same settings at once.
func TestMigrateRacingProcesses(t *testing.T) {
	racing(t, func(t *testing.T, client rueidis.Client, addr, name string) *faultCase {
		return migrateCase(t, client, []string{addr}, name, 0)
	})
}

// Two processes resharding the same board from 3 to 5 shards at once.
func TestReshardRacingProcesses(t *testing.T) {
	racing(t, func(t *testing.T, client rueidis.Client, addr, name string) *faultCase {
		return reshardCase(t, client, []string{addr}, name, 5, 0)
	})
}

// Two processes archiving the same window at once.
func TestArchiveRacingProcesses(t *testing.T) {
	racing(t, func(t *testing.T, client rueidis.Client, addr, name string) *faultCase {
		return archiveCase(t, client, []string{addr}, name, 0)
	})
}
