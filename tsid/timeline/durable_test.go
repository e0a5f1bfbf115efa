package timeline

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

// On a server without replicas, every write of a timeline that waits for
// one is applied and returns ErrNotReplicated: each of them sends WAIT.
func TestWritesWaitForReplicas(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix, tsid.TSID, Options{Strategy: s, MaxLen: 1, WaitReplicas: 1, WaitTimeout: time.Millisecond})
		short := func(op string, err error) {
			t.Helper()
			if !errors.Is(err, ErrNotReplicated) || !strings.Contains(err.Error(), "0 of 1 replicas") {
				t.Errorf("%s: %v, want ErrNotReplicated (0 of 1 replicas)", op, err)
			}
		}
		short("Append", tl.Append(ctx, 1<<22, []byte("a")))
		short("AppendMany", tl.AppendMany(ctx, []Message[uint64]{{ID: 2 << 22, Payload: []byte("b")}}))
		if _, err := tl.Get(ctx, 2<<22); err != nil {
			t.Errorf("Get of the message appended: %v", err)
		}
		_, err := tl.Trim(ctx)
		short("Trim", err)
		n, err := tl.Remove(ctx, 2<<22)
		short("Remove", err)
		if n != 1 {
			t.Errorf("Remove = %d, want 1", n)
		}
		short("Drop", tl.Drop(ctx))
	})
}

func TestWaitOptionsRefused(t *testing.T) {
	env := redistest.New(t)
	for _, o := range []Options{{WaitReplicas: -1}, {WaitReplicas: MaxWaitReplicas + 1}, {WaitTimeout: -1}, {WaitTimeout: MaxWaitTimeout + 1}} {
		if _, err := New(env.Client, env.Prefix, tsid.TSID, o); !errors.Is(err, ErrOptions) {
			t.Errorf("New with %+v: %v, want ErrOptions", o, err)
		}
	}
}
