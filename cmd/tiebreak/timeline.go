package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/clip"

	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// layouts are the tsid layouts --layout names. A timeline does not store
// its layout: the IDs' time part and suffix are hex digits whose meaning
// only the layout gives.
var layouts = map[string]any{
	"TSID": tsid.TSID, "Snowflake": tsid.Snowflake, "Discord": tsid.Discord, "Sonyflake": tsid.Sonyflake,
	"ULID": tsid.ULID, "UUIDv7": tsid.UUIDv7,
}

var layoutNames = []string{"TSID", "Snowflake", "Discord", "Sonyflake", "ULID", "UUIDv7"}

// timelineQuery is one timeline read.
type timelineQuery struct {
	op, room, id string
	layout       string
	strategy     string
	n            int
}

func timelineCommands() []*command {
	ops := []struct{ op, help string }{
		{"latest", "the newest messages of a timeline, newest first"},
		{"oldest", "the oldest messages of a timeline, oldest first"},
		{"before", "the messages just older than an ID, newest first"},
		{"after", "the messages just newer than an ID, oldest first"},
		{"around", "n messages around an ID, oldest first"},
		{"get", "one message"},
	}
	var out []*command
	for _, o := range ops {
		args := []string{"ROOM", "ID"}
		if o.op == "latest" || o.op == "oldest" {
			args = args[:1]
		}
		out = append(out, &command{name: "timeline " + o.op, args: args, help: o.help,
			setup: func(fs *flag.FlagSet) runFunc {
				q := timelineQuery{op: o.op}
				fs.StringVar(&q.layout, "layout", "", "the IDs' tsid `layout`, required (timelines do not store it): "+strings.Join(layoutNames, ", "))
				fs.StringVar(&q.strategy, "strategy", "auto", "the timeline's `strategy`: LexID, SplitScore, or auto (told by its scores)")
				if o.op != "get" {
					fs.IntVar(&q.n, "n", 20, fmt.Sprintf("how many messages (1 to %d)", timeline.MaxPageLimit))
				}
				return func(ctx context.Context, e *env, a []string) error {
					q.room = a[0]
					if len(a) > 1 {
						q.id = a[1]
					}
					return readTimeline(ctx, e, q)
				}
			}})
	}
	return out
}

// checkLayout refuses a missing or unknown --layout, and spells q's
// layout as layoutNames does.
func (q *timelineQuery) checkLayout() error {
	if q.layout == "" {
		return usagef("--layout is required: a timeline does not store the layout of its IDs; one of %s", strings.Join(layoutNames, ", "))
	}
	i := slices.IndexFunc(layoutNames, func(s string) bool { return strings.EqualFold(s, q.layout) })
	if i < 0 {
		return usagef("--layout %q, want one of %s", q.layout, strings.Join(layoutNames, ", "))
	}
	q.layout = layoutNames[i]
	return nil
}

// readTimeline checks q and runs it with q's layout.
func readTimeline(ctx context.Context, e *env, q timelineQuery) error {
	if err := q.checkLayout(); err != nil {
		return err
	}
	if q.op != "get" && (q.n < 1 || q.n > timeline.MaxPageLimit) {
		return usagef("-n %d out of range [1, %d]", q.n, timeline.MaxPageLimit)
	}
	switch l := layouts[q.layout].(type) {
	case *tsid.Layout:
		return readWith(ctx, e, q, l)
	case *tsid.Layout128:
		return readWith(ctx, e, q, l)
	}
	return fmt.Errorf("layout %s is of no known type", q.layout)
}

// layout is what the command needs of a tsid layout: a timeline codec
// that reads and writes IDs as text.
type layout[ID any] interface {
	timeline.Codec[ID]
	Parse(s string) (ID, error)
	Format(id ID) string
}

// messageOut is a message in JSON.
type messageOut struct {
	ID      string `json:"id"`
	Time    string `json:"time"`
	Payload *blob  `json:"payload"`
	Anchor  bool   `json:"anchor,omitempty"`
}

// pageOut is a timeline read in JSON.
type pageOut struct {
	Room     string       `json:"room"`
	Layout   string       `json:"layout"`
	Strategy string       `json:"strategy"`
	Messages []messageOut `json:"messages"`
	// Latest, Oldest, Before, After.
	HasMore *bool  `json:"hasMore,omitempty"`
	Next    string `json:"next,omitempty"`
	// Around.
	HasOlder *bool  `json:"hasOlder,omitempty"`
	HasNewer *bool  `json:"hasNewer,omitempty"`
	Older    string `json:"older,omitempty"`
	Newer    string `json:"newer,omitempty"`
}

// readWith runs q on a timeline of IDs of layout l.
func readWith[ID any](ctx context.Context, e *env, q timelineQuery, l layout[ID]) error {
	var id ID
	switch {
	case q.id != "":
		var err error
		if id, err = l.Parse(q.id); err != nil {
			return usagef("ID %q is not a %s ID: %v", q.id, q.layout, err)
		}
	case q.op == "get" || q.op == "around" || q.op == "before" || q.op == "after":
		return usagef("timeline %s: the ID is empty: give one (the zero ID is %s; timeline oldest and latest read from either end)", q.op, l.Format(id))
	}
	tl, err := openTimeline(ctx, e, q, l)
	if err != nil {
		return err
	}
	out := pageOut{Room: q.room, Layout: q.layout, Strategy: tl.Strategy().String()}
	t := &table{header: []string{"ID", "TIME", "PAYLOAD"}}
	switch q.op {
	case "get":
		m, err := tl.Get(ctx, id)
		if errors.Is(err, timeline.ErrNotFound) {
			return fmt.Errorf("no message %s in timeline %q (not found)", q.id, q.room)
		}
		if err != nil {
			return layoutHint(err, q)
		}
		addMessages(t, &out, l, []timeline.Message[ID]{m}, nil)
		return e.out.emit(out.Messages[0], t)
	case "around":
		w, err := tl.Around(ctx, id, q.n)
		if err != nil {
			return layoutHint(err, q)
		}
		addMessages(t, &out, l, w.Messages, func(m ID) bool { return l.Format(m) == l.Format(id) })
		aroundNotes(t, &out, q, l, w)
		return e.out.emit(out, t)
	}
	p, err := readPage(ctx, tl, q.op, id, q.n)
	if err != nil {
		return layoutHint(err, q)
	}
	addMessages(t, &out, l, p.Messages, nil)
	pageNotes(t, &out, q, l, p)
	return e.out.emit(out, t)
}

// openTimeline checks that the room's timeline exists and holds IDs of
// layout l, and returns a handle with its strategy.
func openTimeline[ID any](ctx context.Context, e *env, q timelineQuery, l layout[ID]) (*timeline.Timeline[ID], error) {
	if err := checkObject(ctx, e, kindTimeline, q.room, defaultLimiterPrefix); err != nil {
		return nil, err
	}
	key := timelineKey(q.room)
	zs, err := e.client.Do(ctx, e.client.B().Zrange().Key(key).Min("-1").Max("-1").Withscores().Build()).AsZScores()
	if err != nil {
		return nil, fmt.Errorf("ZRANGE %s -1 -1 WITHSCORES: %w", key, err)
	}
	if len(zs) == 0 {
		return nil, fmt.Errorf("timeline %q has no messages (not found)", q.room)
	}
	s, err := timelineStrategy(q.strategy, zs[0].Score)
	if err != nil {
		return nil, err
	}
	if err := checkLayout(q, l, s, zs[0]); err != nil {
		return nil, err
	}
	return timeline.New(e.client, q.room, l, timeline.Options{Strategy: s, MaxPage: timeline.MaxPageLimit})
}

// timelineStrategy returns the strategy --strategy names or, for auto,
// the one the highest score shows: LexID stores every message with score
// 0, SplitScore with its time part (0 only at the layout's epoch).
func timelineStrategy(flag string, score float64) (timeline.Strategy, error) {
	switch strings.ToLower(flag) {
	case "lexid":
		return timeline.LexID, nil
	case "splitscore":
		return timeline.SplitScore, nil
	case "auto":
		if score != 0 {
			return timeline.SplitScore, nil
		}
		return timeline.LexID, nil
	}
	return 0, usagef("--strategy %q, want LexID, SplitScore or auto", flag)
}

// checkLayout tells, from the newest member, a timeline whose IDs are not
// of layout l, which would otherwise read as wrong IDs and times. A member
// starts with the ID as fixed-width lowercase hex: the time part then the
// suffix (LexID), or the suffix then the time part, which is also the
// score (SplitScore); see the timeline package's documentation.
func checkLayout[ID any](q timelineQuery, l layout[ID], s timeline.Strategy, z rueidis.ZScore) error {
	timeLen, sufLen := max(1, (bits.Len64(l.MaxTime())+3)/4), l.SuffixLen()
	m := z.Member
	ok := len(m) > timeLen+sufLen && isLowerHex(m[:timeLen+sufLen])
	if ok && s == timeline.SplitScore {
		t, err := strconv.ParseUint(m[sufLen:sufLen+timeLen], 16, 64)
		ok = err == nil && float64(t) == z.Score
	}
	if ok && s == timeline.LexID {
		ok = z.Score == 0
	}
	if !ok {
		return fmt.Errorf("timeline %q does not hold %s IDs stored as %s: its newest member %s (score %s) is not one; check --layout (and --strategy)",
			q.room, q.layout, s, clip.Quote(m), num(z.Score))
	}
	return nil
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// readPage runs a paging read.
func readPage[ID any](ctx context.Context, tl *timeline.Timeline[ID], op string, id ID, n int) (timeline.Page[ID], error) {
	switch op {
	case "latest":
		return tl.Latest(ctx, n)
	case "oldest":
		return tl.Oldest(ctx, n)
	case "before":
		return tl.Before(ctx, id, n)
	}
	return tl.After(ctx, id, n)
}

// layoutHint adds to a reply the codec could not read that the layout may
// be the wrong one.
func layoutHint(err error, q timelineQuery) error {
	if errors.Is(err, timeline.ErrReply) {
		return fmt.Errorf("%w (are the IDs of layout %s, as --layout says?)", err, q.layout)
	}
	return err
}

// addMessages adds messages to the table and the JSON; anchor, if not
// nil, marks the anchor's own message.
func addMessages[ID any](t *table, out *pageOut, l layout[ID], ms []timeline.Message[ID], anchor func(ID) bool) {
	out.Messages = []messageOut{}
	for _, m := range ms {
		o := messageOut{ID: l.Format(m.ID), Time: stamp(l.Time(m.ID)), Payload: blobOf(m.Payload)}
		id := o.ID
		if anchor != nil && anchor(m.ID) {
			o.Anchor, id = true, id+" *"
		}
		t.add(id, o.Time, text(m.Payload))
		out.Messages = append(out.Messages, o)
	}
}

// pageNotes says how to read on from a page.
func pageNotes[ID any](t *table, out *pageOut, q timelineQuery, l layout[ID], p timeline.Page[ID]) {
	out.HasMore = &p.HasMore
	if len(p.Messages) > 0 {
		out.Next = l.Format(p.Next)
	}
	dir, op := "older", "before"
	if q.op == "oldest" || q.op == "after" {
		dir, op = "newer", "after"
	}
	if !p.HasMore {
		t.note("no %s messages", dir)
		return
	}
	t.note("%s messages follow: %s", dir, commandLine("timeline "+op, []string{q.room, out.Next}, "--layout", q.layout, "-n", strconv.Itoa(q.n)))
}

// aroundNotes says what lies beyond a window.
func aroundNotes[ID any](t *table, out *pageOut, q timelineQuery, l layout[ID], w timeline.Window[ID]) {
	out.HasOlder, out.HasNewer = &w.HasOlder, &w.HasNewer
	if len(w.Messages) > 0 {
		out.Older, out.Newer = l.Format(w.Older), l.Format(w.Newer)
	}
	t.note("* the anchor's own message, when stored")
	if w.HasOlder {
		t.note("older: %s", commandLine("timeline before", []string{q.room, out.Older}, "--layout", q.layout, "-n", strconv.Itoa(q.n)))
	}
	if w.HasNewer {
		t.note("newer: %s", commandLine("timeline after", []string{q.room, out.Newer}, "--layout", q.layout, "-n", strconv.Itoa(q.n)))
	}
}
