package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/ratelimit"
)

// The kinds of object the command knows, and how each package names its
// Redis keys (see each package's doc.go):
//
//	board     tb:{name}:meta        HASH: descriptor, generation, migration
//	          tb:{group}:{name}:meta   the same for a board of a group
//	          ...:z, ...:gN:z       the entries of generation 0, of N
//	          ...:x, ...:gN:x       while migrating: the ids the target cannot hold
//	          tb:{group}:data       the shared member data of a group's boards
//	timeline  tl:{room}:z           sorted set of messages
//	map       dm:{name}:k           sorted set of the keys (dm:{name}:e the values)
//	limiter   rl:{key}              sorted set of admissions (rl: is the default prefix)
const (
	kindBoard    = "board"
	kindTimeline = "timeline"
	kindMap      = "map"
	kindLimiter  = "limiter"
	kindLeague   = "league"
)

// kinds in the order list prints them.
var kinds = []string{kindBoard, kindTimeline, kindMap, kindLimiter, kindLeague}

// boardPrefix is how every key of a board starts: tb:{name}:, or
// tb:{group}:{name}: in a group.
func boardPrefix(group, name string) string {
	if group == "" {
		return "tb:{" + name + "}:"
	}
	return "tb:{" + group + "}:{" + name + "}:"
}

// boardMetaKey is the HASH holding a board's descriptor and generation.
func boardMetaKey(group, name string) string { return boardPrefix(group, name) + "meta" }

// boardEntriesKey is the sorted set of a board's entries in generation
// gen.
func boardEntriesKey(group, name string, gen int64) string {
	if gen == 0 {
		return boardPrefix(group, name) + "z"
	}
	return boardPrefix(group, name) + "g" + strconv.FormatInt(gen, 10) + ":z"
}

// boardMisfitsKey is the SET of the ids that do not fit a migration's
// target, kept beside the entries of generation gen.
func boardMisfitsKey(group, name string, gen int64) string {
	k := boardEntriesKey(group, name, gen)
	return k[:len(k)-len("z")] + "x"
}

func timelineKey(room string) string { return "tl:{" + room + "}:z" }

func mapKeysKey(name string) string { return "dm:{" + name + "}:k" }

func mapEntriesKey(name string) string { return "dm:{" + name + "}:e" }

func limiterKey(prefix, key string) string { return prefix + "{" + key + "}" }

// mainKey is the key an object of kind is known by, and the Redis type it
// must hold.
func mainKey(kind, name, limiterPrefix string) (key, typ string) {
	switch kind {
	case kindBoard:
		return boardMetaKey("", name), "hash"
	case kindTimeline:
		return timelineKey(name), "zset"
	case kindMap:
		return mapKeysKey(name), "zset"
	case kindLeague:
		return "tb:{" + name + "}:league", "hash"
	}
	return limiterKey(limiterPrefix, name), "zset"
}

// parsed is what a key found by SCAN names.
type parsed struct {
	kind, group, name string
	// other: a key under tb: other than a meta HASH. The name it carries
	// is a board only when its meta HASH is there: keys without a
	// descriptor are not a board.
	other bool
}

// parseKey tells which object key names, if any.
func parseKey(key, limiterPrefix string) (parsed, bool) {
	switch {
	case strings.HasPrefix(key, "tb:{"):
		return parseBoardKey(key[len("tb:"):])
	case strings.HasPrefix(key, "tl:{") && strings.HasSuffix(key, "}:z"):
		room, ok := braced(key[len("tl:") : len(key)-len(":z")])
		return parsed{kind: kindTimeline, name: room}, ok
	case strings.HasPrefix(key, "dm:{") && strings.HasSuffix(key, "}:k"):
		name, ok := braced(key[len("dm:") : len(key)-len(":k")])
		return parsed{kind: kindMap, name: name}, ok
	case strings.HasPrefix(key, limiterPrefix+"{"):
		k, ok := braced(key[len(limiterPrefix):])
		return parsed{kind: kindLimiter, name: k}, ok
	}
	return parsed{}, false
}

// parseBoardKey reads the key after "tb:": "{name}:meta" or
// "{group}:{name}:meta", a board's meta HASH; any other key but a group's
// shared data "{group}:data" is other, named by its braces (the whole of
// rest when they do not read).
func parseBoardKey(rest string) (parsed, bool) {
	tag, after, ok := cutBraced(rest)
	if !ok {
		return parsed{kind: kindBoard, name: rest, other: true}, true
	}
	switch {
	case after == ":data", strings.HasPrefix(after, ":r:"):
		return parsed{}, false // a group's shared data; a remembered request id
	case after == ":league" && !strings.Contains(tag, "~"):
		return parsed{kind: kindLeague, name: tag}, true
	case strings.Contains(tag, "~") && !strings.HasPrefix(after, ":{") && after != ":meta" && leagueKey(after):
		return parsed{}, false // a league partition's own keys
	}
	p := parsed{kind: kindBoard, name: tag}
	if name, tail, ok := cutBraced(strings.TrimPrefix(after, ":")); ok && strings.HasPrefix(after, ":") {
		p.group, p.name, after = tag, name, tail
	}
	p.other = after != ":meta"
	return p, true
}

// braced returns s's content when s is "{content}" with a content free of
// braces.
func braced(s string) (string, bool) {
	in, rest, ok := cutBraced(s)
	return in, ok && rest == ""
}

// cutBraced splits "{content}rest" into content and rest.
func cutBraced(s string) (content, rest string, ok bool) {
	if !strings.HasPrefix(s, "{") {
		return "", "", false
	}
	end := strings.IndexAny(s[1:], "{}")
	if end <= 0 || s[1+end] != '}' {
		return "", "", false
	}
	return s[1 : 1+end], s[2+end:], true
}

// checkName refuses a name no object of kind can have: empty, or holding
// a brace (each package refuses those too, so none exists).
func checkName(kind, name string) error {
	switch {
	case name == "":
		return usagef("the %s name is empty", kind)
	case strings.ContainsAny(name, "{}"):
		return usagef("the %s name %q holds a brace: no %s has one", kind, name, kind)
	}
	return nil
}

// checkObject reports an object that is not there (naming the other kinds
// that have the name, if any) or whose key holds another Redis type.
func checkObject(ctx context.Context, e *env, kind, name, limiterPrefix string) error {
	if err := checkName(kind, name); err != nil {
		return err
	}
	key, want := mainKey(kind, name, limiterPrefix)
	return checkKey(ctx, e, kind, name, key, want, limiterPrefix)
}

// checkKey is checkObject for the object's key, which holds a Redis want.
func checkKey(ctx context.Context, e *env, kind, name, key, want, limiterPrefix string) error {
	typ, err := e.client.Do(ctx, e.client.B().Type().Key(key).Build()).ToString()
	if re, ok := rueidis.IsRedisErr(err); ok && strings.HasPrefix(re.Error(), "NOPERM") {
		return fmt.Errorf("TYPE %s: %w: the user's ACL has no key pattern for %s %q (docs/operating.md, Least privilege, gives each kind's)", key, err, kind, name)
	}
	if err != nil {
		return fmt.Errorf("TYPE %s: %w", key, err)
	}
	switch typ {
	case want:
		return nil
	case "none":
		return notFound(ctx, e, kind, name, key, limiterPrefix)
	}
	return fmt.Errorf("%s is a Redis %s, not the %s a %s keeps: it is not a tiebreak %s (wrong type)", key, typ, want, kind, kind)
}

// notFound explains that no object of kind is named name, and which other
// kinds are.
func notFound(ctx context.Context, e *env, kind, name, key, limiterPrefix string) error {
	msg := fmt.Sprintf("no %s named %q (no key %s)", kind, name, key)
	if g, n, ok := strings.Cut(name, "/"); ok && kind == kindBoard && g != "" && n != "" {
		msg = fmt.Sprintf("no %s named %q (no key %s for board %q of group %q, nor %s)", kind, name, boardMetaKey(g, n), n, g, key)
	}
	switch kind {
	case kindTimeline, kindMap:
		msg += fmt.Sprintf("; an empty %s has no key", kind)
	case kindBoard:
		if w := aWindowOf(ctx, e, name, time.Now()); w != "" {
			msg += fmt.Sprintf("; %q is a periodic board: its windows are boards of their own, named NAME:LABEL, as %q (tiebreak list --prefix %s lists them)", name, w, name)
		}
		if in := groupedAs(ctx, e, name); len(in) > 0 {
			msg += fmt.Sprintf("; a board of a group is named GROUP/NAME: %s", strings.Join(in, ", "))
		}
		if in := boardsOfGroup(ctx, e, name); len(in) > 0 {
			msg += fmt.Sprintf("; %q is a group: its boards are named GROUP/NAME, as %s", name, strings.Join(in, ", "))
		}
		msg += inLeague(ctx, e, name)
	case kindLimiter:
		if limiterPrefix == defaultLimiterPrefix {
			msg += "; a limiter whose ratelimit.Options.Prefix is not the default is named with --limiter-prefix"
		}
	}
	var others []string
	for _, k := range kinds {
		if k == kind {
			continue
		}
		key, _ := mainKey(k, name, limiterPrefix)
		n, err := e.client.Do(ctx, e.client.B().Exists().Key(key).Build()).AsInt64()
		if err == nil && n == 1 {
			others = append(others, fmt.Sprintf("a %s (%s)", k, key))
		}
	}
	if len(others) > 0 {
		msg += fmt.Sprintf("; %q is %s", name, strings.Join(others, " and "))
	}
	return fmt.Errorf("%s (not found)", msg)
}

// limiterPrefixFlag is the flag naming the limiters' key prefix.
const limiterPrefixHelp = "the limiters' key `prefix` (ratelimit.Options.Prefix)"

var defaultLimiterPrefix = ratelimit.DefaultPrefix

// leagueKey reports whether after (what follows a partition's hash tag)
// names one of a league partition's own keys: its meta HASH, tiers,
// seasons, a season's placements, cohorts or rolled cohorts, or a request
// id a season's write remembers (":<season>:r:<request id>").
func leagueKey(after string) bool {
	switch after {
	case ":league", ":tiers", ":seasons":
		return true
	}
	return strings.HasSuffix(after, ":placed") || strings.HasSuffix(after, ":cohorts") || strings.HasSuffix(after, ":rolled") ||
		strings.Contains(after, ":r:")
}

// hintScan returns the keys matching pattern, sorted, for a hint: found
// by SCAN for a second at most (a large keyspace: a hint is not worth the
// wait), none when it fails.
func hintScan(ctx context.Context, e *env, pattern string) []string {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	keys, err := redisops.ScanKeys(ctx, e.client, pattern)
	if err != nil {
		return nil
	}
	slices.Sort(keys)
	return keys
}

// groupedAs returns the names (GROUP/NAME) of the boards named name in a
// group, at most three, found by SCAN; none when name is itself
// GROUP/NAME, or when the SCAN takes over a second (a large keyspace: the
// hint is not worth the wait).
func groupedAs(ctx context.Context, e *env, name string) []string {
	if strings.Contains(name, "/") {
		return nil
	}
	var out []string
	for _, k := range hintScan(ctx, e, "tb:{*}:{"+globEscape(name)+"}:meta") {
		group, rest, ok := strings.Cut(strings.TrimPrefix(k, "tb:{"), "}:{")
		if ok && rest == name+"}:meta" && len(out) < 3 {
			out = append(out, group+"/"+name)
		}
	}
	return out
}

// boardsOfGroup returns the names (GROUP/NAME) of up to 3 boards of the
// group name, found by SCAN (for a second at most); none for a name
// holding a slash.
func boardsOfGroup(ctx context.Context, e *env, name string) []string {
	if strings.Contains(name, "/") {
		return nil
	}
	var out []string
	for _, k := range hintScan(ctx, e, "tb:{"+globEscape(name)+"}:{*}:meta") {
		n, ok := strings.CutPrefix(k, "tb:{"+name+"}:{")
		if n, ok = strings.CutSuffix(n, "}:meta"); ok && len(out) < 3 {
			out = append(out, name+"/"+n)
		}
	}
	return out
}

// aWindowOf returns the name of a window of the periodic board name
// (group/name for one of a group) that exists: among the daily, weekly
// and monthly windows (UTC) that hold now and the period before, or else
// any window found by SCAN (for a second at most: an Every period's, or
// one of another zone or alignment); "" when none is.
func aWindowOf(ctx context.Context, e *env, name string, now time.Time) string {
	group, n, _ := strings.Cut(name, "/")
	if n == "" {
		group, n = "", name
	}
	if w := aCalendarWindowOf(ctx, e, group, n, now); w != "" {
		return w
	}
	head := strings.TrimSuffix(boardMetaKey(group, n), "}:meta") + ":"
	for _, meta := range hintScan(ctx, e, strings.TrimSuffix(boardMetaKey(globEscape(group), globEscape(n)), "}:meta")+":*}:meta") {
		label, ok := strings.CutPrefix(meta, head)
		if label, ok = strings.CutSuffix(label, "}:meta"); !ok || strings.HasSuffix(label, ":final") {
			continue // an archive, whose window may still be stored
		}
		if group != "" {
			return group + "/" + n + ":" + label
		}
		return n + ":" + label
	}
	return ""
}

// aCalendarWindowOf is aWindowOf among the calendar windows.
func aCalendarWindowOf(ctx context.Context, e *env, group, n string, now time.Time) string {
	for _, p := range []board.Period{board.Daily(time.UTC), board.Weekly(time.UTC), board.Monthly(time.UTC)} {
		for _, at := range []time.Time{now, now.AddDate(0, -1, 0), now.AddDate(0, 0, -7), now.AddDate(0, 0, -1)} {
			w, err := p.Window(at)
			if err != nil {
				continue
			}
			window := n + ":" + w.Label
			if found, err := e.client.Do(ctx, e.client.B().Exists().Key(boardMetaKey(group, window)).Build()).AsInt64(); err == nil && found == 1 {
				if group != "" {
					return group + "/" + window
				}
				return window
			}
		}
	}
	return ""
}

// inLeague explains a board name LEAGUE/NAME whose LEAGUE is a league:
// its cohort boards are in its partitions' groups, LEAGUE~P, and those
// that hold a board NAME are named; "" when LEAGUE is no league.
func inLeague(ctx context.Context, e *env, name string) string {
	lg, n, ok := strings.Cut(name, "/")
	if !ok || strings.Contains(lg, "~") {
		return ""
	}
	_, d, err := readLeague(ctx, e, lg)
	if err != nil {
		return ""
	}
	c := e.client
	cmds := make(rueidis.Commands, d.Partitions)
	for p := range d.Partitions {
		cmds[p] = c.B().Exists().Key(boardMetaKey(lg+"~"+strconv.Itoa(p), n)).Build()
	}
	var in []string
	for p, r := range c.DoMulti(ctx, cmds...) {
		if x, err := r.AsInt64(); err == nil && x == 1 {
			in = append(in, lg+"~"+strconv.Itoa(p)+"/"+n)
		}
	}
	msg := fmt.Sprintf("; %q is a league: its cohort boards are in its partitions' groups, named %s~P/SEASON:TIER:COHORT (%s lists them)", lg, lg, commandLine("league cohorts", []string{lg, "SEASON"}))
	if len(in) > 0 {
		msg += ": " + strings.Join(in, ", ")
	}
	return msg
}
