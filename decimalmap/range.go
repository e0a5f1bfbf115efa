package decimalmap

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/internal/redisretry"
)

// Entry is one key of the map with its values.
type Entry struct {
	// Key is the key's canonical text (see pack.DecodeDecimal): "25500.1"
	// for a key added as "25500.10", "1E+31", "-0.5", "0".
	Key string
	// Values holds the key's values in insertion order, repeats kept.
	Values []string
}

type boundKind uint8

const (
	unbounded boundKind = iota
	inclusive
	exclusive
)

// Bound is one end of a key range. The zero Bound is unbounded.
type Bound struct {
	key    string
	kind   boundKind
	cursor bool // a Scan's cursor: a key the map gave, of at most MaxKeyLenLimit bytes
}

// Inclusive is a bound that includes key itself.
func Inclusive(key string) Bound { return Bound{key: key, kind: inclusive} }

// Exclusive is a bound that excludes key itself.
func Exclusive(key string) Bound { return Bound{key: key, kind: exclusive} }

// Unbounded is the bound that lets a range extend to the smallest or the
// largest key; it is the zero Bound.
func Unbounded() Bound { return Bound{} }

// lex returns b as ZRANGE BYLEX bounds on the keys and on the entries,
// the lower end of a range if lower, else the upper end; what names b in
// errors. An entry of key k lies between enc(k) and enc(k) followed by
// byte 0xff (see the package documentation).
func (m *Map) lex(what string, b Bound, lower bool) (keys, entries string, err error) {
	if b.kind == unbounded {
		if lower {
			return "-", "-", nil
		}
		return "+", "+", nil
	}
	if b.kind != inclusive && b.kind != exclusive {
		return "", "", fmt.Errorf("decimalmap: %s: bound kind %d, want unbounded, inclusive or exclusive: %w", what, b.kind, ErrArgument)
	}
	maxLen := m.opts.MaxKeyLen
	if b.cursor {
		maxLen = MaxKeyLenLimit
	}
	enc, err := m.encodeAs(what, b.key, ErrKey, maxLen)
	if err != nil {
		return "", "", err
	}
	switch {
	case b.kind == inclusive && lower:
		return "[" + enc, "[" + enc, nil
	case lower: // exclusive: above every entry of enc
		return "(" + enc, "[" + enc + "\xff", nil
	case b.kind == inclusive:
		return "[" + enc, "(" + enc + "\xff", nil
	}
	return "(" + enc, "(" + enc, nil
}

// Query selects keys for Range. The zero Query selects every key, smallest
// first.
type Query struct {
	// Min and Max bound the keys, each inclusive, exclusive or unbounded
	// (the zero Bound). Min is the lower end in both directions; when Min
	// is above Max the range is empty.
	Min, Max Bound
	// Reverse returns the largest key first. Default false: smallest first.
	Reverse bool
	// Limit is the most keys returned, counted from the start of the
	// direction (from Max when Reverse). Default 0: no limit. Negative is
	// refused.
	Limit int
}

// Range returns the keys of q's range with their values, in q's direction,
// in one round trip and one snapshot, whatever the number of keys: one
// MULTI/EXEC reads the keys (one ZRANGE), then the values of the range's
// keys (another ZRANGE; see the package documentation). To page through a
// large range, pass the last key returned as the next query's Exclusive
// bound (as Scan does).
//
// It refuses a malformed bound key (ErrKey), a negative limit, and a range
// whose keys (up to Limit) hold more than MaxCallValues values
// (ErrArgument): set a Limit, or use Scan, whose pages fit that bound.
func (m *Map) Range(ctx context.Context, q Query) ([]Entry, error) {
	if err := m.usable(ctx); err != nil {
		return nil, err
	}
	if m.opts.Observer != nil {
		return observed.Call(ctx, m.opts.Observer, m.op("Range", q.Limit), errKinds, func(ctx context.Context) ([]Entry, error) { return m.rangeOf(ctx, q) }, entriesOutcome)
	}
	return m.rangeOf(ctx, q)
}

// rangeOf is Range.
func (m *Map) rangeOf(ctx context.Context, q Query) ([]Entry, error) {
	if q.Limit < 0 {
		return nil, fmt.Errorf("decimalmap: range: Query.Limit = %d out of range [0, %d] (0 for no limit): %w", q.Limit, math.MaxInt, ErrArgument)
	}
	limit := q.Limit
	if limit == 0 {
		limit = -1
	}
	entries, _, err := m.rangeEntries(ctx, "range: Query.", q.Min, q.Max, q.Reverse, limit, false)
	return entries, err
}

// rangeEntries reads the keys of a range, in its direction, and their
// values, in one MULTI/EXEC (one round trip, one snapshot): up to limit+1
// keys (limit -1: all) and up to MaxCallValues+1 entries between the same
// bounds. more reports a further key beyond those returned. When the keys
// to return hold more than MaxCallValues values, fit returns fewer keys
// (and more), and without it the range is refused (ErrArgument). what
// prefixes "Min" and "Max" in errors.
func (m *Map) rangeEntries(ctx context.Context, what string, min, max Bound, rev bool, limit int, fit bool) (entries []Entry, more bool, err error) {
	kLo, eLo, err := m.lex(what+"Min", min, true)
	if err != nil {
		return nil, false, err
	}
	kHi, eHi, err := m.lex(what+"Max", max, false)
	if err != nil {
		return nil, false, err
	}
	fetch := MaxCallValues + 1 // a key holds a value at least: more keys are over the budget
	if limit >= 0 && limit < MaxCallValues {
		fetch = limit + 1
	}
	keys, members, err := m.readRange(ctx, [2]string{kLo, kHi}, [2]string{eLo, eHi}, rev, fetch)
	if err != nil {
		return nil, false, err
	}
	take := len(keys)
	if limit >= 0 && take > limit {
		take, more = limit, true
	}
	runs, encs, err := groupEntries(members, rev)
	if err != nil {
		return nil, false, err
	}
	whole := len(runs) // the runs read to their end
	if len(members) > MaxCallValues && whole > 0 {
		whole--
	}
	if whole < take && len(members) <= MaxCallValues {
		// Every value between the bounds was read, one snapshot: keys
		// without a value, which no write of the package leaves.
		return nil, false, fmt.Errorf("decimalmap: range: %d of the keys selected hold no value (written by something else?): %w", take-whole, ErrReply)
	}
	if whole < take {
		if !fit || whole == 0 {
			return nil, false, fmt.Errorf("decimalmap: range: the keys selected hold more than MaxCallValues = %d values: set Query.Limit or use Scan: %w",
				MaxCallValues, ErrArgument)
		}
		take, more = whole, true
	}
	if !slices.Equal(encs[:take], keys[:take]) {
		return nil, false, fmt.Errorf("decimalmap: range: the keys read and the keys of the values read differ: %w", ErrReply)
	}
	return runs[:take], more, nil
}

// readRange runs the two ZRANGEs of rangeEntries in one MULTI/EXEC: the
// keys between kb, at most fetch, and the entries between eb, at most
// MaxCallValues+1, both in the direction rev says.
func (m *Map) readRange(ctx context.Context, kb, eb [2]string, rev bool, fetch int) (keys, members []string, err error) {
	b := m.client.B()
	res := redisretry.DoReadMulti(ctx, m.client, func() rueidis.Commands {
		if rev {
			return rueidis.Commands{b.Multi().Build(),
				b.Zrange().Key(m.keys.index).Min(kb[1]).Max(kb[0]).Bylex().Rev().Limit(0, int64(fetch)).Build(),
				b.Zrange().Key(m.keys.entries).Min(eb[1]).Max(eb[0]).Bylex().Rev().Limit(0, MaxCallValues+1).Build(),
				b.Exec().Build()}
		}
		kr := b.Zrange().Key(m.keys.index).Min(kb[0]).Max(kb[1]).Bylex().Limit(0, int64(fetch)).Build()
		er := b.Zrange().Key(m.keys.entries).Min(eb[0]).Max(eb[1]).Bylex().Limit(0, MaxCallValues+1).Build()
		return rueidis.Commands{b.Multi().Build(), kr, er, b.Exec().Build()}
	})
	for _, r := range res[:3] { // OK, QUEUED, QUEUED
		if err := r.Error(); err != nil {
			return nil, nil, redisErr("range", err)
		}
	}
	got, err := res[3].ToArray()
	if err != nil {
		return nil, nil, redisErr("range", err)
	}
	if len(got) == 2 {
		keys, err = got[0].AsStrSlice()
		if err == nil {
			members, err = got[1].AsStrSlice()
		}
	}
	if _, ok := rueidis.IsRedisErr(err); ok {
		return nil, nil, redisErr("range", err) // a command of the transaction failed: WRONGTYPE
	}
	if len(got) != 2 || err != nil {
		return nil, nil, fmt.Errorf("decimalmap: range: transaction reply of the wrong shape: %w", ErrReply)
	}
	return keys, members, nil
}

// groupEntries turns entry members, in key order (descending if rev),
// into one Entry per key, values in insertion order, and returns the keys'
// encodings too, in the same order. The values of all entries share one
// array.
func groupEntries(members []string, rev bool) ([]Entry, []string, error) {
	if rev {
		slices.Reverse(members) // ascending, so each key's values are in order
	}
	entries := make([]Entry, 0, 8)
	encs := make([]string, 0, 8)
	values := make([]string, len(members))
	prev, start := "", 0
	for i, member := range members {
		enc, value, err := splitEntry(member, prev)
		if err != nil {
			return nil, nil, err
		}
		values[i] = value
		if enc == prev {
			continue
		}
		key, err := decode(enc)
		if err != nil {
			return nil, nil, err
		}
		if len(entries) > 0 {
			entries[len(entries)-1].Values = values[start:i:i]
		}
		entries, encs = append(entries, Entry{Key: key}), append(encs, enc)
		prev, start = enc, i
	}
	if len(entries) > 0 {
		entries[len(entries)-1].Values = values[start:len(members):len(members)]
	}
	if rev {
		slices.Reverse(entries)
		slices.Reverse(encs)
	}
	return entries, encs, nil
}
