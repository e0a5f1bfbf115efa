package decimalmap

import (
	"math/big"
	"slices"
	"testing"

	"github.com/tiebreak/tiebreak/pack"
)

// model is the in-memory map the differential tests compare Redis with:
// keys are big.Rat values, so equal numbers are one key whatever their
// spelling, and order is numeric order, computed without pack's encoding.
type model struct {
	t    testing.TB
	keys map[string]*modelKey // by Rat.RatString()
}

type modelKey struct {
	rat   *big.Rat
	canon string // expected canonical text
	vals  []string
}

func newModel(t testing.TB) *model { return &model{t: t, keys: map[string]*modelKey{}} }

// rat parses key, which the test knows to be valid.
func (m *model) rat(key string) *big.Rat {
	m.t.Helper()
	r, ok := new(big.Rat).SetString(key)
	if !ok {
		m.t.Fatalf("model: big.Rat cannot parse %q", key)
	}
	return r
}

func (m *model) find(key string) (*modelKey, string) {
	id := m.rat(key).RatString()
	return m.keys[id], id
}

func (m *model) add(key string, vals []string) int64 {
	m.t.Helper()
	k, id := m.find(key)
	if k == nil {
		canon, err := pack.CanonicalDecimal(key)
		if err != nil {
			m.t.Fatalf("model: CanonicalDecimal(%q): %v", key, err)
		}
		// The canonical text must be the same number, checked by big.Rat.
		if m.rat(canon).Cmp(m.rat(key)) != 0 {
			m.t.Fatalf("model: canonical text %q of %q is another number", canon, key)
		}
		k = &modelKey{rat: m.rat(key), canon: canon}
		m.keys[id] = k
	}
	k.vals = append(k.vals, vals...)
	return int64(len(k.vals))
}

func (m *model) get(key string) []string {
	if k, _ := m.find(key); k != nil {
		return slices.Clone(k.vals)
	}
	return []string{}
}

// remove removes keys and returns how many distinct keys were there.
func (m *model) remove(keys []string) int64 {
	var n int64
	for _, key := range keys {
		if k, id := m.find(key); k != nil {
			delete(m.keys, id)
			n++
		}
	}
	return n
}

func (m *model) removeValue(key, val string) bool {
	k, id := m.find(key)
	if k == nil {
		return false
	}
	i := slices.Index(k.vals, val)
	if i < 0 {
		return false
	}
	if k.vals = slices.Delete(k.vals, i, i+1); len(k.vals) == 0 {
		delete(m.keys, id)
	}
	return true
}

// sorted returns every key, smallest first.
func (m *model) sorted() []*modelKey {
	out := make([]*modelKey, 0, len(m.keys))
	for _, k := range m.keys {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b *modelKey) int { return a.rat.Cmp(b.rat) })
	return out
}

// inside reports whether r is on the right side of b: lower for a lower
// bound, else upper.
func (m *model) inside(r *big.Rat, b Bound, lower bool) bool {
	if b.kind == unbounded {
		return true
	}
	c := r.Cmp(m.rat(b.key))
	if !lower {
		c = -c
	}
	return c > 0 || (c == 0 && b.kind == inclusive)
}

func (m *model) query(q Query) []Entry {
	out := []Entry{}
	for _, k := range m.sorted() {
		if m.inside(k.rat, q.Min, true) && m.inside(k.rat, q.Max, false) {
			out = append(out, Entry{Key: k.canon, Values: slices.Clone(k.vals)})
		}
	}
	if q.Reverse {
		slices.Reverse(out)
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out
}
