package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/pack"
)

func mapCommands() []*command {
	return []*command{
		{name: "map range", args: []string{"NAME"}, help: "a decimal map's keys in a range, in order, with their values",
			setup: func(fs *flag.FlagSet) runFunc {
				var r mapRange
				fs.StringVar(&r.min, "min", "", "lowest `key`, included")
				fs.StringVar(&r.gt, "gt", "", "keys greater than this `key`")
				fs.StringVar(&r.max, "max", "", "highest `key`, included")
				fs.StringVar(&r.lt, "lt", "", "keys less than this `key`")
				fs.BoolVar(&r.reverse, "reverse", false, "largest key first (n counted from the top)")
				fs.IntVar(&r.n, "n", 100, "at most this many keys")
				return func(ctx context.Context, e *env, a []string) error { return mapRangeRun(ctx, e, a[0], r) }
			}},
		{name: "map get", args: []string{"NAME", "KEY"}, help: "the values of one key of a decimal map",
			setup: func(fs *flag.FlagSet) runFunc {
				return func(ctx context.Context, e *env, a []string) error { return mapGet(ctx, e, a[0], a[1]) }
			}},
	}
}

// mapRange is the flags of map range.
type mapRange struct {
	min, gt, max, lt string
	reverse          bool
	n                int
}

// query returns the range as a decimalmap.Query, asking for one key more
// than shown to tell whether more follow.
func (r mapRange) query() (decimalmap.Query, error) {
	lo, err := bound("--min", r.min, "--gt", r.gt)
	if err != nil {
		return decimalmap.Query{}, err
	}
	hi, err := bound("--max", r.max, "--lt", r.lt)
	if err != nil {
		return decimalmap.Query{}, err
	}
	if r.n < 1 {
		return decimalmap.Query{}, usagef("-n %d, want 1 or more", r.n)
	}
	return decimalmap.Query{Min: lo, Max: hi, Reverse: r.reverse, Limit: r.n + 1}, nil
}

// bound returns the bound of an inclusive and an exclusive flag, at most
// one of them given.
func bound(inName, in, exName, ex string) (decimalmap.Bound, error) {
	switch {
	case in != "" && ex != "":
		return decimalmap.Bound{}, usagef("%s and %s both given: one bounds that end", inName, exName)
	case in != "":
		return decimalmap.Inclusive(in), nil
	case ex != "":
		return decimalmap.Exclusive(ex), nil
	}
	return decimalmap.Unbounded(), nil
}

// mapEntry is a key and its values in JSON.
type mapEntry struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// mapGetOut is map get's answer in JSON: the entry, named by its map as
// map range's is.
type mapGetOut struct {
	Map string `json:"map"`
	mapEntry
}

// rangeOut is map range's answer in JSON.
type rangeOut struct {
	Map     string     `json:"map"`
	Entries []mapEntry `json:"entries"`
	HasMore bool       `json:"hasMore"`
	// Next, when more keys follow, is the last key listed: the next range
	// starts past it (--gt it, or --lt it with --reverse).
	Next string `json:"next,omitempty"`
}

// next is the command that lists the range after r's, from past last.
func (r mapRange) next(name, last string) string {
	flags := []string{"--gt", last}
	if r.max != "" {
		flags = append(flags, "--max", r.max)
	} else if r.lt != "" {
		flags = append(flags, "--lt", r.lt)
	}
	if r.reverse {
		flags = []string{"--lt", last}
		if r.min != "" {
			flags = append(flags, "--min", r.min)
		} else if r.gt != "" {
			flags = append(flags, "--gt", r.gt)
		}
		flags = append(flags, "--reverse")
	}
	return commandLine("map range", []string{name}, append(flags, "-n", strconv.Itoa(r.n))...)
}

func mapRangeRun(ctx context.Context, e *env, name string, r mapRange) error {
	q, err := r.query()
	if err != nil {
		return err
	}
	m, err := openMap(ctx, e, name)
	if err != nil {
		return err
	}
	es, err := m.Range(ctx, q)
	switch {
	case errors.Is(err, decimalmap.ErrKey):
		return usageError{err.Error()}
	case errors.Is(err, decimalmap.ErrArgument):
		return fmt.Errorf("%w (lower -n)", err)
	case err != nil:
		return err
	}
	out := rangeOut{Map: name, Entries: []mapEntry{}, HasMore: len(es) > r.n}
	t := &table{header: []string{"KEY", "VALUES"}}
	for _, en := range es[:min(len(es), r.n)] {
		out.Entries = append(out.Entries, mapEntry{Key: en.Key, Values: en.Values})
		t.add(en.Key, valuesCell(en.Values))
	}
	if out.HasMore {
		out.Next = out.Entries[len(out.Entries)-1].Key
		t.note("more keys follow: %s", r.next(name, out.Next))
	}
	return e.out.emit(out, t)
}

// valuesCell shows a key's values in a table cell.
func valuesCell(vs []string) string {
	cells := make([]string, len(vs))
	for i, v := range vs {
		cells[i] = text([]byte(v))
	}
	return strings.Join(cells, ", ")
}

func mapGet(ctx context.Context, e *env, name, key string) error {
	if err := checkDecimals(key); err != nil {
		return err
	}
	m, err := openMap(ctx, e, name)
	if err != nil {
		return err
	}
	// A range of one key gives its canonical text too.
	es, err := oneKey(ctx, m, key)
	if err != nil {
		return err
	}
	if len(es) == 0 {
		return fmt.Errorf("key %s is not in map %q (not found)", key, name)
	}
	t := &table{header: []string{"KEY", "VALUES"}}
	t.add(es[0].Key, valuesCell(es[0].Values))
	return e.out.emit(mapGetOut{Map: name, mapEntry: mapEntry{Key: es[0].Key, Values: es[0].Values}}, t)
}

// openMap checks that map name exists and returns a handle to it.
func openMap(ctx context.Context, e *env, name string) (*decimalmap.Map, error) {
	if err := checkObject(ctx, e, kindMap, name, defaultLimiterPrefix); err != nil {
		return nil, err
	}
	return decimalmap.New(e.client, name, decimalmap.Options{})
}

// checkDecimals refuses, as a usage error that says so, a key that is no
// decimal.
func checkDecimals(keys ...string) error {
	for _, k := range keys {
		if _, err := pack.CanonicalDecimal(k); err != nil {
			return usagef("key %q is not a decimal: %v", k, err)
		}
	}
	return nil
}

// oneKey reads key of m (its canonical text and values) as a range of one
// key: none when it is not in m.
func oneKey(ctx context.Context, m *decimalmap.Map, key string) ([]decimalmap.Entry, error) {
	es, err := m.Range(ctx, decimalmap.Query{Min: decimalmap.Inclusive(key), Max: decimalmap.Inclusive(key)})
	if errors.Is(err, decimalmap.ErrKey) {
		return nil, usageError{err.Error()}
	}
	return es, err
}
