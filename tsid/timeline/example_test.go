package timeline_test

import (
	"context"
	"fmt"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// exampleTimeline gives an example a fresh room on the tests' Redis; the
// caller drops it.
func exampleTimeline(room string, o timeline.Options) *timeline.Timeline[uint64] {
	env, err := redistest.Shared()
	if err != nil {
		panic(err)
	}
	tl, err := timeline.New(env.Client, env.Prefix+"_"+room, tsid.TSID, o)
	if err != nil {
		panic(err)
	}
	return tl
}

// Seed 004: ten messages whose TSIDs collapse into one float64 score. With
// the cursor on the oldest, there is nothing before it; on the newest, the
// nine others.
func ExampleTimeline() {
	ctx := context.Background()
	tl := exampleTimeline("seed004", timeline.Options{})
	defer tl.Drop(ctx)

	const first = 640436544564866084
	for i := uint64(0); i < 10; i++ {
		if err := tl.Append(ctx, first+i, fmt.Appendf(nil, `{"n":%d}`, i)); err != nil {
			panic(err)
		}
	}
	p, _ := tl.Before(ctx, first, 30)
	fmt.Println(len(p.Messages), p.HasMore)
	p, _ = tl.Before(ctx, first+9, 30)
	fmt.Println(len(p.Messages), p.HasMore)
	fmt.Println(tsid.TSID.Format(p.Messages[0].ID), string(p.Messages[0].Payload))
	// Output:
	// 0 false
	// 9 false
	// 0HRT9MKHZFB1C {"n":8}
}

// Paging back through a room, newest first, three messages a page.
func ExampleTimeline_Before() {
	ctx := context.Background()
	tl := exampleTimeline("paging", timeline.Options{Strategy: timeline.SplitScore})
	defer tl.Drop(ctx)

	var msgs []timeline.Message[uint64]
	for i := uint64(1); i <= 7; i++ {
		msgs = append(msgs, timeline.Message[uint64]{ID: 9153062458<<22 | i, Payload: fmt.Appendf(nil, "m%d", i)})
	}
	if err := tl.AppendMany(ctx, msgs); err != nil {
		panic(err)
	}
	p, err := tl.Latest(ctx, 3)
	for ; err == nil; p, err = tl.Before(ctx, p.Next, 3) {
		for _, m := range p.Messages {
			fmt.Printf("%s ", m.Payload)
		}
		fmt.Println("| more:", p.HasMore)
		if !p.HasMore {
			break
		}
	}
	// Output:
	// m7 m6 m5 | more: true
	// m4 m3 m2 | more: true
	// m1 | more: false
}

// Around a message: the cursor's own message is left out; Get reads it.
func ExampleTimeline_Around() {
	ctx := context.Background()
	tl := exampleTimeline("around", timeline.Options{})
	defer tl.Drop(ctx)

	for i := uint64(1); i <= 9; i++ {
		if err := tl.Append(ctx, 9153062458<<22|i, fmt.Appendf(nil, "m%d", i)); err != nil {
			panic(err)
		}
	}
	w, _ := tl.Around(ctx, 9153062458<<22|5, 4)
	for _, m := range w.Messages {
		fmt.Printf("%s ", m.Payload)
	}
	fmt.Println(w.HasOlder, w.HasNewer)
	m, _ := tl.Get(ctx, 9153062458<<22|5)
	fmt.Println(string(m.Payload))
	// Output:
	// m3 m4 m6 m7 true true
	// m5
}
