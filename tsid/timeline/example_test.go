package timeline_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/redis/rueidis"
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

// The chat paging example: ten messages whose TSIDs collapse into one
// float64 score. With the cursor on the oldest, there is nothing before
// it; on the newest, the nine others, in exact order.
func ExampleTimeline() {
	ctx := context.Background()
	tl := exampleTimeline("paging", timeline.Options{})
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
	tl := exampleTimeline("back", timeline.Options{Strategy: timeline.SplitScore})
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

// Around a message: four messages in all, the anchor's own among them, as
// central as the edges allow; near an end, the other side fills the
// window.
func ExampleTimeline_Around() {
	ctx := context.Background()
	tl := exampleTimeline("around", timeline.Options{})
	defer tl.Drop(ctx)

	for i := uint64(1); i <= 9; i++ {
		if err := tl.Append(ctx, 9153062458<<22|i, fmt.Appendf(nil, "m%d", i)); err != nil {
			panic(err)
		}
	}
	for _, anchor := range []uint64{5, 1} {
		w, err := tl.Around(ctx, 9153062458<<22|anchor, 4)
		if err != nil {
			panic(err)
		}
		for _, m := range w.Messages {
			fmt.Printf("%s ", m.Payload)
		}
		fmt.Println("| older:", w.HasOlder, "newer:", w.HasNewer)
	}
	// Output:
	// m4 m5 m6 m7 | older: true newer: true
	// m1 m2 m3 m4 | older: false newer: true
}

// Reading a room from its start, oldest first: Oldest, then After from
// each page's Next.
func ExampleTimeline_Oldest() {
	ctx := context.Background()
	tl := exampleTimeline("oldest", timeline.Options{})
	defer tl.Drop(ctx)

	for i := uint64(1); i <= 5; i++ {
		if err := tl.Append(ctx, 9153062458<<22|i, fmt.Appendf(nil, "m%d", i)); err != nil {
			panic(err)
		}
	}
	p, err := tl.Oldest(ctx, 2)
	for ; err == nil; p, err = tl.After(ctx, p.Next, 2) {
		for _, m := range p.Messages {
			fmt.Printf("%s ", m.Payload)
		}
		fmt.Println("| more:", p.HasMore)
		if !p.HasMore {
			break
		}
	}
	// Output:
	// m1 m2 | more: true
	// m3 m4 | more: true
	// m5 | more: false
}

// Remove takes the IDs of the messages to remove, stored or not, and says
// how many it removed; a bad argument changes nothing.
func ExampleTimeline_Remove() {
	ctx := context.Background()
	tl := exampleTimeline("remove", timeline.Options{})
	defer tl.Drop(ctx)

	for i := uint64(1); i <= 5; i++ {
		if err := tl.Append(ctx, 9153062458<<22|i, fmt.Appendf(nil, "m%d", i)); err != nil {
			panic(err)
		}
	}
	n, err := tl.Remove(ctx, 9153062458<<22|2, 9153062458<<22|4, 9153062458<<22|9)
	fmt.Println(n, err)
	_, err = tl.Remove(ctx)
	fmt.Println(errors.Is(err, timeline.ErrArgument))
	left, _ := tl.Len(ctx)
	fmt.Println(left)
	// Output:
	// 2 <nil>
	// true
	// 3
}

// A timeline in a program of your own: build a client for the server
// REDIS_URL names (redis://localhost:6379 when it is unset), a generator
// for the IDs, then the timeline of a room. Every handle to one room uses
// the same codec and strategy.
func Example_ownClient() {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://localhost:6379"
	}
	opt, err := rueidis.ParseURL(url)
	if err != nil {
		log.Fatal(err)
	}
	client, err := rueidis.NewClient(opt)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	gen, err := tsid.NewGenerator(tsid.GeneratorOptions{Node: 1})
	if err != nil {
		log.Fatal(err)
	}
	tl, err := timeline.New(client, "general", tsid.TSID, timeline.Options{MaxLen: 10000})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	id, err := gen.Next()
	if err != nil {
		log.Fatal(err)
	}
	if err := tl.Append(ctx, id, []byte(`{"from":"ann","text":"hello"}`)); err != nil {
		log.Fatal(err)
	}
	page, err := tl.Latest(ctx, 50)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range page.Messages {
		fmt.Println(tsid.TSID.Format(m.ID), string(m.Payload))
	}
}
