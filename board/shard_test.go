package board

import (
	"context"
	"fmt"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// label names a board in failures: its strategy and, sharded, its shards.
func label(b anyBoard) string {
	if s, ok := b.(*Sharded); ok {
		return fmt.Sprintf("%v over %d shards", s.Strategy(), s.Shards())
	}
	return b.Strategy().String()
}

// newSharded builds a sharded board with a name unique to the test.
func newSharded(t testing.TB, client rueidis.Client, prefix, suffix string, l *pack.Layout, o ShardedOptions) *Sharded {
	t.Helper()
	sb, err := NewSharded(t.Context(), client, prefix+"_"+suffix, l, o)
	if err != nil {
		t.Fatalf("NewSharded: %v", err)
	}
	return sb
}

// withSharded adds to w a sharded board of each strategy over each of
// shards, with options o.
func (w *workload) withSharded(o ShardedOptions, shards ...int) *workload {
	w.t.Helper()
	env := redistest.New(w.t)
	for _, n := range shards {
		for _, s := range []Strategy{PackedScore, KeySuffix} {
			o.Strategy, o.Shards = s, n
			w.all = append(w.all, newSharded(w.t, env.Client, env.Prefix, fmt.Sprintf("%v_%d", s, n), w.model.layout, o))
		}
	}
	return w
}

// A random workload with many ties through boards and boards sharded over
// 1, 3 and 8 shards, every answer compared with the model's: the sharded
// boards answer what the board answers.
func TestShardedDifferential(t *testing.T) {
	newWorkload(t, testLayout(t), Options{}).withSharded(ShardedOptions{}, 1, 3, 8).run(2000, false)
}

var _ = context.Background
