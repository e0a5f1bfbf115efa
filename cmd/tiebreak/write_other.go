package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/hashtag"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

func timelineRemove(ctx context.Context, e *env, q timelineQuery, ids []string) error {
	if err := q.checkLayout(); err != nil {
		return err
	}
	if len(ids) > timeline.MaxRemove {
		return usagef("%d IDs, over %d: remove them in several runs", len(ids), timeline.MaxRemove)
	}
	switch l := layouts[q.layout].(type) {
	case *tsid.Layout:
		return removeWith(ctx, e, q, l, ids)
	case *tsid.Layout128:
		return removeWith(ctx, e, q, l, ids)
	}
	return fmt.Errorf("layout %s is of no known type", q.layout)
}

// removeWith removes the messages of ids from a timeline of IDs of
// layout l.
func removeWith[ID any](ctx context.Context, e *env, q timelineQuery, l layout[ID], texts []string) error {
	ids := make([]ID, len(texts))
	for i, s := range texts {
		var err error
		if ids[i], err = l.Parse(s); err != nil {
			return usagef("ID %q is not a %s ID: %v", s, q.layout, err)
		}
	}
	tl, err := openTimeline(ctx, e, q, l)
	if err != nil {
		return err
	}
	var found []timeline.Message[ID]
	for _, id := range ids {
		m, err := tl.Get(ctx, id)
		if errors.Is(err, timeline.ErrNotFound) {
			continue
		}
		if err != nil {
			return layoutHint(err, q)
		}
		if !slices.ContainsFunc(found, func(f timeline.Message[ID]) bool { return l.Format(f.ID) == l.Format(m.ID) }) {
			found = append(found, m)
		}
	}
	var out pageOut
	t := &table{header: []string{"ID", "TIME", "PAYLOAD"}}
	addMessages(t, &out, l, found, nil)
	c := changeOut{Command: "timeline remove", Object: q.room, Keys: []string{tl.Key()}, Count: int64(len(found))}
	for _, m := range out.Messages {
		c.Affected = append(c.Affected, m.ID)
	}
	if !e.g.dryRun {
		if c.Count, err = tl.Remove(ctx, ids...); err != nil {
			return layoutHint(err, q)
		}
	}
	return report(e, e.g, c, t, fmt.Sprintf("remove %s of the %d IDs given from timeline %s", count(c.Count, "messages"), len(ids), q.room))
}

func mapRemove(ctx context.Context, e *env, name string, keys []string) error {
	if err := checkDecimals(keys...); err != nil {
		return err
	}
	m, err := openMap(ctx, e, name)
	if err != nil {
		return err
	}
	t := &table{header: []string{"KEY", "VALUES"}}
	c := changeOut{Command: "map remove", Object: name}
	var values int64
	for _, k := range keys {
		es, err := oneKey(ctx, m, k)
		if err != nil {
			return err
		}
		if len(es) == 0 || slices.Contains(c.Affected, es[0].Key) {
			continue
		}
		t.add(es[0].Key, valuesCell(es[0].Values))
		c.Affected = append(c.Affected, es[0].Key)
		values += int64(len(es[0].Values))
	}
	c.Count = int64(len(c.Affected))
	c.Keys = []string{mapEntriesKey(name), mapKeysKey(name)}
	if values > decimalmap.MaxCallValues {
		// Remove refuses it, changing nothing: the dry run says so too.
		return fmt.Errorf("map %s: the %s hold %s, over decimalmap.MaxCallValues = %d that one Remove takes: remove fewer keys at a time",
			name, count(c.Count, "keys"), count(values, "values"), decimalmap.MaxCallValues)
	}
	if !e.g.dryRun {
		if c.Count, err = m.Remove(ctx, keys...); err != nil {
			if errors.Is(err, decimalmap.ErrKey) {
				return usageError{err.Error()}
			}
			return err
		}
	}
	return report(e, e.g, c, t, fmt.Sprintf("remove %s (%s) of the %d given from map %s", count(c.Count, "keys"), count(values, "values"), len(keys), name))
}

func limiterReset(ctx context.Context, e *env, prefix, key string) error {
	if err := hashtag.Check(key, ratelimit.MaxKeyLen, "the limited key", errNoKey); err != nil {
		return usageError{err.Error()}
	}
	if len(prefix) > ratelimit.MaxPrefixLen || strings.ContainsAny(prefix, "{}") || prefix == "" {
		return usagef("--limiter-prefix %q: want 1 to %d bytes without a brace", prefix, ratelimit.MaxPrefixLen)
	}
	rk := limiterKey(prefix, key)
	// A key with nothing logged is no such object, as for every other
	// command (exit 1), though Limiter.Reset of it is no error: the
	// error says so, and names --limiter-prefix, which a reset of the
	// wrong prefix forgot.
	if err := checkObject(ctx, e, kindLimiter, key, prefix); err != nil {
		return err
	}
	n, err := e.client.Do(ctx, e.client.B().Zcard().Key(rk).Build()).AsInt64()
	if err != nil {
		return fmt.Errorf("ZCARD %s: %w", rk, err)
	}
	c := changeOut{Command: "limiter reset", Object: key, Keys: []string{rk}, Count: n, Affected: []string{key}}
	if !e.g.dryRun {
		lim, err := ratelimit.New(e.client, ratelimit.Options{Prefix: prefix})
		if err != nil {
			return err
		}
		if err := lim.Reset(ctx, key); err != nil {
			return err
		}
	}
	return report(e, e.g, c, nil, fmt.Sprintf("forget the %s logged for key %s (remove %s)", count(n, "requests"), key, rk))
}
