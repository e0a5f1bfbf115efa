package main

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/pack"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// arenaLayout ranks by points, then paid first, then earliest time.
func arenaLayout(t testing.TB) *pack.Layout { return layoutOfPoints(t, 20) }

// layoutOfPoints is arenaLayout with points of width bits.
func layoutOfPoints(t testing.TB, width int) *pack.Layout {
	t.Helper()
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: width},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 32, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// noon is the instant the seeded entries and messages start from.
var noon = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// seedArena writes the board name: five players, two tied on every field
// but time, with dense ranks and member data for ann.
func seedArena(t testing.TB, ctx context.Context, c rueidis.Client, name string, opts board.Options) *board.Board {
	t.Helper()
	b, err := board.New(ctx, c, name, arenaLayout(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []struct {
		id           string
		points, paid float64
	}{{"ann", 300, 0}, {"bob", 200, 1}, {"cyd", 200, 0}, {"dee", 200, 1}, {"eve", 100, 1}} {
		s := board.Submission{ID: p.id, Values: []float64{p.points, p.paid, float64(noon.Unix()) + float64(i%2)}}
		if p.id == "ann" {
			s.Data = []byte(`{"team":"red"}`)
		}
		if _, err := b.Submit(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// seedMigrating leaves board name migrating: its points field narrows to
// 8 bits, which ann's 300 points do not fit, so Migrate stops before the
// switch.
func seedMigrating(t testing.TB, ctx context.Context, c rueidis.Client, name string) {
	t.Helper()
	b := seedArena(t, ctx, c, name, board.Options{})
	narrow := layoutOfPoints(t, 8)
	if _, err := b.Migrate(ctx, narrow, board.Options{}, board.MigrateOptions{}); !errors.Is(err, pack.ErrOverflow) {
		t.Fatalf("Migrate to 8-bit points: %v, want entries that do not fit (pack.ErrOverflow)", err)
	}
}

// seedTimeline appends n messages "message i", ten per millisecond, to the
// room's timeline of layout l, and returns their IDs, oldest first.
func seedTimeline[ID any](t testing.TB, ctx context.Context, c rueidis.Client, room string, l timeline.Codec[ID],
	s timeline.Strategy, n int, id func(i int) ID) []ID {
	t.Helper()
	tl, err := timeline.New(c, room, l, timeline.Options{Strategy: s})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]ID, n)
	msgs := make([]timeline.Message[ID], n)
	for i := range n {
		ids[i] = id(i)
		msgs[i] = timeline.Message[ID]{ID: ids[i], Payload: fmt.Appendf(nil, "message %d", i)}
	}
	if err := tl.AppendMany(ctx, msgs); err != nil {
		t.Fatal(err)
	}
	return ids
}

// tsidAt returns the TSID of node 1 and counter i%10 at noon plus i/10 ms.
func tsidAt(t testing.TB, i int) uint64 {
	t.Helper()
	ms := uint64(noon.Sub(tsid.TSIDEpoch).Milliseconds()) + uint64(i/10)
	return ms<<22 | 1<<12 | uint64(i%10)
}

// ulidAt returns a ULID at noon plus i/10 ms, its random part i.
func ulidAt(i int) [16]byte {
	var id [16]byte
	ms := uint64(noon.UnixMilli()) + uint64(i/10)
	for b := range 6 {
		id[b] = byte(ms >> (8 * (5 - b)))
	}
	id[15], id[14] = byte(i), byte(i>>8)
	return id
}

// seedMap adds prices to the decimal map name.
func seedMap(t testing.TB, ctx context.Context, c rueidis.Client, name string) *decimalmap.Map {
	t.Helper()
	m, err := decimalmap.New(c, name, decimalmap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][]string{
		{"25500.12346", "user2", "user3", "user2"}, {"25500.12345", "user1"}, {"-0.5", "short"},
		{"25505.2", "user4"}, {"1E+30", "whale"}, {"25500.10", "user5"},
	} {
		if _, err := m.Add(ctx, kv[0], kv[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// seedLimiter admits n requests of key under limit.
func seedLimiter(t testing.TB, ctx context.Context, c rueidis.Client, key string, limit ratelimit.Limit, n int) {
	t.Helper()
	lim, err := ratelimit.New(c, ratelimit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		if res, err := lim.Allow(ctx, key, limit); err != nil || res.Allowed != 1 {
			t.Fatalf("Allow(%s): %+v, %v", key, res, err)
		}
	}
}
