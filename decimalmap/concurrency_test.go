package decimalmap

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// consistency reads, in one script, the keys and the entries: the keys
// must be exactly those the entries hold values of.
var consistency = rueidis.NewLuaScriptReadOnly(`
return {redis.call('ZRANGE', KEYS[1], 0, -1), redis.call('ZRANGE', KEYS[2], 0, -1)}`)

// TestConcurrentConsistency: writers add values, remove values and remove
// keys on a few keys while readers range and check snapshots of the raw
// keys; no reader ever sees a key without values, or an index and lists
// that disagree.
func TestConcurrentConsistency(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "conc")
	ctx := context.Background()
	var done atomic.Bool
	keys := []string{"1", "1.5", "-2", "3E+40", "0.001"}
	var writers, readers sync.WaitGroup
	errs := make(chan error, 16)
	for w := range 4 {
		writers.Go(func() {
			for i := range 300 {
				k := keys[(i+w)%len(keys)]
				var err error
				switch i % 5 {
				case 0, 1:
					_, err = m.Add(ctx, k, "a", "b")
				case 2, 3:
					_, err = m.RemoveValue(ctx, k, "a")
					if err == nil {
						_, err = m.RemoveValue(ctx, k, "b")
					}
				default:
					_, err = m.Remove(ctx, k, keys[(i+w+1)%len(keys)])
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for range 3 {
		readers.Go(func() {
			for !done.Load() {
				if err := checkConsistent(ctx, m); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	writers.Wait()
	done.Store(true)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func checkConsistent(ctx context.Context, m *Map) error {
	entries, err := m.Range(ctx, Query{})
	if err != nil {
		return err
	}
	for _, e := range entries {
		if len(e.Values) == 0 {
			return fmt.Errorf("key %s without values", e.Key)
		}
	}
	arr, err := consistency.Exec(ctx, m.client, m.keys.all(), nil).ToArray()
	if err != nil {
		return err
	}
	index, _ := arr[0].AsStrSlice()
	members, _ := arr[1].AsStrSlice()
	var held []string
	for _, member := range members {
		enc, _, err := splitEntry(member, "")
		if err != nil {
			return err
		}
		if len(held) == 0 || held[len(held)-1] != enc {
			held = append(held, enc)
		}
	}
	if !slices.Equal(index, held) {
		return fmt.Errorf("the keys are %q, the entries hold values of %q", index, held)
	}
	return nil
}
