package faulttest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// A timeline's every operation, in both strategies, runs as a user
// holding exactly the ACL the README lists for timelines, with the key
// patterns of its rooms: the ACL refuses nothing, and every key is a
// room's tl:{room}:z, for rooms and payloads made of glob characters,
// newlines, NUL and Lua-looking text. Braces in a room, 1 MB rooms and
// payloads are refused.
func TestTimelineLeastPrivilege(t *testing.T) {
	srv, admin := aclServer(t)
	var rooms, patterns []string
	for _, n := range append([]string{"lobby"}, hostile...) {
		rooms = append(rooms, n, "split "+n)
		patterns = append(patterns, "tl:{"+globEscape(n)+"}:z", "tl:{"+globEscape("split "+n)+"}:z")
	}
	c := aclUser(t, srv, admin, "timeline", aclTimeline+" "+aclWait, patterns)
	cs := &calls{t: t, pkg: "timeline"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, r := range []string{"{x}", "a}b", "", huge} {
		cs.check("New "+quoted(r), errOf(timeline.New(c, r, tsid.TSID, timeline.Options{})), timeline.ErrRoom)
	}
	var tls []*timeline.Timeline[uint64]
	for _, r := range rooms {
		s := timeline.LexID
		if strings.HasPrefix(r, "split ") {
			s = timeline.SplitScore
		}
		tls = append(tls, timelineOps(ctx, cs, c, r, s))
	}
	keys := checkKeyspace(t, admin, func(k string) bool {
		for _, r := range rooms {
			if k == "tl:{"+r+"}:z" {
				return true
			}
		}
		return false
	})
	for _, tl := range tls {
		cs.check("Drop "+quoted(tl.Room()), tl.Drop(ctx), nil)
	}
	if n := checkKeyspace(t, admin, func(string) bool { return false }); n != 0 {
		t.Errorf("%d keys left after every room was dropped", n)
	}
	checkACLLog(t, admin)
	t.Logf("%d calls on %d rooms, %d keys, all their rooms'", cs.n, len(rooms), keys)
}

// timelineOps runs every operation of a timeline on room, as the client c.
func timelineOps(ctx context.Context, cs *calls, c rueidis.Client, room string, s timeline.Strategy) *timeline.Timeline[uint64] {
	tl, err := timeline.New(c, room, tsid.TSID, timeline.Options{Strategy: s, MaxLen: 6})
	cs.check("New "+quoted(room), err, nil)
	id := func(i int) uint64 { return uint64(1000+i)<<22 | uint64(i%3) }
	for i, p := range hostile {
		cs.check("Append "+quoted(p), tl.Append(ctx, id(i), []byte(p)), nil)
	}
	cs.check("AppendMany", tl.AppendMany(ctx, []timeline.Message[uint64]{{ID: id(20), Payload: []byte("{*}")}, {ID: id(21), Payload: []byte("\x00")}}), nil)
	cs.check("Append of 1 MB", tl.Append(ctx, id(30), []byte(huge)), timeline.ErrPayload)
	cs.check("Get", errOf(tl.Get(ctx, id(20))), nil)
	cs.check("Latest", errOf(tl.Latest(ctx, 3)), nil)
	cs.check("Oldest", errOf(tl.Oldest(ctx, 3)), nil)
	cs.check("Before", errOf(tl.Before(ctx, id(21), 3)), nil)
	cs.check("After", errOf(tl.After(ctx, 0, 3)), nil)
	cs.check("Around", errOf(tl.Around(ctx, id(20), 3)), nil)
	cs.check("Len", errOf(tl.Len(ctx)), nil)
	cs.check("Remove", errOf(tl.Remove(ctx, id(20), id(29))), nil)
	cs.check("Trim", errOf(tl.Trim(ctx)), nil)
	wait, err := timeline.New(c, room, tsid.TSID, timeline.Options{Strategy: s, WaitReplicas: 1, WaitTimeout: time.Millisecond})
	cs.check("New, waiting for replicas", err, nil)
	cs.short("Append waiting for a replica", wait.Append(ctx, id(40), []byte("w")))
	return tl
}

// A decimal map's every operation runs as a user holding exactly the ACL
// the README lists for decimalmap, with the key patterns of its maps: the
// ACL refuses nothing, and every key is in a map's namespace
// (dm:{name}:...), for names and values made of glob characters,
// newlines, NUL and Lua-looking text. Braces in a name, keys that are no
// decimals, 1 MB names, keys and values are refused.
func TestDecimalmapLeastPrivilege(t *testing.T) {
	srv, admin := aclServer(t)
	names := append([]string{"prices"}, hostile...)
	var patterns []string
	for _, n := range names {
		patterns = append(patterns, "dm:{"+globEscape(n)+"}:*")
	}
	c := aclUser(t, srv, admin, "decimalmap", aclDecimalmap+" "+aclWait, patterns)
	cs := &calls{t: t, pkg: "decimalmap"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, n := range []string{"{x}", "a}b", "", huge} {
		cs.check("New "+quoted(n), errOf(decimalmap.New(c, n, decimalmap.Options{})), decimalmap.ErrName)
	}
	var maps []*decimalmap.Map
	for _, n := range names {
		maps = append(maps, decimalmapOps(ctx, cs, c, n))
	}
	keys := checkKeyspace(t, admin, func(k string) bool {
		for _, n := range names {
			if strings.HasPrefix(k, "dm:{"+n+"}:") {
				return true
			}
		}
		return false
	})
	for _, m := range maps {
		cs.check("Drop "+quoted(m.Name()), m.Drop(ctx), nil)
	}
	if n := checkKeyspace(t, admin, func(string) bool { return false }); n != 0 {
		t.Errorf("%d keys left after every map was dropped", n)
	}
	checkACLLog(t, admin)
	t.Logf("%d calls on %d maps, %d keys, all in their maps' namespaces", cs.n, len(names), keys)
}

// decimalmapOps runs every operation of a map on the map name, as c.
func decimalmapOps(ctx context.Context, cs *calls, c rueidis.Client, name string) *decimalmap.Map {
	m, err := decimalmap.New(c, name, decimalmap.Options{})
	cs.check("New "+quoted(name), err, nil)
	for _, k := range append([]string{"*", "1\n", "{1}", "1e5 ", "redis.call('FLUSHALL')"}, huge) {
		cs.check("Add key "+quoted(k), errOf(m.Add(ctx, k, "v")), decimalmap.ErrKey)
	}
	cs.check("Add of a 1 MB value", errOf(m.Add(ctx, "1", huge)), decimalmap.ErrArgument)
	cs.check("Add", errOf(m.Add(ctx, "25500.12346", hostile...)), nil)
	cs.check("Add", errOf(m.Add(ctx, "-1e3", "{x}", "\x00")), nil)
	cs.check("Get", errOf(m.Get(ctx, "25500.123460")), nil)
	cs.check("Range", errOf(m.Range(ctx, decimalmap.Query{Min: decimalmap.Exclusive("-1000"), Limit: 2})), nil)
	cs.check("Range reversed", errOf(m.Range(ctx, decimalmap.Query{Reverse: true})), nil)
	cs.check("Scan", errOf(m.Scan(ctx, "", 1)), nil)
	cs.check("Len", errOf(m.Len(ctx)), nil)
	cs.check("RemoveValue", errOf(m.RemoveValue(ctx, "25500.12346", "*")), nil)
	cs.check("Remove", errOf(m.Remove(ctx, "-1000", "7")), nil)
	wait, err := decimalmap.New(c, name, decimalmap.Options{WaitReplicas: 1, WaitTimeout: time.Millisecond})
	cs.check("New, waiting for replicas", err, nil)
	cs.short("Add waiting for a replica", errOf(wait.Add(ctx, "2", "w")))
	return m
}

// A limiter's every operation runs as a user holding exactly the ACL the
// README lists for ratelimit, with the key pattern of its prefix
// (rl:{*}): the ACL refuses nothing, and every key is the log of a key
// used, for keys made of glob characters, newlines, NUL and Lua-looking
// text. Braces in a key or prefix, 1 MB keys and prefixes are refused.
func TestRatelimitLeastPrivilege(t *testing.T) {
	srv, admin := aclServer(t)
	c := aclUser(t, srv, admin, "ratelimit", aclRatelimit+" "+aclWait, []string{"rl:{*}"})
	cs := &calls{t: t, pkg: "ratelimit"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, p := range []string{"a{", "}", huge} {
		cs.check("New with prefix "+quoted(p), errOf(ratelimit.New(c, ratelimit.Options{Prefix: p})), ratelimit.ErrOptions)
	}
	l, err := ratelimit.New(c, ratelimit.Options{})
	cs.check("New", err, nil)
	limit := ratelimit.Limit{N: 3, Window: time.Hour}
	for _, k := range []string{"{x}", "a}b", "", huge} {
		cs.check("Allow "+quoted(k), errOf(l.Allow(ctx, k, limit)), ratelimit.ErrKey)
	}
	for _, k := range hostile {
		cs.check("Allow "+quoted(k), errOf(l.Allow(ctx, k, limit)), nil)
		cs.check("AllowN "+quoted(k), errOf(l.AllowN(ctx, k, limit, 2)), nil)
		cs.check("Allow refused "+quoted(k), errOf(l.Allow(ctx, k, limit)), nil)
	}
	// A backlog of more stale entries than one call drops.
	burst := ratelimit.Limit{N: 2 * ratelimit.MaxAllowN, Window: 100 * time.Millisecond}
	cs.check("AllowN of MaxAllowN", errOf(l.AllowN(ctx, "burst*", burst, ratelimit.MaxAllowN)), nil)
	cs.check("AllowN of MaxAllowN", errOf(l.AllowN(ctx, "burst*", burst, ratelimit.MaxAllowN)), nil)
	time.Sleep(150 * time.Millisecond) // out of the window, not yet expired (2 windows)
	cs.check("Allow after a backlog", errOf(l.Allow(ctx, "burst*", burst)), nil)
	wait, err := ratelimit.New(c, ratelimit.Options{WaitReplicas: 1, WaitTimeout: time.Millisecond})
	cs.check("New, waiting for replicas", err, nil)
	cs.short("Allow waiting for a replica", errOf(wait.Allow(ctx, "w", limit)))
	keys := checkKeyspace(t, admin, func(k string) bool {
		for _, h := range append([]string{"w", "burst*"}, hostile...) {
			if k == "rl:{"+h+"}" {
				return true
			}
		}
		return false
	})
	for _, k := range append([]string{"w", "burst*"}, hostile...) {
		cs.check("Reset "+quoted(k), l.Reset(ctx, k), nil)
	}
	if n := checkKeyspace(t, admin, func(string) bool { return false }); n != 0 {
		t.Errorf("%d keys left after every key was reset", n)
	}
	checkACLLog(t, admin)
	t.Logf("%d calls, %d keys, each a key's log", cs.n, keys)
}
