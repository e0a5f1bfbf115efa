package decimalmap

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// On a server without replicas, every write of a map that waits for one
// is applied and returns its result with ErrNotReplicated: each of them
// sends WAIT.
func TestWritesWaitForReplicas(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	m, err := New(env.Client, env.Prefix+"_m", Options{WaitReplicas: 1, WaitTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	short := func(op string, err error) {
		t.Helper()
		if !errors.Is(err, ErrNotReplicated) || !strings.Contains(err.Error(), "0 of 1 replicas") {
			t.Errorf("%s: %v, want ErrNotReplicated (0 of 1 replicas)", op, err)
		}
	}
	n, err := m.Add(ctx, "1.5", "a", "b")
	short("Add", err)
	if n != 2 {
		t.Errorf("Add = %d, want 2", n)
	}
	if _, err := m.Add(ctx, "x", "a"); !errors.Is(err, ErrKey) {
		t.Errorf("Add of a malformed key: %v, want ErrKey alone", err)
	}
	ok, err := m.RemoveValue(ctx, "1.5", "a")
	short("RemoveValue", err)
	if !ok {
		t.Error("RemoveValue = false, want true")
	}
	if vals, err := m.Get(ctx, "1.50"); err != nil || len(vals) != 1 || vals[0] != "b" {
		t.Errorf("Get = %q, %v; want [b]", vals, err)
	}
	n, err = m.Remove(ctx, "1.5")
	short("Remove", err)
	if n != 1 {
		t.Errorf("Remove = %d, want 1", n)
	}
	short("Drop", m.Drop(ctx))
}

func TestWaitOptionsRefused(t *testing.T) {
	env := redistest.New(t)
	for _, o := range []Options{{WaitReplicas: -1}, {WaitReplicas: MaxWaitReplicas + 1}, {WaitTimeout: -1}, {WaitTimeout: MaxWaitTimeout + 1}} {
		if _, err := New(env.Client, env.Prefix+"_m", o); !errors.Is(err, ErrOptions) {
			t.Errorf("New with %+v: %v, want ErrOptions", o, err)
		}
	}
}
