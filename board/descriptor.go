package board

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tiebreak/tiebreak/pack"
)

// descriptorVersion is the format version of the descriptors this package
// writes and reads.
const descriptorVersion = 1

// descriptor is what a board stores about itself, beside its entries: its
// layout and the options that decide how entries are stored. Every handle
// to a board must agree with it (New refuses one that does not), and Open
// builds a handle from it alone.
//
// It is kept as JSON in the HASH field "desc" of tb:{name}:meta, readable
// in redis-cli:
//
//	{"version":1,"radix":2,"fields":[{"name":"points","width":20,"dir":"HigherIsBetter"},...],
//	 "strategy":"PackedScore","cap":0,"denseRanks":false}
//
// (a KeySuffix board adds "lookup":"hashed-buckets").
//
// MaxIDLen and UpdateAttempts are not in it: they bound what one handle
// sends, not how the board is stored.
type descriptor struct {
	// Version is the format version, descriptorVersion.
	Version int `json:"version"`
	// Radix is 2 for a bit-field layout (pack.NewLayout), 10 for a digit
	// layout (pack.NewDigitLayout).
	Radix int `json:"radix"`
	// Fields are the layout's fields, most significant first.
	Fields []fieldDescriptor `json:"fields"`
	// Strategy is Options.Strategy, by name: "PackedScore" or "KeySuffix".
	Strategy string `json:"strategy"`
	// Cap is Options.Cap.
	Cap int64 `json:"cap"`
	// DenseRanks is Options.DenseRanks.
	DenseRanks bool `json:"denseRanks"`
	// SharedData is Options.SharedData.
	SharedData bool `json:"sharedData,omitempty"`
	// Shards is the number of shards of a sharded board (Options.Shards); 0
	// for a board that is not sharded.
	Shards int `json:"shards,omitempty"`
	// ShardNames are the names of a sharded board's shards, in shard
	// order: each is a board of its own, with this descriptor less the
	// shard fields.
	ShardNames []string `json:"shardNames,omitempty"`
	// ShardGen counts the reshardings of a sharded board (Reshard): the
	// names of its shards change at each.
	ShardGen int `json:"shardGen,omitempty"`
	// Hiding is Options.Hiding.
	Hiding bool `json:"hiding,omitempty"`
	// KeepTop is Options.KeepTop.
	KeepTop int `json:"keepTop,omitempty"`
	// Bounds are Options.Bounds, in field order; absent for none.
	Bounds []boundDescriptor `json:"bounds,omitempty"`
	// Rules are Options.Rules; absent for none.
	Rules *rulesDescriptor `json:"rules,omitempty"`
	// Lookup is how a KeySuffix board finds an id's member: lookupBuckets.
	// Always "" for PackedScore.
	Lookup string `json:"lookup,omitempty"`
}

// lookupBuckets is descriptor.Lookup of a KeySuffix board whose ids are
// hashed into buckets: tb:{name}:i is a HASH of buckets, each field
// holding the ids of one bucket with their hashes and their members'
// prefixes (lua/lookup.lua). A layout of one field has no prefixes, so it
// keeps no HASH (its member is the id, Board.lookup). The name changes
// with the records' format, so that a board stored in another is refused
// (errDescriptor, ErrMismatch) rather than misread.
const lookupBuckets = "hashed-buckets"

// fieldDescriptor is one field of a descriptor.
type fieldDescriptor struct {
	// Name is pack.Field.Name.
	Name string `json:"name"`
	// Width is pack.Field.Width: bits, or digits when Radix is 10.
	Width int `json:"width"`
	// Dir is pack.Field.Dir, by name: "HigherIsBetter" or "LowerIsBetter".
	Dir string `json:"dir"`
	// Signed is pack.Field.Signed.
	Signed bool `json:"signed,omitempty"`
}

// describe returns the descriptor of a board with layout l and options o.
func describe(l *pack.Layout, o Options) descriptor {
	d := descriptor{Version: descriptorVersion, Radix: l.Radix(), Strategy: o.Strategy.String(), Cap: o.Cap, DenseRanks: o.DenseRanks, SharedData: o.SharedData, Rules: describeRules(o.Rules, o.round), Hiding: o.Hiding, KeepTop: o.KeepTop}
	for _, f := range l.Fields() {
		for _, bd := range o.Bounds {
			if bd.Field == f.Name {
				d.Bounds = append(d.Bounds, boundDescriptor{Field: bd.Field, Min: bd.Min, Max: bd.Max})
				break
			}
		}
	}
	if o.Strategy == KeySuffix {
		d.Lookup = lookupBuckets
	}
	for _, f := range l.Fields() {
		d.Fields = append(d.Fields, fieldDescriptor{Name: f.Name, Width: f.Width, Dir: f.Dir.String(), Signed: f.Signed})
	}
	return d
}

// encoded is the descriptor's canonical JSON: the same descriptor always
// gives the same bytes, so scripts compare descriptors as strings.
func (d descriptor) encoded() string {
	j, _ := json.Marshal(d) // plain strings, ints and bools: cannot fail
	return string(j)
}

// parseDescriptor reads a stored descriptor. It refuses (ErrMismatch)
// malformed JSON and a version it does not know.
func parseDescriptor(name, s string) (descriptor, error) {
	var d descriptor
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return d, fmt.Errorf("board: %s: stored descriptor is not valid JSON (%v): %w", name, err, errDescriptor)
	}
	if d.Version != descriptorVersion {
		return d, fmt.Errorf("board: %s: stored descriptor has version %d, this package reads %d: %w", name, d.Version, descriptorVersion, errDescriptor)
	}
	return d, nil
}

// build returns the layout and options the descriptor describes. It
// refuses (ErrMismatch) one that no layout or options could give.
func (d descriptor) build(name string) (*pack.Layout, Options, error) {
	fields := make([]pack.Field, len(d.Fields))
	for i, f := range d.Fields {
		dir, ok := map[string]pack.Direction{"HigherIsBetter": pack.HigherIsBetter, "LowerIsBetter": pack.LowerIsBetter}[f.Dir]
		if !ok {
			return nil, Options{}, fmt.Errorf("board: %s: stored field %q has direction %q: %w", name, f.Name, f.Dir, errDescriptor)
		}
		fields[i] = pack.Field{Name: f.Name, Width: f.Width, Dir: dir, Signed: f.Signed}
	}
	newLayout := map[int]func(...pack.Field) (*pack.Layout, error){2: pack.NewLayout, 10: pack.NewDigitLayout}[d.Radix]
	if newLayout == nil {
		return nil, Options{}, fmt.Errorf("board: %s: stored radix %d, want 2 or 10: %w", name, d.Radix, errDescriptor)
	}
	l, err := newLayout(fields...)
	if err != nil {
		return nil, Options{}, fmt.Errorf("board: %s: stored layout: %w: %w", name, errDescriptor, err)
	}
	s, ok := map[string]Strategy{"PackedScore": PackedScore, "KeySuffix": KeySuffix}[d.Strategy]
	if !ok {
		return nil, Options{}, fmt.Errorf("board: %s: stored strategy %q: %w", name, d.Strategy, errDescriptor)
	}
	o := Options{Strategy: s, Cap: d.Cap, DenseRanks: d.DenseRanks, SharedData: d.SharedData, Rules: d.Rules.rules(), Hiding: d.Hiding, KeepTop: d.KeepTop, round: d.Rules.round()}
	for _, bd := range d.Bounds {
		o.Bounds = append(o.Bounds, Bound{Field: bd.Field, Min: bd.Min, Max: bd.Max})
	}
	if err := o.Rules.check(); err != nil {
		return nil, Options{}, fmt.Errorf("board: %s: stored rules: %w: %w", name, errDescriptor, err)
	}
	if d.Lookup != describe(l, o).Lookup {
		return nil, Options{}, fmt.Errorf("board: %s: stored lookup %q for strategy %s, want %q (KeySuffix) or none: %w", name, d.Lookup, d.Strategy, lookupBuckets, errDescriptor)
	}
	return l, o, nil
}

// diff names the first setting in which given differs from stored, as
// "setting: stored X, given Y", or returns "" when they agree.
func diff(stored, given descriptor) string {
	switch {
	case stored.Radix != given.Radix:
		return fmt.Sprintf("layout radix: stored %d, given %d", stored.Radix, given.Radix)
	case len(stored.Fields) != len(given.Fields):
		return fmt.Sprintf("number of fields: stored %d (%s), given %d (%s)",
			len(stored.Fields), fieldNames(stored), len(given.Fields), fieldNames(given))
	case stored.Strategy != given.Strategy:
		return fmt.Sprintf("Strategy: stored %s, given %s", stored.Strategy, given.Strategy)
	case stored.Cap != given.Cap:
		return fmt.Sprintf("Cap: stored %d, given %d", stored.Cap, given.Cap)
	case stored.DenseRanks != given.DenseRanks:
		return fmt.Sprintf("DenseRanks: stored %t, given %t", stored.DenseRanks, given.DenseRanks)
	case stored.SharedData != given.SharedData:
		return fmt.Sprintf("SharedData: stored %t, given %t", stored.SharedData, given.SharedData)
	case stored.Hiding != given.Hiding:
		return fmt.Sprintf("Hiding: stored %t, given %t", stored.Hiding, given.Hiding)
	case stored.KeepTop != given.KeepTop:
		return fmt.Sprintf("KeepTop: stored %d, given %d", stored.KeepTop, given.KeepTop)
	case boundsString(stored.Bounds) != boundsString(given.Bounds):
		return fmt.Sprintf("Bounds: stored %s, given %s", boundsString(stored.Bounds), boundsString(given.Bounds))
	case stored.Rules.String() != given.Rules.String():
		return fmt.Sprintf("Rules: stored %s, given %s", stored.Rules, given.Rules)
	case stored.Shards != given.Shards:
		return fmt.Sprintf("shards: stored %d, given %d", stored.Shards, given.Shards)
	case stored.ShardGen != given.ShardGen:
		return fmt.Sprintf("shard generation: stored %d, given %d", stored.ShardGen, given.ShardGen)
	case !slices.Equal(stored.ShardNames, given.ShardNames):
		return fmt.Sprintf("shard names: stored %q, given %q", stored.ShardNames, given.ShardNames)
	}
	for i, s := range stored.Fields {
		if g := given.Fields[i]; s != g {
			return fmt.Sprintf("field %d: stored %s, given %s", i, s, g)
		}
	}
	return ""
}

func fieldNames(d descriptor) string {
	names := make([]string, len(d.Fields))
	for i, f := range d.Fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// String describes the field as in pack.Layout.String: "time:32/lower".
func (f fieldDescriptor) String() string {
	s := fmt.Sprintf("%s:%d", f.Name, f.Width)
	if f.Dir != pack.HigherIsBetter.String() {
		s += "/lower"
	}
	if f.Signed {
		s += "/signed"
	}
	return s
}

// luaString writes s as a Lua long string, [[...]] or [=[...]=] and so on,
// with the fewest '=' that do not occur in s: its bytes are taken as they
// are, with no escapes, so the descriptor reads in the golden scripts as
// it is stored.
func luaString(s string) string {
	eq := ""
	for strings.Contains(s+"]", "]"+eq+"]") {
		eq += "="
	}
	return "[" + eq + "[" + s + "]" + eq + "]"
}
