package decimalmap

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// FuzzKey: any text is either refused with ErrKey (as pack refuses it, or
// as too long), writing nothing, or becomes exactly one key, found again
// by its canonical text and removed by its own spelling.
func FuzzKey(f *testing.F) {
	for _, k := range keyPool {
		f.Add(k)
	}
	for _, bk := range badKeys {
		f.Add(bk.key)
	}
	env := redistest.New(f)
	m := newMap(f, env.Client, env.Prefix, "fuzz")
	f.Fuzz(func(t *testing.T, key string) {
		ctx := context.Background()
		_, err := m.Add(ctx, key, "v")
		canon, perr := pack.CanonicalDecimal(key)
		if err != nil {
			if (perr == nil && len(key) <= DefaultMaxKeyLen) || !errors.Is(err, ErrKey) {
				t.Fatalf("Add(%q) err = %v; pack says %v", key, err, perr)
			}
			if n, err := m.Len(ctx); err != nil || n != 0 {
				t.Fatalf("refused Add(%q) left %d keys, %v", key, n, err)
			}
			return
		}
		got, err := m.Range(ctx, Query{Min: Inclusive(canon), Max: Inclusive(canon)})
		if diff := cmp.Diff([]Entry{{Key: canon, Values: []string{"v"}}}, got); err != nil || diff != "" {
			t.Fatalf("Add(%q): range at %q: err %v (-want +got):\n%s", key, canon, err, diff)
		}
		if n, err := m.Remove(ctx, key); err != nil || n != 1 {
			t.Fatalf("Remove(%q) = %d, %v; want 1", key, n, err)
		}
	})
}
