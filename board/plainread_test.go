package board

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// TestReadsUnderWrites reads Around, Get and Rank with no option (the
// bare commands, after the id lookup's HGET on a key-suffix board of more
// than one field) while writers keep moving every entry, and its member
// too where the member holds fields. Each Around must be a window of one
// moment, so it holds the id, as central as the top allows, ranks
// consecutive and entries in board order: a window read after a write
// moved the id would miss it or hold it off centre. Get and Rank must
// find every id, each always on the board: a member gone since the
// lookup gave it means "read again", not "absent".
func TestReadsUnderWrites(t *testing.T) {
	env := redistest.New(t)
	one, err := pack.NewLayout(pack.Field{Name: "points", Width: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		l    *pack.Layout
		o    Options
	}{
		{"packed", testLayout(t), Options{}},
		{"suffix one field", one, Options{Strategy: KeySuffix}}, // its member is the id
		{"suffix", testLayout(t), Options{Strategy: KeySuffix}},
	} {
		t.Run(c.name, func(t *testing.T) { readsUnderWrites(t, env, c.l, c.o) })
	}
}

// readsUnderWrites is TestReadsUnderWrites on a board of layout l and
// options o.
func readsUnderWrites(t *testing.T, env *redistest.Env, l *pack.Layout, o Options) {
	ctx := context.Background()
	b := newBoard(t, env.Client, env.Prefix, fmt.Sprintf("churn%v%d", o.Strategy, l.Len()), l, o)
	const ids, n = 60, 7
	values := func(r *rand.Rand) []float64 {
		v := make([]float64, l.Len())
		v[0] = float64(r.IntN(40))
		if len(v) > 1 {
			v[1] = float64(r.IntN(2)) // a key-suffix member's prefix changes
		}
		return v
	}
	seed := rand.New(rand.NewPCG(1, 2))
	for i := range ids {
		mustSubmit(t, b, Submission{ID: fmt.Sprint(i), Values: values(seed)})
	}
	// An id never written: ErrNotFound, and a rank of 0, on every path.
	if r, err := b.Rank(ctx, "absent", Ordinal); r != 0 || !errors.Is(err, ErrNotFound) {
		t.Errorf("Rank(absent) = %d, %v; want 0, ErrNotFound", r, err)
	}
	if e, err := b.Get(ctx, "absent"); e.ID != "" || !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(absent) = %+v, %v; want ErrNotFound", e, err)
	}
	if l, err := b.Around(ctx, "absent", n); len(l.Entries) != 0 || !errors.Is(err, ErrNotFound) {
		t.Errorf("Around(absent) = %+v, %v; want ErrNotFound", l, err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := b.Submit(ctx, Submission{ID: fmt.Sprint(r.IntN(ids)), Values: values(r)}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		id := fmt.Sprint(r.IntN(ids))
		got, err := b.Around(ctx, id, n)
		if err != nil {
			t.Fatal(err)
		}
		if msg := aroundWindowDefect(got, id, n); msg != "" {
			t.Fatalf("Around(%s, %d) = %+v: %s", id, n, got.Entries, msg)
		}
		if e, err := b.Get(ctx, id); err != nil || e.ID != id {
			t.Fatalf("Get(%s) = %+v, %v", id, e, err)
		}
		if _, err := b.Rank(ctx, id, Ordinal); err != nil {
			t.Fatalf("Rank(%s) = %v", id, err)
		}
	}
}

// aroundWindowDefect says what makes l no answer of Around(id, n) at any
// moment ("" when it could be one).
func aroundWindowDefect(l List, id string, n int) string {
	at := -1
	for i, e := range l.Entries {
		if e.ID == id {
			at = i
		}
		if i > 0 && e.Rank != l.Entries[i-1].Rank+1 {
			return "ranks not consecutive"
		}
		if i > 0 && compareValues(l.Entries[i-1].Values, e.Values) < 0 {
			return "entries out of order"
		}
	}
	switch {
	case at < 0:
		return "the id is missing"
	case len(l.Entries) > n:
		return "too many entries"
	case at < (n-1)/2 && l.Entries[0].Rank != 1:
		return "the id is above the centre, away from the top"
	case at > (n-1)/2 && len(l.Entries) < n:
		return "the id is below the centre of a window not full"
	}
	return ""
}

// compareValues orders two entries' values of the test layouts by their
// first field, the one the test varies (higher first).
func compareValues(a, b []float64) int {
	switch {
	case a[0] > b[0]:
		return 1
	case a[0] < b[0]:
		return -1
	}
	return 0
}
