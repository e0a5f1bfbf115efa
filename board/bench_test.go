package board

import (
	"context"
	"strconv"
	"testing"

	"github.com/tiebreak/tiebreak/internal/baseline"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

const benchIDs = 10000

func benchBoard(b *testing.B, env *redistest.Env, s Strategy) *Board {
	b.Helper()
	l := testLayout(b)
	bd := newBoard(b, env.Client, env.Prefix, s.String(), l, Options{Strategy: s})
	subs := make([]Submission, benchIDs)
	for i := range subs {
		subs[i] = Submission{ID: "player" + strconv.Itoa(i), Values: []float64{float64(i % 1024), float64(i % 2), float64(i % 256)}}
	}
	for _, r := range bd.SubmitMany(context.Background(), subs) {
		if r.Err != nil {
			b.Fatal(r.Err)
		}
	}
	return bd
}

// BenchmarkSubmit compares Submit in both strategies with a bare EVALSHA
// of the minimal script making the same Redis calls, on the same client.
func BenchmarkSubmit(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		bd := benchBoard(b, env, s)
		b.Run(s.String(), func(b *testing.B) {
			redistest.RunParallel(b, env.Client, func(i int64) error {
				sub := Submission{ID: "player" + strconv.Itoa(int(i%benchIDs)), Values: []float64{float64(i % 1024), 1, float64(i % 256)}}
				return errOf(bd.Submit(ctx, sub))
			})
		})
	}
	key := []string{"tb:{" + env.Prefix + "_bare}:z"}
	b.Run("bare-evalsha", func(b *testing.B) {
		redistest.RunParallel(b, env.Client, func(i int64) error {
			args := []string{"player" + strconv.Itoa(int(i%benchIDs)), strconv.FormatInt(-(i%1024)<<9, 10)}
			return errOf(baseline.BareSubmit.Exec(ctx, env.Client, key, args).ToArray())
		})
	})
}

// BenchmarkRead measures the reads a game backend makes most.
func BenchmarkRead(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		bd := benchBoard(b, env, s)
		reads := map[string]func(i int64) error{
			"rank":     func(i int64) error { return errOf(bd.Rank(ctx, "player"+strconv.Itoa(int(i%benchIDs)), Ordinal)) },
			"top10":    func(int64) error { return errOf(bd.Top(ctx, 10)) },
			"around10": func(i int64) error { return errOf(bd.Around(ctx, "player"+strconv.Itoa(int(i%benchIDs)), 10)) },
		}
		for _, name := range []string{"rank", "top10", "around10"} {
			read := reads[name]
			b.Run(s.String()+"/"+name, func(b *testing.B) { redistest.RunParallel(b, env.Client, read) })
		}
	}
}
