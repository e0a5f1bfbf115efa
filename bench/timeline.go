package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// Workload 4: timeline pages. Before(cursor, 50) on a split and a lex
// timeline against XREVRANGE key (id - COUNT 50 on a Redis Stream holding
// the same messages: the limit, Redis's own structure for a log read
// backwards. The data and the stream IDs are those of
// tsid/timeline/bench_test.go's BenchmarkBefore.
func init() {
	register(workload{num: 4, name: "timeline", title: "4. Timeline pages", run: runTimeline})
}

// The timeline variants; tlBaseline is what ratios divide by.
const (
	tlSplit    = "split"
	tlLex      = "lex"
	tlRaw      = "xrevrange-raw"
	tlBaseline = "xrevrange"
	// tlPage is the page size of every read.
	tlPage = 50
	// tsidRestBits is the width of a TSID's bits below its time part (42
	// bits of milliseconds, then 22): a stream entry ID is <time>-<rest>.
	tsidRestBits = 22
)

// tlRoom is the workload's data: the same messages in a split timeline, a
// lex timeline and a stream.
type tlRoom struct {
	split, lex *timeline.Timeline[uint64]
	stream     string
	msgs       []timeline.Message[uint64]
}

// tlMessages builds n messages as BenchmarkBefore does: TSIDs about one
// millisecond apart (some in the same one), JSON payloads of about a
// hundred bytes. The fixed random source gives the same messages in every
// run.
func tlMessages(n int) []timeline.Message[uint64] {
	rng := rand.New(rand.NewPCG(7, 7))
	msgs := make([]timeline.Message[uint64], n)
	id := uint64(9153062458) << tsidRestBits
	for i := range msgs {
		id += 1 + rng.Uint64N(3<<(tsidRestBits-1))
		payload := fmt.Sprintf(`{"user":"u%d","text":"message %d of the benchmark room, about a hundred bytes long"}`, rng.IntN(1000), i)
		msgs[i] = timeline.Message[uint64]{ID: id, Payload: []byte(payload)}
	}
	return msgs
}

// streamID is the stream entry ID of a TSID: time part, "-", rest bits.
// It orders as the TSID does.
func streamID(id uint64) string {
	return strconv.FormatUint(id>>tsidRestBits, 10) + "-" + strconv.FormatUint(id&(1<<tsidRestBits-1), 10)
}

// newTLRoom names the timelines and the stream from the run's prefix.
func newTLRoom(h *harness) (*tlRoom, error) {
	r := &tlRoom{stream: "{" + h.cfg.Prefix + "_w4_stream}:s", msgs: tlMessages(h.cfg.Messages)}
	var err1, err2 error
	r.split, err1 = timeline.New(h.client, h.cfg.Prefix+"_w4_split", tsid.TSID, timeline.Options{Strategy: timeline.SplitScore})
	r.lex, err2 = timeline.New(h.client, h.cfg.Prefix+"_w4_lex", tsid.TSID, timeline.Options{Strategy: timeline.LexID})
	return r, errors.Join(err1, err2)
}

// load writes every message into both timelines (AppendMany, chunks in
// parallel) and into the stream (XADD with the message's entry ID, in
// order, as a stream needs).
func (r *tlRoom) load(ctx context.Context, h *harness) error {
	n := int64(len(r.msgs))
	for _, tl := range []*timeline.Timeline[uint64]{r.split, r.lex} {
		label := "timeline: loading " + tl.Strategy().String()
		if _, err := h.loadChunks(ctx, label, n, func(ctx context.Context, from, to int64) error {
			return tl.AppendMany(ctx, r.msgs[from:to])
		}); err != nil {
			return err
		}
	}
	t := h.log.newTicker("timeline: loading stream", n)
	for from := int64(0); from < n; from += loadChunk {
		to := min(from+loadChunk, n)
		cmds := make(rueidis.Commands, 0, to-from)
		for _, m := range r.msgs[from:to] {
			cmds = append(cmds, h.client.B().Xadd().Key(r.stream).Id(streamID(m.ID)).FieldValue().FieldValue("p", string(m.Payload)).Build())
		}
		if err := firstErr(resultErrs(h.client.DoMulti(ctx, cmds...))...); err != nil {
			return fmt.Errorf("timeline: loading stream: %w", err)
		}
		t.at(to)
	}
	t.finish()
	return nil
}

// drop deletes the timelines and the stream.
func (r *tlRoom) drop(ctx context.Context, h *harness) error {
	return errors.Join(r.split.Drop(ctx), r.lex.Drop(ctx), deleteKeys(ctx, h.client, r.stream))
}

// cursor is the cursor of operation seq: a stored message with at least
// a full page of older ones.
func (r *tlRoom) cursor(seq uint64) int {
	return tlPage + int(mix(seq)%uint64(len(r.msgs)-tlPage))
}

// xrevrange is the baseline's command: the page before message k.
func (r *tlRoom) xrevrange(c rueidis.Client, k int) rueidis.Completed {
	return c.B().Xrevrange().Key(r.stream).End("(" + streamID(r.msgs[k].ID)).Start("-").Count(tlPage).Build()
}

// variants are the four contenders. Each checks that it read a full page.
func (r *tlRoom) variants(c rueidis.Client) []variant {
	before := func(tl *timeline.Timeline[uint64]) opFunc {
		return func(ctx context.Context, seq uint64) error {
			p, err := tl.Before(ctx, r.msgs[r.cursor(seq)].ID, tlPage)
			return pageErr(len(p.Messages), err)
		}
	}
	return []variant{
		{name: tlSplit, op: before(r.split)},
		{name: tlLex, op: before(r.lex)},
		{name: tlBaseline, op: func(ctx context.Context, seq uint64) error {
			entries, err := c.Do(ctx, r.xrevrange(c, r.cursor(seq))).AsXRange()
			return pageErr(len(entries), err)
		}},
		{name: tlRaw, op: func(ctx context.Context, seq uint64) error {
			return c.Do(ctx, r.xrevrange(c, r.cursor(seq))).Error()
		}},
	}
}

// variantIndex returns the index of the variant named name, or -1.
func variantIndex(vs []variant, name string) int {
	return slices.IndexFunc(vs, func(v variant) bool { return v.name == name })
}

// pageErr turns a short page into an error: every cursor has a full page.
func pageErr(n int, err error) error {
	if err == nil && n != tlPage {
		err = fmt.Errorf("a page of %d, want %d", n, tlPage)
	}
	return err
}

// check makes sure the three stores answer one cursor with the same 50
// messages, IDs and payloads, so that the variants do the same work.
func (r *tlRoom) check(ctx context.Context, c rueidis.Client) error {
	k := len(r.msgs) / 2
	entries, err := c.Do(ctx, r.xrevrange(c, k)).AsXRange()
	if err != nil {
		return err
	}
	for _, tl := range []*timeline.Timeline[uint64]{r.split, r.lex} {
		p, err := tl.Before(ctx, r.msgs[k].ID, tlPage)
		if err != nil {
			return err
		}
		if len(p.Messages) != tlPage || len(entries) != tlPage {
			return fmt.Errorf("timeline: %s page of %d, stream page of %d, want %d", tl.Strategy(), len(p.Messages), len(entries), tlPage)
		}
		for i, m := range p.Messages {
			want := r.msgs[k-1-i]
			if m.ID != want.ID || !bytes.Equal(m.Payload, want.Payload) ||
				entries[i].ID != streamID(want.ID) || entries[i].FieldValues["p"] != string(want.Payload) {
				return fmt.Errorf("timeline: %s and the stream differ from the messages at %d before the cursor", tl.Strategy(), i)
			}
		}
	}
	return nil
}

// runTimeline loads the room, checks it, and compares the four readers.
func runTimeline(ctx context.Context, h *harness) (sec Section, err error) {
	r, err := newTLRoom(h)
	if err != nil {
		return sec, err
	}
	defer func() { err = errors.Join(err, r.drop(context.WithoutCancel(ctx), h)) }()
	if err := r.load(ctx, h); err != nil {
		return sec, err
	}
	if err := r.check(ctx, h.client); err != nil {
		return sec, err
	}
	sec = Section{Workload: "timeline", Title: "4. Timeline pages", Kind: "throughput",
		RatioOf: "throughput / XREVRANGE (decoded) in the same round", Notes: timelineNotes(h.cfg)}
	vs := r.variants(h.client)
	ms, err := h.compare(ctx, "timeline before50", vs)
	if err != nil {
		return sec, err
	}
	base := variantIndex(vs, tlBaseline)
	c := "before50 " + sizeLabel(int64(len(r.msgs)))
	for i, v := range vs {
		row := newRow(c, v.name, ms[i])
		row.Ratio, row.Baseline = ratio(ms[i], ms[base], throughput), tlBaseline
		sec.Rows = append(sec.Rows, row)
		if v.name == tlSplit || v.name == tlLex {
			sec.addGoal(i, newGoal("timeline Before(cursor, 50) "+v.name+" >= 0.8x XREVRANGE", "vs xrevrange", row.Ratio, 0.8, true))
		}
	}
	return sec, nil
}

// timelineNotes explains the section.
func timelineNotes(c config) []string {
	return []string{
		fmt.Sprintf("%d messages (TSIDs about 1ms apart, some in the same ms; JSON payloads of about 100 bytes) in a split timeline, a lex timeline and a Redis Stream (entry ID <ms>-<rest bits>, field p), as tsid/timeline's BenchmarkBefore.", c.Messages),
		"Each operation reads the 50 messages before a random stored message (a full page): split and lex with Before(cursor, 50), decoded into messages; xrevrange with XREVRANGE key (id - COUNT 50 decoded by AsXRange, as a caller would; xrevrange-raw sends the same command and does not decode the reply.",
		"split reads with MULTI, two ZRANGE, EXEC (one round trip); lex with one ZRANGE BYLEX. Both ask for 51 members to tell whether there is more.",
	}
}
