package timeline_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/tiebreak/tiebreak/internal/benchload"
	"github.com/tiebreak/tiebreak/internal/benchload/gobench"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// BenchmarkBefore is the bench command's timeline workload: 50 messages
// before a random cursor of 20,000, in both strategies, against XREVRANGE
// key (id - COUNT 50 on a Stream holding the same messages, decoded with
// AsXRange as a caller would (xrevrange) and not decoded (xrevrange-raw).
// The timelines report x-xrevrange, XREVRANGE's ns/op over theirs.
func BenchmarkBefore(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "timeline")
	gobench.Run(b, env, gobench.Comparison(b, f, "before50"))
}

// BenchmarkAppend appends new messages one at a time, in both strategies,
// against XADD of the same payload to a Stream; the timelines report
// x-xadd, XADD's ns/op over theirs.
func BenchmarkAppend(b *testing.B) {
	env := redistest.New(b)
	ctx := context.Background()
	payload := []byte(`{"user":"u1","text":"message of the benchmark room, about a hundred bytes long......"}`)
	stream := "{" + env.Prefix + "_stream}:s"
	c := benchload.Comparison{Name: "append", Baseline: "xadd", Variants: []benchload.Variant{{
		Name: "xadd", Commands: []string{"xadd"}, Op: func(ctx context.Context) error {
			return env.Client.Do(ctx, env.Client.B().Xadd().Key(stream).Id("*").FieldValue().FieldValue("p", string(payload)).Build()).Error()
		}}}}
	for _, s := range []timeline.Strategy{timeline.SplitScore, timeline.LexID} {
		tl, err := timeline.New(env.Client, env.Prefix+"_append_"+s.String(), tsid.TSID, timeline.Options{Strategy: s})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { tl.Drop(context.WithoutCancel(ctx)) })
		var seq atomic.Uint64
		base := uint64(9153062458) << 22
		c.Variants = append(c.Variants, benchload.Variant{Name: s.String(), Commands: []string{"evalsha"}, Op: func(ctx context.Context) error {
			return tl.Append(ctx, base+seq.Add(1)*977, payload) // a few per millisecond
		}})
	}
	gobench.Run(b, env, c)
}
