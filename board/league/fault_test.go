package league

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// rollChildEnv holds the JSON rollSpec of a child process of the kill
// test: the test binary run again, which rolls a season and kills itself
// (SIGKILL) at a chosen step.
const rollChildEnv = "TIEBREAK_LEAGUE_ROLL_CHILD"

type rollSpec struct {
	Addr, Name string
	Kill       int // the step (counted from 1) at which the child kills itself
}

// faultOptions are the options of the kill test's leagues.
var faultOptions = Options{CohortSize: 4, Partitions: 2, Promote: Zone{Count: 1}, Demote: Zone{Count: 1}}

// rollChild rolls season 0 of the league the spec names and returns 0;
// it never returns when it kills itself.
func rollChild(arg string) int {
	var spec rollSpec
	if err := json.Unmarshal([]byte(arg), &spec); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	client, err := redisserver.Dial(spec.Addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	steps := 0
	faultPoint = func(string) {
		if steps++; steps == spec.Kill {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal arrives
		}
	}
	l, err := New(context0(), client, spec.Name, testLayout(&testing.T{}), period(), faultOptions)
	if err == nil {
		err = season(l, 0).Roll(context0())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// A roll killed (SIGKILL) at each of its steps leaves every cohort either
// applied (its members' tiers as the model moves them) or not (as they
// were); rolling again, from two processes at once, completes it: every
// member's tier is the model's, and the next season places members in
// their tiers.
func TestRollKilledAtEveryStep(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	members := ids(30)
	// Steps of a whole roll: per partition, close, each cohort, finish.
	probe := newLeague(t, env.Client, env.Prefix+"probe", faultOptions)
	playSeason(t, season(probe, 0), members, 0)
	steps := 0
	faultPoint = func(string) { steps++ }
	if err := season(probe, 0).Roll(ctx); err != nil {
		t.Fatal(err)
	}
	faultPoint = nil
	for kill := 1; kill <= steps; kill++ {
		t.Run("step"+strconv.Itoa(kill), func(t *testing.T) {
			name := env.Prefix + "k" + strconv.Itoa(kill)
			l := newLeague(t, env.Client, name, faultOptions)
			s := season(l, 0)
			playSeason(t, s, members, 0)
			want := modelRoll(l, map[string]int{}, seasonCohorts(t, l, s))
			spec, _ := json.Marshal(rollSpec{Addr: env.Addr, Name: name, Kill: kill})
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), rollChildEnv+"="+string(spec))
			out, err := cmd.CombinedOutput()
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("the child was not killed at step %d: %v\n%s", kill, err, out)
			}
			for _, id := range members {
				got, err := l.Tier(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if got != "bronze" && got != l.opts.Tiers[max(want[id], 1)-1] {
					t.Errorf("after a kill at step %d, %s is %s: neither before nor after the roll", kill, id, got)
				}
			}
			var wg sync.WaitGroup
			for range 2 {
				wg.Go(func() {
					if err := s.Roll(ctx); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			checkTiers(t, l, members, want)
			next := season(l, 1)
			for _, id := range members[:5] {
				res, err := next.Submit(ctx, result(id, 1, 1))
				if err != nil {
					t.Fatal(err)
				}
				if w := l.opts.Tiers[max(want[id], 1)-1]; res.Cohort.Tier != w {
					t.Errorf("next season: %s placed in %s, want %s", id, res.Cohort.Tier, w)
				}
			}
		})
	}
	t.Logf("a roll of %d members in %d partitions has %d steps; killed at each", len(members), faultOptions.Partitions, steps)
}

// context0 is the child's context: the test's own does not exist there.
func context0() context.Context { return context.Background() }

// A roll survives its server's restart in the middle (SIGKILL or a clean
// shutdown, append-only with fsync always): the steps acknowledged before
// are kept, the roll rides out the outage and finishes as the model says.
func TestRollSurvivesRestart(t *testing.T) {
	for _, mode := range []string{"sigkill", "shutdown"} {
		t.Run(mode, func(t *testing.T) {
			srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
			ctx := t.Context()
			l := newLeague(t, client, "restart", faultOptions)
			s := season(l, 0)
			members := ids(30)
			playSeason(t, s, members, 0)
			want := modelRoll(l, map[string]int{}, seasonCohorts(t, l, s))
			var once sync.Once
			restarted := make(chan error, 1)
			cohorts := 0
			faultPoint = func(step string) {
				if step != "cohort" {
					return
				}
				if cohorts++; cohorts != 2 {
					return
				}
				once.Do(func() {
					if mode == "sigkill" {
						if err := srv.Crash(); err != nil {
							t.Error(err)
						}
					}
					// The server comes back while the roll tries its next step.
					go func() { restarted <- srv.Restart() }()
				})
			}
			defer func() { faultPoint = nil }()
			if err := s.Roll(ctx); err != nil {
				t.Fatalf("the roll across the restart: %v", err)
			}
			if err := <-restarted; err != nil {
				t.Fatal(err)
			}
			checkTiers(t, l, members, want)
		})
	}
}

// A roll on a Redis Cluster survives the failover of the master holding
// a partition, killed in the middle of the roll: the roll rides out the
// outage (or is called again) and finishes as the model says; the
// results, written with WaitReplicas 1, are all there.
func TestRollSurvivesFailover(t *testing.T) {
	cl, client := redistest.PrivateCluster(t, redistest.ClusterOptions{Masters: 3, Replicas: 1, NodeTimeout: 2 * time.Second})
	ctx := t.Context()
	o := faultOptions
	o.Board.WaitReplicas = 1
	l := newLeague(t, client, "failover", o)
	s := season(l, 0)
	members := ids(30)
	playSeason(t, s, members, 0)
	before := seasonCohorts(t, l, s)
	want := modelRoll(l, map[string]int{}, before)
	slot, err := cl.SlotOf(ctx, l.partKey(0, "league"))
	if err != nil {
		t.Fatal(err)
	}
	victim, err := cl.SlotOwner(ctx, slot)
	if err != nil {
		t.Fatal(err)
	}
	cohorts := 0
	faultPoint = func(step string) {
		if step == "cohort" {
			if cohorts++; cohorts == 2 {
				t.Logf("killing master %s (slot %d of partition 0) after the roll's second cohort", victim, slot)
				if err := cl.Kill(victim); err != nil {
					t.Error(err)
				}
			}
		}
	}
	defer func() { faultPoint = nil }()
	from := time.Now()
	var errs []error
	for {
		err := s.Roll(ctx)
		if err == nil {
			break
		}
		if errs = append(errs, err); time.Since(from) > 90*time.Second {
			t.Fatalf("the roll did not finish within 90 s of the failover: %v", errs)
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("the roll finished %.2fs after it began, after %d failed calls", time.Since(from).Seconds(), len(errs))
	checkTiers(t, l, members, want)
	if after := seasonCohorts(t, l, s); !reflect.DeepEqual(after, before) {
		t.Errorf("the cohorts' standings changed across the failover:\nbefore %v\nafter  %v", before, after)
	}
}
