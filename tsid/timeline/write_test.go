package timeline

import (
	"context"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

// AppendMany's chunks hold at most chunkMessages messages and chunkBytes
// of payload, and at least one message.
func TestChunkEnd(t *testing.T) {
	sized := func(sizes ...int) []Message[uint64] {
		msgs := make([]Message[uint64], len(sizes))
		for i, n := range sizes {
			msgs[i].Payload = make([]byte, n)
		}
		return msgs
	}
	ends := func(msgs []Message[uint64]) []int {
		var out []int
		for start := 0; start < len(msgs); start = chunkEnd(msgs, start) {
			out = append(out, chunkEnd(msgs, start))
		}
		return out
	}
	many := make([]int, 2*chunkMessages+1)
	for i := range many {
		many[i] = 1
	}
	half := chunkBytes / 2
	got := [][]int{ends(sized(many...)), ends(sized(half, half, 1)), ends(sized(half, half+1, half)), ends(sized(chunkBytes, 1))}
	want := [][]int{{chunkMessages, 2 * chunkMessages, 2*chunkMessages + 1}, {2, 3}, {1, 2, 3}, {1, 2}}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("chunk ends (-want +got):\n%s", diff)
	}
}

// The retention removes at most MaxTrim messages per script: a backlog of
// 2.5 MaxTrim messages over MaxLen goes in three Trims (or appends), the
// oldest first, and then the timeline holds the MaxLen newest.
func TestTrimIsBounded(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		room := env.Prefix + "_trim"
		msgs := make([]Message[uint64], 5*MaxTrim/2+10)
		for i := range msgs {
			msgs[i] = Message[uint64]{ID: uint64(1000+i) << 22, Payload: []byte("x")}
		}
		mustAppend(t, newTL(t, env.Client, room, tsid.TSID, Options{Strategy: s}), msgs...)
		tl := newTL(t, env.Client, room, tsid.TSID, Options{Strategy: s, MaxLen: 10})
		var got []int64
		for range 4 {
			n, err := tl.Trim(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, n)
		}
		p, err := tl.Oldest(ctx, 20)
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff([]int64{MaxTrim, MaxTrim, MaxTrim / 2, 0}, got); diff != "" {
			t.Errorf("Trim of a backlog of 2.5 MaxTrim (-want +got):\n%s", diff)
		}
		if diff := gocmp.Diff(idsOf(msgs[5*MaxTrim/2:]), idsOf(p.Messages)); diff != "" {
			t.Errorf("what is left (-want +got):\n%s", diff)
		}
	})
}
