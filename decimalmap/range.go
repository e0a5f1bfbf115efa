package decimalmap

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/redis/rueidis"
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
	key  string
	kind boundKind
}

// Inclusive is a bound that includes key itself.
func Inclusive(key string) Bound { return Bound{key: key, kind: inclusive} }

// Exclusive is a bound that excludes key itself.
func Exclusive(key string) Bound { return Bound{key: key, kind: exclusive} }

// Unbounded is the bound that lets a range extend to the smallest or the
// largest key; it is the zero Bound.
func Unbounded() Bound { return Bound{} }

// lex returns b as a ZRANGE BYLEX bound; open is "-" or "+", the bound an
// unbounded end takes; what names b in errors.
func (m *Map) lex(what string, b Bound, open string) (string, error) {
	switch b.kind {
	case unbounded:
		return open, nil
	case inclusive, exclusive:
		enc, err := m.encode(what, b.key)
		if err != nil {
			return "", err
		}
		if b.kind == inclusive {
			return "[" + enc, nil
		}
		return "(" + enc, nil
	}
	return "", fmt.Errorf("decimalmap: %s: bound kind %d, want unbounded, inclusive or exclusive: %w", what, b.kind, ErrArgument)
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
// script reads the keys, then every value of them in one ZRANGE. To page through a large range,
// pass the last key returned as the next query's Exclusive bound (as Scan
// does).
//
// It refuses a malformed bound key (ErrKey) and a negative limit
// (ErrArgument).
func (m *Map) Range(ctx context.Context, q Query) ([]Entry, error) {
	if q.Limit < 0 {
		return nil, fmt.Errorf("decimalmap: range: Query.Limit = %d out of range [0, %d] (0 for no limit): %w", q.Limit, math.MaxInt, ErrArgument)
	}
	limit := q.Limit
	if limit == 0 {
		limit = -1
	}
	entries, _, err := m.rangeEntries(ctx, "range: Query.", q.Min, q.Max, q.Reverse, limit)
	return entries, err
}

// rangeEntries runs range.lua; limit -1 means all. more reports a further
// key in range beyond those returned. what prefixes "Min" and "Max" in
// errors.
func (m *Map) rangeEntries(ctx context.Context, what string, min, max Bound, rev bool, limit int) (entries []Entry, more bool, err error) {
	lo, err := m.lex(what+"Min", min, "-")
	if err != nil {
		return nil, false, err
	}
	hi, err := m.lex(what+"Max", max, "+")
	if err != nil {
		return nil, false, err
	}
	fetch := "-1" // members to read: one more than limit, to learn of more
	if limit >= 0 && limit < math.MaxInt {
		fetch = strconv.Itoa(limit + 1)
	}
	args := []string{lo, hi, "0", strconv.Itoa(limit), fetch}
	if rev {
		args[0], args[1], args[2] = hi, lo, "1"
	}
	return parseRange(rangeScript.Exec(ctx, m.client, m.keys.all(), args), rev)
}

// parseRange reads range.lua's reply, {more, keys, entries}: the entries
// of the keys, ascending, grouped into one Entry per key, largest key
// first if rev.
func parseRange(r rueidis.RedisResult, rev bool) ([]Entry, bool, error) {
	arr, err := r.ToArray()
	if err != nil {
		return nil, false, redisErr("range", err)
	}
	if len(arr) != 3 {
		return nil, false, fmt.Errorf("decimalmap: range reply of %d elements: %w", len(arr), ErrReply)
	}
	more, err1 := arr[0].AsInt64()
	keys, err2 := arr[1].AsInt64()
	members, err3 := arr[2].AsStrSlice()
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, false, fmt.Errorf("decimalmap: range reply of the wrong shape: %w", ErrReply)
	}
	entries, err := groupEntries(members, int(keys))
	if err != nil {
		return nil, false, err
	}
	if rev {
		slices.Reverse(entries)
	}
	return entries, more == 1, nil
}

// groupEntries turns entry members, ascending, into one Entry per key;
// there must be keys of them. The values of all entries share one array.
func groupEntries(members []string, keys int) ([]Entry, error) {
	entries := make([]Entry, 0, keys)
	values := make([]string, len(members))
	prev, start := "", 0
	for i, member := range members {
		enc, value, err := splitEntry(member, prev)
		if err != nil {
			return nil, err
		}
		values[i] = value
		if enc == prev {
			continue
		}
		key, err := decode(enc)
		if err != nil {
			return nil, err
		}
		if len(entries) > 0 {
			entries[len(entries)-1].Values = values[start:i:i]
		}
		entries = append(entries, Entry{Key: key})
		prev, start = enc, i
	}
	if len(entries) != keys {
		return nil, fmt.Errorf("decimalmap: range read %d keys holding values, want %d: %w", len(entries), keys, ErrReply)
	}
	if keys > 0 {
		entries[keys-1].Values = values[start:len(members):len(members)]
	}
	return entries, nil
}
