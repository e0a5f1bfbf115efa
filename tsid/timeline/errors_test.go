package timeline

import (
	"context"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

// Every refusal names the argument, its value and the range allowed, and
// says "timeline: " once (checkErr).
func TestErrorsNameWhatFailed(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	room := env.Prefix + "_errs"
	tl := newTL(t, env.Client, room, tsid.Snowflake, Options{MaxPayload: 8})
	v7 := newTL(t, env.Client, room+"_v7", tsid.UUIDv7, Options{})
	newErr := func(o Options) error { return errOf(New(env.Client, room, tsid.TSID, o)) }
	for _, c := range []struct {
		err  error
		want []string
	}{
		{newErr(Options{Strategy: 7}), []string{"Options.Strategy = Strategy(7)", "LexID or SplitScore"}},
		{newErr(Options{MaxPage: MaxPageLimit + 1}), []string{"Options.MaxPage = 5001", "[1, 5000]"}},
		{newErr(Options{DefaultPage: 11, MaxPage: 10}), []string{"Options.DefaultPage = 11", "[1, 10]"}},
		{newErr(Options{MaxPayload: -1}), []string{"Options.MaxPayload = -1", "[1, 65536]"}},
		{newErr(Options{MaxLen: -1}), []string{"Options.MaxLen = -1", "[0, 9223372036854775807]"}},
		{newErr(Options{MaxAge: -time.Second}), []string{"Options.MaxAge = -1s", "0 (no limit) or more"}},
		{errOf(New[uint64](nil, room, tsid.TSID, Options{})), []string{"client is nil"}},
		{errOf(New(env.Client, room, Codec[uint64](boundsCodec{tsid.TSID, 1 << 53, 6}), Options{})), []string{"MaxTime = 9007199254740992", "[0, 9007199254740991]"}},
		{errOf(New(env.Client, room, Codec[uint64](boundsCodec{tsid.TSID, 1, 65}), Options{})), []string{"SuffixLen = 65", "[1, 64]"}},
		{errOf(tl.Latest(ctx, -1)), []string{room, "Latest: n = -1", "[0, 1000]"}},
		{errOf(tl.Oldest(ctx, 1001)), []string{"Oldest: n = 1001", "[0, 1000]"}},
		{errOf(tl.Around(ctx, 1, 5000)), []string{"Around: n = 5000", "[0, 1000]"}},
		{errOf(tl.Before(ctx, 1<<63, 1)), []string{"Before: cursor: invalid ID", "9223372036854775808", "[0, 9223372036854775807]"}},
		{errOf(tl.Around(ctx, 1<<63, 1)), []string{"Around: anchor: invalid ID", "9223372036854775808"}},
		{errOf(tl.Get(ctx, 1<<63)), []string{"Get: id: invalid ID", "9223372036854775808"}},
		{errOf(tl.Get(ctx, 1)), []string{"Get: id", "not found"}},
		{errOf(tl.Remove(ctx)), []string{"Remove: len(ids) = 0", "[1, 50]"}},
		{errOf(tl.Remove(ctx, 1, 2, 1<<63)), []string{"Remove: ids[2]: invalid ID", "9223372036854775808"}},
		{tl.Append(ctx, 1, nil), []string{"Append: payload of 0 bytes", "[1, 8]"}},
		{tl.AppendMany(ctx, []Message[uint64]{{1, []byte("x")}, {2, []byte("123456789")}}), []string{"AppendMany: msgs[1]: payload of 9 bytes", "[1, 8]"}},
		{tl.AppendMany(ctx, []Message[uint64]{{1, []byte("x")}, {1 << 63, []byte("x")}}), []string{"AppendMany: msgs[1]: id: invalid ID", "9223372036854775808"}},
		{errOf(v7.Get(ctx, [16]byte{})), []string{"Get: id: invalid ID", "version 0, want 7"}},
	} {
		if c.err == nil {
			t.Errorf("want an error saying %q, got nil", c.want)
			continue
		}
		checkErr(t, "refusal", c.err)
		for _, w := range c.want {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("error %q does not say %q", c.err, w)
			}
		}
	}
}

func TestStrategyString(t *testing.T) {
	got := []string{LexID.String(), SplitScore.String(), Strategy(7).String()}
	if diff := gocmp.Diff([]string{"LexID", "SplitScore", "Strategy(7)"}, got); diff != "" {
		t.Errorf("Strategy names (-want +got):\n%s", diff)
	}
}
