package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// The cup's answers, on a real Redis, twice: every rule refuses in turn,
// and the standings show the runs left.
func TestTournament(t *testing.T) {
	env := redistest.New(t)
	now := time.Now()
	for range 2 {
		var out bytes.Buffer
		if err := run(context.Background(), &out, env.Client, env.Prefix+"cup", now); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("output (-want +got):\n%s", diff)
		}
	}
}

const want = `ann plays before joining: join the cup first
ann, bob, cyd and dee join: ok
eve joins: the cup is full
ann's run 1 (120): ok
ann's run 2 (340): ok
ann's run 3 (200): ok
ann's run 4 (500): no runs left today
bob's run (410): ok
cyd's run (340): ok
today's standings:
  1. bob 410  (2 runs left)
  2. ann 340  (0 runs left)
  3. cyd 340  (2 runs left)
`
