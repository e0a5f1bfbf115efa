package decimalmap

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// fullKeys adds n keys "1" .. "n" holding MaxValues values each.
func fullKeys(t *testing.T, m *Map, n int) {
	t.Helper()
	vals := make([]string, MaxValues)
	for i := range vals {
		vals[i] = "v" + strconv.Itoa(i)
	}
	for k := 1; k <= n; k++ {
		for i := 0; i < MaxValues; i += MaxAddValues {
			if _, err := m.Add(context.Background(), strconv.Itoa(k), vals[i:i+MaxAddValues]...); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Every call over a bound is refused with ErrArgument, naming the bound,
// and changes nothing.
func TestBoundsRefused(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "bounds")
	ctx := context.Background()
	fullKeys(t, m, MaxCallValues/MaxValues+1)
	before := snapshot(t, env.Client, m.Name())
	keys := make([]string, MaxCallValues/MaxValues+1)
	for i := range keys {
		keys[i] = strconv.Itoa(i + 1)
	}
	for _, c := range []struct {
		name, says string
		err        error
	}{
		{"Add of too many values", "[1, 100]", errOf(m.Add(ctx, "0.5", make([]string, MaxAddValues+1)...))},
		{"Add of a long value", "values[1] of 257 bytes, over MaxValueLen = 256", errOf(m.Add(ctx, "0.5", "v", strings.Repeat("x", MaxValueLen+1)))},
		{"Add to a full key", "holds 1000 values: 1 more would take it past MaxValues = 1000", errOf(m.Add(ctx, "1", "v"))},
		{"RemoveValue of a long value", "over MaxValueLen", errOf(m.RemoveValue(ctx, "1", strings.Repeat("x", MaxValueLen+1)))},
		{"Remove of keys holding too many values", fmt.Sprintf("hold %d values, over MaxCallValues = %d", len(keys)*MaxValues, MaxCallValues), errOf(m.Remove(ctx, keys...))},
		{"Range of too many values", fmt.Sprintf("more than MaxCallValues = %d values", MaxCallValues), errOf(m.Range(ctx, Query{}))},
		{"Range with a limit over the values", "more than MaxCallValues", errOf(m.Range(ctx, Query{Reverse: true, Limit: len(keys)}))},
	} {
		if !errors.Is(c.err, ErrArgument) || !strings.Contains(c.err.Error(), c.says) {
			t.Errorf("%s: err = %v; want ErrArgument saying %q", c.name, c.err, c.says)
		}
		checkErrorText(t, c.err)
	}
	if diff := cmp.Diff(before, snapshot(t, env.Client, m.Name())); diff != "" {
		t.Errorf("Redis changed (-before +after):\n%.2000s", diff)
	}
}

// At the bounds the calls go through: a Range of MaxCallValues values, a
// Scan whose pages end before MaxCallValues values (with HasMore), a
// Remove of MaxCallValues values.
func TestBoundsReached(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "reached")
	ctx := context.Background()
	fullKeys(t, m, MaxCallValues/MaxValues+1)
	var got []any
	r, err := m.Range(ctx, Query{Reverse: true, Limit: MaxCallValues / MaxValues})
	got = append(got, len(r), err)
	var pages []int
	for cur := Cursor(""); ; {
		p, err := m.Scan(ctx, cur, 1000)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, len(p.Entries))
		if !p.HasMore {
			break
		}
		cur = p.Next
	}
	got = append(got, pages)
	keys := make([]string, MaxCallValues/MaxValues)
	for i := range keys {
		keys[i] = strconv.Itoa(i + 1)
	}
	n, err := m.Remove(ctx, keys...)
	got = append(got, n, err)
	k := MaxCallValues / MaxValues
	want := []any{k, nil, []int{k, 1}, int64(k), nil}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("Range, Scan pages, Remove at the bounds (-want +got):\n%s", diff)
	}
}
