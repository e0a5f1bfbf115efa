package board

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// On a server without replicas, every write of a board that waits for one
// is applied and returns its result with ErrNotReplicated: each of them
// sends WAIT.
func TestWritesWaitForReplicas(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	b := newBoard(t, env.Client, env.Prefix, "b", testLayout(t), Options{DenseRanks: true, WaitReplicas: 1, WaitTimeout: time.Millisecond})
	short := func(op string, err error) {
		t.Helper()
		if !errors.Is(err, ErrNotReplicated) || !strings.Contains(err.Error(), "0 of 1 replicas") {
			t.Errorf("%s: %v, want ErrNotReplicated (0 of 1 replicas)", op, err)
		}
	}
	res, err := b.Submit(ctx, Submission{ID: "a", Values: []float64{10, 1, 5}, Data: []byte("d")})
	short("Submit", err)
	if res.Entry.Rank != 1 || !res.Changed {
		t.Errorf("Submit's result %+v, want rank 1, changed", res)
	}
	many := b.SubmitMany(ctx, []Submission{{ID: "b", Values: []float64{20, 0, 1}}, {ID: "", Values: []float64{1, 0, 0}}})
	short("SubmitMany[0]", many[0].Err)
	if !errors.Is(many[1].Err, errID) {
		t.Errorf("SubmitMany[1], an empty id: %v, want errID alone", many[1].Err)
	}
	_, err = b.Update(ctx, "a", func(old *Entry) ([]float64, error) { return []float64{old.Values[0] + 1, 1, 5}, nil })
	short("Update", err)
	short("SetData", b.SetData(ctx, "b", []byte("x")))
	if err := b.SetData(ctx, "nobody", []byte("x")); !errors.Is(err, ErrNotFound) || errors.Is(err, ErrNotReplicated) {
		t.Errorf("SetData of an absent id: %v, want ErrNotFound alone (nothing written)", err)
	}
	e, err := b.Get(ctx, "a", WithData())
	if err != nil || e.Values[0] != 11 || string(e.Data) != "d" {
		t.Errorf("Get(a) = %+v, %v; want the writes applied: 11 points, data d", e, err)
	}
	n, err := b.Remove(ctx, "a", "b")
	short("Remove", err)
	if n != 2 {
		t.Errorf("Remove = %d, want 2", n)
	}
}

func TestWaitOptionsRefused(t *testing.T) {
	env := redistest.New(t)
	for _, o := range []Options{{WaitReplicas: -1}, {WaitReplicas: maxWaitReplicas + 1}, {WaitTimeout: -1}, {WaitTimeout: maxWaitTimeout + 1}} {
		if _, err := New(t.Context(), env.Client, env.Prefix+"_b", testLayout(t), o); !errors.Is(err, ErrOptions) {
			t.Errorf("New with %+v: %v, want ErrOptions", o, err)
		}
	}
}
