package board

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// checkErrorText fails t when err's text names the package more than once
// ("board: board: ...") or prints an enum as a bare number.
func checkErrorText(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if n := strings.Count(err.Error(), "board: "); n != 1 {
		t.Errorf("error says %q %d times: %v", "board: ", n, err)
	}
}

func TestErrorsNameWhatFailed(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		mustSubmit(t, b, Submission{ID: "a", Values: []float64{5, 1, 1}})
		for _, c := range []struct {
			err  error
			want []string
		}{
			{errOf(b.Top(ctx, 0)), []string{"n = 0", "[1, 1000]"}},
			{errOf(b.Page(ctx, -1, 5)), []string{"offset = -1", "[0, 9007199254740991]"}},
			{errOf(b.Rank(ctx, "a", 9)), []string{"RankKind(9)", "Ordinal, Competition, Dense or ModifiedCompetition"}},
			{errOf(b.Submit(ctx, Submission{ID: "a", Values: []float64{1, 1, 1}, Policy: 9})), []string{"Policy(9)"}},
			{errOf(b.Submit(ctx, Submission{ID: "a", Values: []float64{1, 1, 1}, Fields: []Policy{7, 0, 0}})), []string{"Policy(7)", "field 0"}},
			{errOf(b.Submit(ctx, Submission{ID: "a", Values: []float64{1, 1, 1}, Fields: []Policy{Add, Best, Add}})), []string{"policy Best for field 1", "whole entries"}},
			{errOf(b.Submit(ctx, Submission{ID: "a", Values: []float64{1, 1, 1}, Policy: Max, Fields: []Policy{Add, Add, Add}})), []string{"policy Max", "Policy Replace"}},
			{errOf(b.Submit(ctx, Submission{ID: "a", Values: []float64{1, 1, 300}})), []string{`"time"`, "300", "[0, 255]"}},
			{errOf(b.Submit(ctx, Submission{ID: strings.Repeat("x", 300), Values: []float64{1, 1, 1}})), []string{"300 bytes", "[1, 256]"}},
			{errOf(b.Between(ctx, math.NaN(), 1, 0, 5)), nil},
			{errOf(b.Get(ctx, "nobody")), []string{`"nobody"`}},
		} {
			if c.err == nil {
				t.Errorf("want an error containing %q, got nil", c.want)
				continue
			}
			checkErrorText(t, c.err)
			for _, w := range c.want {
				if !strings.Contains(c.err.Error(), w) {
					t.Errorf("error %q does not say %q", c.err, w)
				}
			}
		}
	})
}

func TestEnumsPrintNames(t *testing.T) {
	got := []string{Replace.String(), Best.String(), Add.String(), Max.String(), Min.String(), Keep.String(), Policy(9).String(),
		Ordinal.String(), Competition.String(), Dense.String(), RankKind(9).String(),
		PackedScore.String(), KeySuffix.String(), Strategy(9).String()}
	want := []string{"Replace", "Best", "Add", "Max", "Min", "Keep", "Policy(9)",
		"Ordinal", "Competition", "Dense", "RankKind(9)",
		"PackedScore", "KeySuffix", "Strategy(9)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("enum names (-want +got):\n%s", diff)
	}
}

// An Update whose every compare-and-set loses, on a context without a
// deadline, gives up after Options.UpdateAttempts attempts.
func TestUpdateGivesUpAfterAttempts(t *testing.T) {
	bothStrategies(t, Options{UpdateAttempts: 5}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		mustSubmit(t, b, Submission{ID: "a", Values: []float64{1, 0, 0}})
		var calls atomic.Int64
		_, err := b.Update(ctx, "a", func(old *Entry) ([]float64, error) {
			n := calls.Add(1)
			// A concurrent writer changes the entry after every read.
			mustSubmit(t, b, Submission{ID: "a", Values: []float64{float64(n + 1), 0, 0}})
			return []float64{500, 1, 1}, nil
		})
		if !errors.Is(err, errRetriesExhausted) || !errors.Is(err, ErrConflict) {
			t.Fatalf("err = %v, want errRetriesExhausted and ErrConflict", err)
		}
		checkErrorText(t, err)
		if calls.Load() != 5 {
			t.Errorf("fn called %d times, want 5 (Options.UpdateAttempts)", calls.Load())
		}
		e, err := b.Get(ctx, "a")
		if err != nil || e.Values[0] != 6 {
			t.Errorf("entry after a given-up Update = %v, %v; want the concurrent writer's 6", e.Values, err)
		}
	})
}

// A nil fn is the caller's mistake: Update refuses it on every kind of
// board, before reading or writing anything.
func TestUpdateRefusesNilFn(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		mustSubmit(t, b, Submission{ID: "a", Values: []float64{5, 1, 1}})
		if _, err := b.Update(t.Context(), "a", nil); !errors.Is(err, ErrArgument) {
			t.Errorf("Update with a nil fn = %v; want ErrArgument", err)
		}
		if e, err := b.Get(t.Context(), "a"); err != nil || e.Values[0] != 5 {
			t.Errorf("after the refusal, Get = %+v, %v; want the entry unchanged", e, err)
		}
	})
	env := redistest.New(t)
	s := newSharded(t, env.Client, env.Prefix, "s", testLayout(t), Options{Shards: 2})
	if _, err := s.Update(t.Context(), "a", nil); !errors.Is(err, ErrArgument) {
		t.Errorf("sharded Update with a nil fn = %v; want ErrArgument", err)
	}
}

// A deadline that ends a call while rueidis dials a connection for it
// ends it as every deadline does: the error wraps
// context.DeadlineExceeded, not ErrRedis (the dial's socket deadline,
// taken from the context's, fires before the context's own timer). Each
// batch of 2,000 writes goes through a new client, under a deadline of 0
// to 3 ms, so that rueidis dials as the deadlines pass.
func TestDeadlineWhileDialingIsTheCallers(t *testing.T) {
	env := redistest.New(t)
	b := newBoard(t, env.Client, env.Prefix, "dialdeadline", testLayout(t), Options{})
	subs := make([]Submission, 2000)
	for j := range subs {
		subs[j] = Submission{ID: fmt.Sprint(j), Values: []float64{1, 0, 1}}
	}
	ended, redis := 0, 0
	for i := range 100 {
		client, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{env.Addr}, DisableCache: true})
		if err != nil {
			t.Fatal(err)
		}
		nb, err := Open(t.Context(), client, b.Name(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i*30)*time.Microsecond)
		for _, r := range nb.SubmitMany(ctx, subs) {
			if r.Err == nil || ctx.Err() == nil {
				continue
			}
			ended++
			if errors.Is(r.Err, ErrRedis) || !errors.Is(r.Err, context.DeadlineExceeded) {
				if redis++; redis == 1 {
					t.Errorf("a write its deadline ended: %v; want context.DeadlineExceeded, not ErrRedis", r.Err)
				}
			}
		}
		cancel()
		client.Close()
	}
	t.Logf("%d writes ended by their deadline, %d of them reported as Redis's failure", ended, redis)
	if ended == 0 {
		t.Error("no write ended by its deadline: the test checked nothing")
	}
}
