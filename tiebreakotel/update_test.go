package tiebreakotel_test

import (
	"errors"
	"testing"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tiebreakotel"
	"go.opentelemetry.io/otel/attribute"
)

// TestUpdateRetriesAndConflicts: an Update whose function writes the entry
// through another handle on its first k calls loses its compare-and-set k
// times; its span counts the attempts and conflicts, and the metrics add
// them up: k conflicts and k retries when it then succeeds, UpdateAttempts
// conflicts and UpdateAttempts-1 retries when it runs out
// (ErrRetriesExhausted).
func TestUpdateRetriesAndConflicts(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	ctx := t.Context()
	const attempts = 4
	name := env.Prefix + "_contended"
	b, err := board.New(ctx, r.client, name, testLayout(t), board.Options{Observer: r.obs, UpdateAttempts: attempts})
	if err != nil {
		t.Fatal(err)
	}
	rival, err := board.New(ctx, env.Client, name, testLayout(t), board.Options{})
	if err != nil {
		t.Fatal(err)
	}
	op := attribute.String("db.operation.name", "board.Update")
	var wantRetries, wantConflicts int64
	for _, c := range []struct {
		interfere int // calls of the function that write through rival first
		exhausted bool
	}{{0, false}, {1, false}, {3, false}, {attempts, true}, {2, false}} {
		calls := 0
		from := len(r.spans.Ended())
		_, err := b.Update(ctx, "ada", func(old *board.Entry) ([]float64, error) {
			calls++
			if calls <= c.interfere {
				if _, err := rival.Submit(ctx, board.Submission{ID: "ada", Values: []float64{float64(calls), float64(c.interfere)}}); err != nil {
					return nil, err
				}
			}
			return []float64{100, 1}, nil
		})
		if c.exhausted != errors.Is(err, board.ErrConflict) {
			t.Fatalf("%d interfering: Update: %v, want ErrRetriesExhausted %t", c.interfere, err, c.exhausted)
		}
		conflicts, tries := c.interfere, c.interfere+1
		if c.exhausted {
			tries = attempts
		}
		wantRetries += int64(tries - 1)
		wantConflicts += int64(conflicts)

		ours := r.ours(from)
		if len(ours) != 1 {
			t.Fatalf("%d interfering: %d spans, want 1 (board.Update)", c.interfere, len(ours))
		}
		got := attrs(ours[0])
		if got["tiebreak.update.attempts"] != attribute.IntValue(tries) || got["tiebreak.update.conflicts"] != attribute.IntValue(conflicts) {
			t.Errorf("%d interfering: attempts %s, conflicts %s, want %d, %d",
				c.interfere, got["tiebreak.update.attempts"].Emit(), got["tiebreak.update.conflicts"].Emit(), tries, conflicts)
		}
		if c.exhausted && got["error.type"] != attribute.StringValue("board.ErrConflict") {
			t.Errorf("exhausted: error.type %q, want board.ErrConflict", got["error.type"].Emit())
		}
		// The span holds one script run (EVALSHA) per attempt, and the
		// reads before them: nothing outside it.
		if n := len(r.children(ours[0].SpanContext())); n < 2*tries {
			t.Errorf("%d interfering: %d command spans under board.Update, want at least %d (a read and a write per attempt)", c.interfere, n, 2*tries)
		}
		rm := r.metrics(t)
		if got := counter(t, rm, tiebreakotel.RetriesMetric, op); got != wantRetries {
			t.Errorf("after %d interfering: retries = %d, want %d", c.interfere, got, wantRetries)
		}
		if got := counter(t, rm, tiebreakotel.ConflictsMetric, op); got != wantConflicts {
			t.Errorf("after %d interfering: conflicts = %d, want %d", c.interfere, got, wantConflicts)
		}
	}
}
