package faulttest

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// Every package's writes with WaitAOF: on a server with WAITAOF (Redis or
// Valkey 7.2 or later) and appendonly yes, each returns once it is on the
// master's disk and the replica's; elsewhere, each is refused with an
// error wrapping its package's ErrOptions, and nothing is written. The
// suite runs on every engine, so both sides are checked.
func TestWaitAOF(t *testing.T) {
	_, _, client := redistest.PrivateReplicated(t, "--appendonly", "yes", "--appendfsync", "always")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	e, err := engine.Of(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	has := e.AtLeast(7, 2)
	t.Logf("engine %v: WAITAOF %t", e, has)
	b, err := board.New(ctx, client, "aof", boardLayout(t), board.Options{WaitAOF: true, WaitReplicas: 1, WaitTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := board.New(ctx, client, "aofsharded", boardLayout(t), board.Options{Shards: 2, WaitAOF: true})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := timeline.New(client, "aof", tsid.TSID, timeline.Options{WaitAOF: true})
	if err != nil {
		t.Fatal(err)
	}
	dm, err := decimalmap.New(client, "aof", decimalmap.Options{WaitAOF: true})
	if err != nil {
		t.Fatal(err)
	}
	lim, err := ratelimit.New(client, ratelimit.Options{Prefix: "aof:", WaitAOF: true})
	if err != nil {
		t.Fatal(err)
	}
	entry := board.Submission{ID: "ann", Values: []float64{1, 1, 1}, Data: []byte("d")}
	for _, c := range []struct {
		what     string
		sentinel error
		write    func() error
	}{
		{"board Submit", board.ErrOptions, func() error { _, err := b.Submit(ctx, entry); return err }},
		{"board SubmitMany", board.ErrOptions, func() error { return b.SubmitMany(ctx, []board.Submission{entry})[0].Err }},
		{"board SetData", board.ErrOptions, func() error { return b.SetData(ctx, "ann", []byte("e")) }},
		{"sharded board Submit", board.ErrOptions, func() error { _, err := sb.Submit(ctx, entry); return err }},
		{"timeline Append", timeline.ErrOptions, func() error { return tl.Append(ctx, 1<<22, []byte("m")) }},
		{"decimalmap Add", decimalmap.ErrOptions, func() error { _, err := dm.Add(ctx, "1.5", "v"); return err }},
		{"ratelimit Allow", ratelimit.ErrOptions, func() error {
			_, err := lim.Allow(ctx, "k", ratelimit.Limit{N: 5, Window: time.Minute})
			return err
		}},
	} {
		before := dumpAll(t, client)
		err := c.write()
		switch {
		case has && err != nil:
			t.Errorf("%s with WaitAOF on %v: %v", c.what, e, err)
		case !has && !errors.Is(err, c.sentinel):
			t.Errorf("%s with WaitAOF on %v: %v, want ErrOptions", c.what, e, err)
		case !has && !maps.Equal(before, dumpAll(t, client)):
			t.Errorf("%s with WaitAOF on %v: refused, but it wrote", c.what, e)
		}
	}
}

// dumpAll returns what every key of the server client is on holds
// (redistest.Dump).
func dumpAll(t *testing.T, client rueidis.Client) map[string]string {
	t.Helper()
	ctx := t.Context()
	keys, err := client.Do(ctx, client.B().Keys().Pattern("*").Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, k := range keys {
		v, err := redistest.Dump(ctx, client, k)
		if err != nil {
			t.Fatalf("DUMP %s: %v", k, err)
		}
		out[k] = v
	}
	return out
}

// Every package's writes with WaitAOF run as a user holding its package's
// ACL and aclWaitAOF, the ACL refusing nothing; without aclWaitAOF each
// is refused with its package's ErrOptions, naming the grant, and writes
// nothing. Redis 7.0, which has no WAITAOF, refuses a rule that names it.
func TestWaitAOFLeastPrivilege(t *testing.T) {
	srv, admin := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	e, err := engine.Of(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	if !e.AtLeast(7, 2) {
		err := admin.Do(ctx, admin.B().AclSetuser().Username("aof").Rule("on", aclWaitAOF).Build()).Error()
		if err == nil {
			t.Errorf("%v took an ACL rule naming waitaof, which it has not", e)
		}
		t.Logf("%v refuses %s: %v", e, aclWaitAOF, err)
		return
	}
	type write struct {
		what     string
		sentinel error
		run      func(c rueidis.Client) error
	}
	writes := []struct {
		pkg, commands string
		patterns      []string
		write
	}{
		{"board", aclBoard, []string{"tb:{aof}:*", "tb:{aofplain}:*"}, write{"board Submit, SubmitMany, native Submit", board.ErrOptions, func(c rueidis.Client) error {
			b, err := board.New(ctx, c, "aof", boardLayout(t), board.Options{DenseRanks: true, WaitAOF: true})
			if err != nil {
				return err
			}
			entry := board.Submission{ID: "ann", Values: []float64{1, 1, 1}, Data: []byte("d")}
			if _, err := b.Submit(ctx, entry); err != nil {
				return err
			}
			if err := b.SubmitMany(ctx, []board.Submission{entry})[0].Err; err != nil {
				return err
			}
			p, err := board.New(ctx, c, "aofplain", boardLayout(t), board.Options{WaitAOF: true})
			if err != nil {
				return err
			}
			_, err = p.Submit(ctx, board.Submission{ID: "ann", Values: []float64{1, 1, 1}, Policy: board.Best})
			return err
		}}},
		{"timeline", aclTimeline, []string{"tl:{aof}:z"}, write{"timeline Append", timeline.ErrOptions, func(c rueidis.Client) error {
			tl, err := timeline.New(c, "aof", tsid.TSID, timeline.Options{WaitAOF: true})
			if err != nil {
				return err
			}
			return tl.Append(ctx, 1<<22, []byte("m"))
		}}},
		{"decimalmap", aclDecimalmap, []string{"dm:{aof}:*"}, write{"decimalmap Add", decimalmap.ErrOptions, func(c rueidis.Client) error {
			dm, err := decimalmap.New(c, "aof", decimalmap.Options{WaitAOF: true})
			if err != nil {
				return err
			}
			_, err = dm.Add(ctx, "1.5", "v")
			return err
		}}},
		{"ratelimit", aclRatelimit, []string{"rl:{*}"}, write{"ratelimit Allow", ratelimit.ErrOptions, func(c rueidis.Client) error {
			lim, err := ratelimit.New(c, ratelimit.Options{WaitAOF: true})
			if err != nil {
				return err
			}
			_, err = lim.Allow(ctx, "k", ratelimit.Limit{N: 5, Window: time.Minute})
			return err
		}}},
	}
	if err := admin.Do(ctx, admin.B().AclLog().Reset().Build()).Error(); err != nil {
		t.Fatal(err)
	}
	for _, w := range writes {
		c := aclUser(t, srv, admin, w.pkg+"-aof", w.commands+" "+aclWaitAOF, w.patterns)
		if err := w.run(c); err != nil {
			t.Errorf("%s with WaitAOF as a user holding %s: %v", w.what, aclWaitAOF, err)
		}
	}
	checkACLLog(t, admin)
	for _, w := range writes {
		before := dumpAll(t, admin)
		c := aclUser(t, srv, admin, w.pkg+"-noaof", w.commands, w.patterns)
		err := w.run(c)
		switch {
		case !errors.Is(err, w.sentinel) || !strings.Contains(err.Error(), aclWaitAOF):
			t.Errorf("%s with WaitAOF as a user without %s: %v, want ErrOptions naming %s", w.what, aclWaitAOF, err, aclWaitAOF)
		case !maps.Equal(before, dumpAll(t, admin)):
			t.Errorf("%s with WaitAOF as a user without %s: refused, but it wrote", w.what, aclWaitAOF)
		}
	}
}
