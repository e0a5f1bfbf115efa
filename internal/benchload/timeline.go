package benchload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// Timeline pages: Before(cursor, 50) on a split and a lex timeline against
// XREVRANGE key (id - COUNT 50 on a Redis Stream holding the same
// messages: the limit, Redis's own structure for a log read backwards.
// tsid/timeline's BenchmarkBefore runs it.
func init() {
	register(Workload{
		Num: 4, Name: "timeline", Title: "4. Timeline pages",
		RatioOf: "throughput / XREVRANGE (decoded) in the same round",
		Params:  []Param{{Name: "messages", Usage: "messages of the timeline workload", Full: "100000", Quick: "20000", Min: minMessages, Max: 1e9}},
		Rows:    func(Config) int { return 4 },
		Goals:   func(Config) int { return 2 },
		Prepare: prepareTimeline,
	})
}

// The timeline variants; TLBaseline is what ratios divide by.
const (
	TLSplit    = "split"
	TLLex      = "lex"
	TLRaw      = "xrevrange-raw"
	TLBaseline = "xrevrange"
	// tlPage is the page size of every read.
	tlPage = 50
	// minMessages is a full page before at least as many cursors.
	minMessages = 2 * tlPage
	// tsidRestBits is the width of a TSID's bits below its time part (42
	// bits of milliseconds, then 22): a stream entry ID is <time>-<rest>.
	tsidRestBits = 22
)

// tlRoom is the workload's data: the same messages in a split timeline, a
// lex timeline and a stream.
type tlRoom struct {
	c          rueidis.Client
	split, lex *timeline.Timeline[uint64]
	stream     string
	msgs       []timeline.Message[uint64]
}

// TimelineMessages builds n messages: TSIDs about one millisecond apart
// (some in the same one), JSON payloads of about a hundred bytes. The
// fixed random source gives the same messages in every run.
func TimelineMessages(n int) []timeline.Message[uint64] {
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

// StreamID is the stream entry ID of a TSID: time part, "-", rest bits.
// It orders as the TSID does.
func StreamID(id uint64) string {
	return strconv.FormatUint(id>>tsidRestBits, 10) + "-" + strconv.FormatUint(id&(1<<tsidRestBits-1), 10)
}

// prepareTimeline loads the room, checks it, and compares the readers.
func prepareTimeline(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	r := &tlRoom{c: env.Client, stream: "{" + env.Prefix + "_w4_stream}:s", msgs: TimelineMessages(cfg.Int("messages"))}
	var err1, err2 error
	r.split, err1 = timeline.New(env.Client, env.Prefix+"_w4_split", tsid.TSID, timeline.Options{Strategy: timeline.SplitScore})
	r.lex, err2 = timeline.New(env.Client, env.Prefix+"_w4_lex", tsid.TSID, timeline.Options{Strategy: timeline.LexID})
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	f := &Fixture{Notes: timelineNotes(cfg), Drop: func(ctx context.Context) error {
		return errors.Join(r.split.Drop(ctx), r.lex.Drop(ctx), dropKeys(ctx, r.c, []string{r.stream}))
	}}
	if err := r.load(ctx, env); err != nil {
		return f, err
	}
	if err := r.check(ctx); err != nil {
		return f, err
	}
	c := Comparison{Name: "before50", Case: "before50 " + SizeLabel(int64(len(r.msgs))), Baseline: TLBaseline, Metric: Throughput, Variants: r.variants()}
	for _, v := range []string{TLSplit, TLLex} {
		c.Goals = append(c.Goals, Goal{Variant: v, Text: "timeline Before(cursor, 50) " + v + " >= 0.8x XREVRANGE", Short: "vs xrevrange", Target: 0.8, AtLeast: true})
	}
	f.Comparisons = []Comparison{c}
	return f, nil
}

// load writes every message into both timelines (AppendMany, chunks in
// parallel) and into the stream (XADD with the message's entry ID, in
// order, as a stream needs).
func (r *tlRoom) load(ctx context.Context, env Env) error {
	n := int64(len(r.msgs))
	for _, tl := range []*timeline.Timeline[uint64]{r.split, r.lex} {
		if _, err := loadChunks(ctx, env, "timeline: loading "+tl.Strategy().String(), n, func(ctx context.Context, from, to int64) error {
			return tl.AppendMany(ctx, r.msgs[from:to])
		}); err != nil {
			return err
		}
	}
	env.logf("timeline: loading stream")
	for from := int64(0); from < n; from += LoadChunk {
		to := min(from+LoadChunk, n)
		cmds := make(rueidis.Commands, 0, to-from)
		for _, m := range r.msgs[from:to] {
			cmds = append(cmds, r.c.B().Xadd().Key(r.stream).Id(StreamID(m.ID)).FieldValue().FieldValue("p", string(m.Payload)).Build())
		}
		if err := redisops.FirstErr(r.c.DoMulti(ctx, cmds...)); err != nil {
			return fmt.Errorf("timeline: loading stream: %w", err)
		}
	}
	return nil
}

// cursor is the cursor of sequence number s: a stored message with at
// least a full page of older ones.
func (r *tlRoom) cursor(s uint64) int { return tlPage + pick(s, len(r.msgs)-tlPage) }

// xrevrange is the baseline's command: the page before message k.
func (r *tlRoom) xrevrange(k int) rueidis.Completed {
	return r.c.B().Xrevrange().Key(r.stream).End("(" + StreamID(r.msgs[k].ID)).Start("-").Count(tlPage).Build()
}

// variants are the four contenders. Each checks that it read a full page.
func (r *tlRoom) variants() []Variant {
	var s seq
	before := func(tl *timeline.Timeline[uint64]) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			p, err := tl.Before(ctx, r.msgs[r.cursor(s.next())].ID, tlPage)
			return pageErr(len(p.Messages), err)
		}
	}
	return []Variant{
		{Name: TLSplit, Bench: timeline.SplitScore.String(), Op: before(r.split), Commands: []string{"multi", "exec", "evalsha"}},
		{Name: TLLex, Bench: timeline.LexID.String(), Op: before(r.lex), Commands: []string{"zrange"}},
		{Name: TLBaseline, Commands: []string{"xrevrange"}, Op: func(ctx context.Context) error {
			entries, err := r.c.Do(ctx, r.xrevrange(r.cursor(s.next()))).AsXRange()
			return pageErr(len(entries), err)
		}},
		{Name: TLRaw, Commands: []string{"xrevrange"}, Op: func(ctx context.Context) error {
			return r.c.Do(ctx, r.xrevrange(r.cursor(s.next()))).Error()
		}},
	}
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
func (r *tlRoom) check(ctx context.Context) error {
	k := len(r.msgs) / 2
	entries, err := r.c.Do(ctx, r.xrevrange(k)).AsXRange()
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
				entries[i].ID != StreamID(want.ID) || entries[i].FieldValues["p"] != string(want.Payload) {
				return fmt.Errorf("timeline: %s and the stream differ from the messages at %d before the cursor", tl.Strategy(), i)
			}
		}
	}
	return nil
}

// timelineNotes explains the section.
func timelineNotes(c Config) []string {
	return []string{
		fmt.Sprintf("%d messages (TSIDs about 1ms apart, some in the same ms; JSON payloads of about 100 bytes) in a split timeline, a lex timeline and a Redis Stream (entry ID <ms>-<rest bits>, field p).", c.Int("messages")),
		"Each operation reads the 50 messages before a random stored message (a full page): split and lex with Before(cursor, 50), decoded into messages; xrevrange with XREVRANGE key (id - COUNT 50 decoded by AsXRange, as a caller would; xrevrange-raw sends the same command and does not decode the reply.",
		"split reads with MULTI, two ZRANGE, EXEC (one round trip); lex with one ZRANGE BYLEX. Both ask for 51 members to tell whether there is more.",
	}
}
