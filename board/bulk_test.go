package board

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestSubmitMany(t *testing.T) {
	bothStrategies(t, Options{}, func(t *testing.T, b *Board) {
		ctx := context.Background()
		subs := make([]Submission, 10000)
		for i := range subs {
			subs[i] = Submission{ID: "p" + strconv.Itoa(i), Values: []float64{float64(i % 1000), float64(i % 2), float64(i % 256)}}
		}
		subs[17].Values = []float64{5, 2, 0} // paid out of range: only this one fails
		subs[18].ID = ""
		res := b.SubmitMany(ctx, subs)
		for i, r := range res {
			switch {
			case i == 17 && !errors.Is(r.Err, errValue), i == 18 && !errors.Is(r.Err, errID):
				t.Errorf("result %d: err = %v", i, r.Err)
			case i != 17 && i != 18 && (r.Err != nil || r.Entry.ID != subs[i].ID || !r.Changed):
				t.Fatalf("result %d: %+v", i, r)
			}
		}
		if n, _ := b.Len(ctx); n != 9998 {
			t.Errorf("Len = %d, want 9998", n)
		}
		top, _ := b.Top(ctx, 1)
		if top.Entries[0].Values[0] != 999 {
			t.Errorf("top = %+v", top.Entries[0])
		}
	})
}

// Every write and read through a 3-master Redis Cluster.
func TestCluster(t *testing.T) {
	cl := redistest.NewCluster(t, 3)
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run(s.String(), func(t *testing.T) {
			ctx := context.Background()
			// Several boards, so their hash tags land on different masters.
			for i := 0; i < 6; i++ {
				b := newBoard(t, cl.Client, cl.Prefix, s.String()+strconv.Itoa(i), testLayout(t), Options{Strategy: s, DenseRanks: true, Cap: 50})
				exerciseAll(t, ctx, b)
			}
		})
	}
}

// exerciseAll runs every operation once and checks the answers.
func exerciseAll(t *testing.T, ctx context.Context, b *Board) {
	t.Helper()
	var subs []Submission
	for i := 0; i < 60; i++ {
		subs = append(subs, Submission{ID: "id" + strconv.Itoa(i), Values: []float64{float64(i), 1, 0}, Data: []byte("d")})
	}
	for _, r := range b.SubmitMany(ctx, subs) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	mustSubmit(t, b, Submission{ID: "id59", Values: []float64{1, 0, 0}, Fields: []Policy{Add, Keep, Keep}})
	if _, err := b.Update(ctx, "id58", func(o *Entry) ([]float64, error) { return []float64{o.Values[0] + 10, 1, 0}, nil }); err != nil {
		t.Fatal(err)
	}
	if err := b.SetData(ctx, "id57", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if n, err := b.Remove(ctx, "id56"); err != nil || n != 1 {
		t.Fatalf("Remove = %d, %v", n, err)
	}
	top, err := b.Top(ctx, 3, WithData(), WithTotal())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"id58", "id59", "id57"}, idsOf(top)); diff != "" || top.Total != 49 {
		t.Errorf("top of %d (-want +got):\n%s", top.Total, diff)
	}
	for _, kind := range []RankKind{Ordinal, Competition, Dense} {
		if r, err := b.Rank(ctx, "id57", kind); err != nil || r != 3 {
			t.Errorf("Rank kind %d = %d, %v", kind, r, err)
		}
	}
	friends, err := b.Among(ctx, []string{"id57", "id1", "nobody"}, WithRanks(Competition, Dense), WithTotal())
	if err != nil || len(friends.Entries) != 1 || friends.Entries[0].Dense != 3 || friends.Total == 0 {
		t.Errorf("Among = %+v, %v", friends, err)
	}
	checks := []error{errOf(b.Page(ctx, 5, 5, WithRanks(Dense))), errOf(b.Around(ctx, "id30", 5)), errOf(b.Between(ctx, 20, 30, 0, 5)),
		errOf(b.Scan(ctx, "", 5)), errOf(b.Get(ctx, "id40", WithData())), errOf(b.Len(ctx)), b.Drop(ctx)}
	for i, err := range checks {
		if err != nil {
			t.Errorf("read %d: %v", i, err)
		}
	}
}

func TestPeriodWindows(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skipf("no tz database: %v", err) // the only skip: a machine without tzdata
	}
	at := time.Date(2026, 1, 1, 0, 30, 0, 0, time.UTC) // 01:30 in Berlin, ISO week 2026-W01
	for _, c := range []struct {
		p          Period
		label      string
		start, end time.Time
	}{
		{Daily(nil), "2026-01-01", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
		{Weekly(nil), "2026-W01", time.Date(2025, 12, 29, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)},
		{Monthly(nil), "2026-01", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)},
		{Daily(berlin), "2026-01-01", time.Date(2026, 1, 1, 0, 0, 0, 0, berlin), time.Date(2026, 1, 2, 0, 0, 0, 0, berlin)},
		{Daily(time.FixedZone("x", -3600)), "2025-12-31", time.Date(2025, 12, 31, 0, 0, 0, 0, time.FixedZone("x", -3600)), time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("x", -3600))},
		{Every(time.Hour), "3600000ms-490896", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)},
	} {
		w, err := c.p.Window(at)
		if err != nil || w.Label != c.label || !w.Start.Equal(c.start) || !w.End.Equal(c.end) {
			t.Errorf("%+v: %+v, %v; want %s [%v, %v)", c.p, w, err, c.label, c.start, c.end)
		}
	}
	for _, bad := range []Period{{}, Every(0), Every(time.Microsecond), Every(-time.Hour)} {
		if _, err := bad.Window(at); !errors.Is(err, ErrOptions) {
			t.Errorf("%+v.Window: err = %v, want ErrOptions", bad, err)
		}
	}
}

// Where daylight saving time skips midnight, the day still starts on its
// own date, and consecutive windows neither overlap nor leave a gap.
func TestPeriodDSTAtMidnight(t *testing.T) {
	for _, c := range []struct {
		zone    string
		y, m, d int
	}{{"America/Santiago", 2024, 9, 8}, {"Africa/Cairo", 2024, 4, 26}, {"America/Havana", 2024, 3, 10}} {
		loc, err := time.LoadLocation(c.zone)
		if err != nil {
			t.Skipf("no tz database: %v", err) // the only skip: a machine without tzdata
		}
		for _, p := range []Period{Daily(loc), Weekly(loc), Monthly(loc)} {
			at := time.Date(c.y, time.Month(c.m), c.d, 12, 0, 0, 0, loc)
			w, err := p.Window(at)
			if err != nil {
				t.Fatal(err)
			}
			before, _ := p.Window(w.Start.Add(-time.Nanosecond))
			last, _ := p.Window(w.End.Add(-time.Nanosecond))
			next, _ := p.Window(w.End)
			if !w.Start.After(before.Start) || before.End != w.Start || last != w || next.Start != w.End || before.Label == w.Label {
				t.Errorf("%s %+v around %v: before %+v, window %+v, next %+v", c.zone, p, at, before, w, next)
			}
			if w.Start.In(loc).Day() != map[bool]int{true: 1, false: w.Start.In(loc).Day()}[p.kind == 'm'] {
				t.Errorf("%s: window starts on %v", c.zone, w.Start)
			}
		}
		if w, _ := Daily(loc).Window(time.Date(c.y, time.Month(c.m), c.d, 12, 0, 0, 0, loc)); w.Start.In(loc).Day() != c.d {
			t.Errorf("%s: day %d starts at %v", c.zone, c.d, w.Start)
		}
	}
}

func TestPeriodicExpiry(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	p, err := NewPeriodic(env.Client, env.Prefix+"_daily", testLayout(t), Daily(nil), time.Hour, Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	b := p.At(now)
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{1, 1, 1}})
	w, _ := Daily(nil).Window(now)
	at, err := env.Client.Do(ctx, env.Client.B().Pexpiretime().Key(b.gen.Load().keys.z).Build()).AsInt64()
	if err != nil || at != w.End.Add(time.Hour).UnixMilli() {
		t.Errorf("PEXPIRETIME = %d, %v; want %d", at, err, w.End.Add(time.Hour).UnixMilli())
	}
	// A window past its retention refuses writes instead of storing data
	// that expires at once.
	old := p.At(now.AddDate(0, 0, -3))
	if _, err := old.Submit(ctx, Submission{ID: "a", Values: []float64{1, 1, 1}}); !errors.Is(err, errExpired) {
		t.Errorf("write to an expired window: err = %v, want errExpired", err)
	}
	if n, _ := old.Len(ctx); n != 0 {
		t.Errorf("expired window holds %d entries", n)
	}
	if other := p.At(now.AddDate(0, 0, -1)); other.Name() == b.Name() {
		t.Errorf("yesterday's board has today's name %s", b.Name())
	}
	for _, bad := range []Period{{}, Every(0), Every(time.Microsecond)} {
		if _, err := NewPeriodic(env.Client, "x", testLayout(t), bad, time.Hour, Options{}); !errors.Is(err, ErrOptions) {
			t.Errorf("period %+v: err = %v, want ErrOptions", bad, err)
		}
	}
	if _, err := NewPeriodic(env.Client, "x", testLayout(t), Daily(nil), -1, Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("negative retention: err = %v", err)
	}
}
