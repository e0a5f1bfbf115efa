package main

import (
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// TestWritersKeepBest hammers a few ids with every writer that keeps the
// better result, concurrently, and checks against a model that each id
// ends with the most points ever submitted for it and appears once. It
// catches a baseline that loses updates or duplicates members.
func TestWritersKeepBest(t *testing.T) {
	env := redistest.New(t)
	h := &harness{client: env.Client, cfg: tinyConfig(env.Prefix), log: newProgress(io.Discard)}
	ws, err := newWriters(h)
	if err != nil {
		t.Fatal(err)
	}
	defer dropWriters(context.Background(), ws)
	const ids, goroutines, perGoroutine = 5, 8, 150
	for _, w := range ws {
		if w.name == writeZadd || w.name == writeBaseline {
			continue // they overwrite: no best to keep
		}
		t.Run(w.name, func(t *testing.T) {
			if err := w.load(context.Background(), 0, ids); err != nil {
				t.Fatal(err)
			}
			want := hammer(t, w, ids, goroutines*perGoroutine, goroutines)
			if diff := cmp.Diff(want, stored(t, env, w, ids)); diff != "" {
				t.Errorf("points per id (-want +got):\n%s", diff)
			}
		})
	}
}

// hammer makes n writes of random points to random ids from several
// goroutines and returns the model: the most points written per id.
func hammer(t *testing.T, w *writer, ids, n, goroutines int) map[string]int64 {
	t.Helper()
	var mu sync.Mutex
	var seq atomic.Uint64
	want := map[string]int64{}
	for i := range int64(ids) {
		want[idOf(i)] = 0
	}
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range n / goroutines {
				s := seq.Add(1)
				// Points in random order, not growing: a writer that
				// overwrites a better entry shows.
				id, e := idOf(int64(mix(s)%uint64(ids))), writeEntry(mix(^s)%(1<<pointsBits))
				if err := w.write(context.Background(), id, e); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				want[id] = max(want[id], e.points)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return want
}

// stored reads back each id's points from w's own storage, and fails the
// test when an id has more than one entry.
func stored(t *testing.T, env *redistest.Env, w *writer, ids int) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	name := env.Prefix + "_w1_"
	switch w.name {
	case writePacked, writeSuffix:
		return boardPoints(t, env, name+w.name, ids)
	case writeWatchMulti:
		s := newWatchMulti(env.Client, name+"watch-multi")
		checkCard(t, env, s.z, ids)
		got := map[string]int64{}
		for i := range int64(ids) {
			m, err := env.Client.Do(ctx, env.Client.B().Hget().Key(s.m).Field(idOf(i)).Build()).ToString()
			if err != nil {
				t.Fatal(err)
			}
			got[idOf(i)] = zscore(t, env, s.z, m)
		}
		return got
	case writeCASSpin:
		s := newCASSpin(env.Client, name+"cas-spin")
		checkCard(t, env, s.z, ids)
		got := map[string]int64{}
		for i := range int64(ids) {
			got[idOf(i)] = zscore(t, env, s.z, idOf(i)) >> (pointsShift)
		}
		return got
	}
	t.Fatalf("no reader for %s", w.name)
	return nil
}

// pointsShift is where points start in a packed score.
const pointsShift = 1 + timeBits

// boardPoints reads every id's points through the board API.
func boardPoints(t *testing.T, env *redistest.Env, name string, ids int) map[string]int64 {
	t.Helper()
	s := board.PackedScore
	if strings.HasSuffix(name, writeSuffix) {
		s = board.KeySuffix
	}
	b, err := board.New(t.Context(), env.Client, name, benchLayout, board.Options{Strategy: s})
	if err != nil {
		t.Fatal(err)
	}
	l, err := b.Top(context.Background(), ids+1)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, e := range l.Entries {
		got[e.ID] = int64(e.Values[0])
	}
	return got
}

// checkCard fails t unless key holds n members.
func checkCard(t *testing.T, env *redistest.Env, key string, n int) {
	t.Helper()
	got, err := env.Client.Do(context.Background(), env.Client.B().Zcard().Key(key).Build()).AsInt64()
	if err != nil || got != int64(n) {
		t.Errorf("ZCARD %s = %d (%v), want %d", key, got, err, n)
	}
}

// zscore returns member's score in key as an integer.
func zscore(t *testing.T, env *redistest.Env, key, member string) int64 {
	t.Helper()
	s, err := env.Client.Do(context.Background(), env.Client.B().Zscore().Key(key).Member(member).Build()).ToString()
	if err != nil {
		t.Fatal(err)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return int64(v)
}
