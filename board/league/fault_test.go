package league

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"

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
