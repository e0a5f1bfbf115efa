package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// The league's answers, on a real Redis, twice (the second run drops the
// first's league): each week's cohort of p1 and every player's tier
// after each roll.
func TestLeague(t *testing.T) {
	env := redistest.New(t)
	for range 2 {
		var out bytes.Buffer
		if err := run(context.Background(), &out, env.Client, env.Prefix+"arena"); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("output (-want +got):\n%s", diff)
		}
	}
}

const want = `week 2026-W45: p1 competes in bronze cohort 1:
  1. p3   75 xp
  2. p5   49 xp
  3. p2   38 xp
  4. p4   12 xp
  5. p1    1 xp
after week 2026-W45: p1=bronze p2=bronze p3=silver p4=bronze p5=silver p6=silver p7=bronze p8=bronze p9=silver p10=bronze p11=silver p12=silver
week 2026-W46: p1 competes in bronze cohort 1:
  1. p8   71 xp
  2. p2   49 xp
  3. p7   34 xp
  4. p4   23 xp
  5. p1   12 xp
after week 2026-W46: p1=bronze p2=silver p3=gold p4=bronze p5=bronze p6=gold p7=bronze p8=silver p9=bronze p10=silver p11=silver p12=gold
`
