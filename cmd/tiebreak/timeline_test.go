package main

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// timelineCase is a timeline seeded with 30 messages, ten per
// millisecond from noon: message i at noon + i/10 ms.
type timelineCase[ID any] struct {
	layout   string
	l        layout[ID]
	strategy timeline.Strategy
	id       func(i int) ID
}

func testTimeline(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	t.Run("TSID LexID", func(t *testing.T) {
		checkTimeline(t, c, env, timelineCase[uint64]{"TSID", tsid.TSID, timeline.LexID, func(i int) uint64 { return tsidAt(t, i) }})
	})
	t.Run("ULID SplitScore", func(t *testing.T) {
		checkTimeline(t, c, env, timelineCase[[16]byte]{"ULID", tsid.ULID, timeline.SplitScore, ulidAt})
	})
	t.Run("table", func(t *testing.T) {
		room := env.Prefix + "_table"
		ids := seedTimeline(t, context.Background(), env.Client, room, tsid.TSID, timeline.LexID, 30, func(i int) uint64 { return tsidAt(t, i) })
		f := tsid.TSID.Format
		want := "ID             TIME                      PAYLOAD\n" +
			f(ids[29]) + "  2026-11-23T12:00:00.002Z  message 29\n" +
			f(ids[28]) + "  2026-11-23T12:00:00.002Z  message 28\n" +
			"\nolder messages follow: tiebreak timeline before " + room + " " + f(ids[28]) + " --layout TSID -n 2\n"
		if diff := cmp.Diff(want, c.ok("timeline", "latest", room, "--layout", "TSID", "-n", "2")); diff != "" {
			t.Errorf("timeline latest (-want +got):\n%s", diff)
		}
		want = "ID               TIME                      PAYLOAD\n" +
			f(ids[0]) + " *  2026-11-23T12:00:00.000Z  message 0\n" +
			f(ids[1]) + "    2026-11-23T12:00:00.000Z  message 1\n" +
			"\n* the anchor's own message, when stored\n" +
			"newer: tiebreak timeline after " + room + " " + f(ids[1]) + " --layout TSID -n 2\n"
		if diff := cmp.Diff(want, c.ok("timeline", "around", room, f(ids[0]), "--layout", "tsid", "-n", "2")); diff != "" {
			t.Errorf("timeline around (-want +got):\n%s", diff)
		}
	})
}

// checkTimeline compares every read of the command with the package's.
func checkTimeline[ID any](t *testing.T, c *cli, env *redistest.Env, tc timelineCase[ID]) {
	ctx := context.Background()
	room := env.Prefix + "_" + tc.layout
	ids := seedTimeline(t, ctx, env.Client, room, tc.l, tc.strategy, 30, tc.id)
	tl, err := timeline.New(env.Client, room, tc.l, timeline.Options{Strategy: tc.strategy})
	if err != nil {
		t.Fatal(err)
	}
	// want returns messages i... as the command prints them; the times are
	// those the messages were made at.
	want := func(idx ...int) []messageOut {
		out := []messageOut{}
		for _, i := range idx {
			text := "message " + itoa(int64(i))
			out = append(out, messageOut{ID: tc.l.Format(ids[i]), Time: stamp(noon.Add(time.Duration(i/10) * time.Millisecond)), Payload: &blob{Text: &text}})
		}
		return out
	}
	yes, no := true, false
	base := pageOut{Room: room, Layout: tc.layout, Strategy: tc.strategy.String()}
	page := func(msgs []messageOut, more *bool, next string) pageOut {
		p := base
		p.Messages, p.HasMore, p.Next = msgs, more, next
		return p
	}
	f := tc.l.Format
	for _, q := range []struct {
		args []string
		want pageOut
	}{
		{[]string{"latest", room, "-n", "3"}, page(want(29, 28, 27), &yes, f(ids[27]))},
		{[]string{"oldest", room, "-n", "2"}, page(want(0, 1), &yes, f(ids[1]))},
		{[]string{"before", room, f(ids[12]), "-n", "4"}, page(want(11, 10, 9, 8), &yes, f(ids[8]))},
		{[]string{"before", room, f(ids[2]), "-n", "4"}, page(want(1, 0), &no, f(ids[0]))},
		{[]string{"after", room, f(ids[9]), "-n", "3"}, page(want(10, 11, 12), &yes, f(ids[12]))},
		{[]string{"after", room, f(ids[27]), "-n", "5"}, page(want(28, 29), &no, f(ids[29]))},
	} {
		var got pageOut
		c.json(&got, append([]string{"timeline"}, append(q.args, "--layout", tc.layout)...)...)
		if diff := cmp.Diff(q.want, got); diff != "" {
			t.Errorf("timeline %v (-want +got):\n%s", q.args, diff)
		}
	}
	var around pageOut
	c.json(&around, "timeline", "around", room, f(ids[15]), "--layout", tc.layout, "-n", "4")
	w, err := tl.Around(ctx, ids[15], 4)
	if err != nil {
		t.Fatal(err)
	}
	wantAround := base
	wantAround.Messages = want(14, 15, 16, 17)
	wantAround.Messages[1].Anchor = true
	wantAround.HasOlder, wantAround.HasNewer, wantAround.Older, wantAround.Newer = &w.HasOlder, &w.HasNewer, f(w.Older), f(w.Newer)
	if diff := cmp.Diff(wantAround, around); diff != "" {
		t.Errorf("timeline around (-want +got):\n%s", diff)
	}
	var got messageOut
	c.json(&got, "timeline", "get", room, f(ids[21]), "--layout", tc.layout)
	if diff := cmp.Diff(want(21)[0], got); diff != "" {
		t.Errorf("timeline get (-want +got):\n%s", diff)
	}
	// Every message once, paging with the printed cursors.
	var seen []string
	for cursor := f(ids[29]); ; {
		var p pageOut
		c.json(&p, "timeline", "before", room, cursor, "--layout", tc.layout, "-n", "7")
		for _, m := range p.Messages {
			seen = append(seen, m.ID)
		}
		if !*p.HasMore {
			break
		}
		cursor = p.Next
	}
	var wantSeen []string
	for i := 28; i >= 0; i-- {
		wantSeen = append(wantSeen, f(ids[i]))
	}
	if diff := cmp.Diff(wantSeen, seen); diff != "" {
		t.Errorf("paging with before (-want +got):\n%s", diff)
	}
}
