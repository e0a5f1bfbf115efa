package board

import (
	"bytes"
	"sort"

	"github.com/tiebreak/tiebreak/pack"
)

// model is the in-memory board the differential tests compare Redis with.
type model struct {
	layout *pack.Layout
	vals   map[string][]float64
	suffix bool       // the board is KeySuffix: its first field has no width
	ranks  readConfig // the extra ranks sorted fills in (WithRanks)
	hidden map[string]bool
	self   string // an id sorted shows though hidden (a read on its own behalf)
}

func newModel(l *pack.Layout) *model {
	return &model{layout: l, vals: map[string][]float64{}, hidden: map[string]bool{}}
}

// visible is the number of entries others see.
func (m *model) visible() int64 {
	n := int64(0)
	for id := range m.vals {
		if !m.hidden[id] {
			n++
		}
	}
	return n
}

// cmpTuple is -1 when a ranks before b, by fields alone.
func (m *model) cmpTuple(a, b []float64) int {
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		if (a[i] > b[i]) == (m.layout.Field(i).Dir == pack.HigherIsBetter) {
			return -1
		}
		return 1
	}
	return 0
}

// sorted returns the entries best first, ties by id ascending bytes.
func (m *model) sorted() []Entry {
	out := make([]Entry, 0, len(m.vals))
	for id, v := range m.vals {
		if !m.hidden[id] || id == m.self {
			out = append(out, Entry{ID: id, Values: v})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if c := m.cmpTuple(out[i].Values, out[j].Values); c != 0 {
			return c < 0
		}
		return bytes.Compare([]byte(out[i].ID), []byte(out[j].ID)) < 0
	})
	for i := range out {
		out[i].Rank = int64(i + 1)
	}
	comp, dense := int64(0), int64(0)
	for i := range out {
		if i == 0 || m.cmpTuple(out[i-1].Values, out[i].Values) != 0 {
			comp, dense = int64(i+1), dense+1
		}
		if m.ranks.comp {
			out[i].Competition = comp
		}
		if m.ranks.dense {
			out[i].Dense = dense
		}
	}
	if m.ranks.mod {
		upto := int64(len(out))
		for i := len(out) - 1; i >= 0; i-- {
			if i < len(out)-1 && m.cmpTuple(out[i+1].Values, out[i].Values) != 0 {
				upto = int64(i + 1)
			}
			out[i].ModifiedCompetition = upto
		}
	}
	return out
}

// among answers Among(ids) as the board should.
func (m *model) among(ids []string) List {
	l := List{Total: m.total(), Entries: []Entry{}}
	seen := map[string]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	for _, e := range m.sorted() {
		if seen[e.ID] {
			l.Entries = append(l.Entries, e)
		}
	}
	return l
}

// apply applies s as the scripts do, without the rank (which costs a
// sort); ok is false when it must fail.
func (m *model) apply(s Submission) (Result, bool) {
	old, had := m.vals[s.ID]
	nv := append([]float64(nil), s.Values...)
	if had && (s.Fields != nil || s.Policy > Best) {
		for i := range nv {
			p := s.Policy
			if s.Fields != nil {
				p = s.Fields[i]
			}
			switch p {
			case Add:
				nv[i] = old[i] + s.Values[i]
			case Max:
				nv[i] = max(old[i], s.Values[i])
			case Min:
				nv[i] = min(old[i], s.Values[i])
			case Keep:
				nv[i] = old[i]
			}
		}
	}
	for i, v := range nv {
		// For a new id every operator sets, so an increment is a value.
		f := m.layout.Field(i)
		if i == 0 && m.suffix && v >= 0 {
			continue // key suffix: the first field is any float64
		}
		if v < float64(f.Min) || v > float64(f.Max) {
			return Result{}, false
		}
	}
	if had && s.Policy == Best && m.cmpTuple(nv, old) >= 0 {
		nv = old
	}
	changed := !had || m.cmpTuple(nv, old) != 0
	m.vals[s.ID] = nv
	return Result{Changed: changed}, true
}

// submit applies s as the scripts do and returns what Submit returns; ok
// is false when it must fail.
func (m *model) submit(s Submission) (Result, bool) {
	r, ok := m.apply(s)
	if ok {
		m.self = s.ID // a hidden member's write ranks it as it would be
		r.Entry = m.find(s.ID)
		m.self = ""
	}
	return r, ok
}

// trim applies a cap after a write of id whose result was r.
func (m *model) trim(id string, capN int64, r Result) Result {
	all := m.sorted()
	if int64(len(all)) <= capN {
		return r
	}
	for _, e := range all[capN:] {
		delete(m.vals, e.ID)
		if e.ID == id {
			r.Entry.Rank, r.Trimmed = 0, true
		}
	}
	return r
}

func (m *model) find(id string) Entry {
	for _, e := range m.sorted() {
		if e.ID == id {
			return e
		}
	}
	return Entry{}
}

// rank returns id's rank of the given kind, 0 when absent.
func (m *model) rank(id string, kind RankKind) int64 {
	all := m.sorted()
	r, distinct := int64(0), int64(0)
	for i, e := range all {
		if i == 0 || m.cmpTuple(all[i-1].Values, e.Values) != 0 {
			r, distinct = int64(i+1), distinct+1
		}
		if e.ID == id {
			switch kind {
			case Competition:
				return r
			case Dense:
				return distinct
			case ModifiedCompetition:
				upto := i + 1
				for upto < len(all) && m.cmpTuple(all[upto].Values, e.Values) == 0 {
					upto++
				}
				return int64(upto)
			}
			return e.Rank
		}
	}
	return 0
}

func (m *model) page(offset, n int) List {
	all := m.sorted()
	l := List{Total: m.total(), Entries: []Entry{}}
	for i := offset; i < len(all) && i < offset+n; i++ {
		l.Entries = append(l.Entries, all[i])
	}
	return l
}

func (m *model) around(id string, n int) List {
	all := m.sorted()
	r := int(m.find(id).Rank) - 1
	start := r - (n-1)/2
	start = max(0, min(start, len(all)-n))
	return m.page(start, n)
}

func (m *model) between(lo, hi float64, offset, n int) List {
	l := List{Total: m.total(), Entries: []Entry{}}
	skipped := 0
	for _, e := range m.sorted() {
		if e.Values[0] < lo || e.Values[0] > hi {
			continue
		}
		if skipped < offset {
			skipped++
			continue
		}
		if len(l.Entries) < n {
			l.Entries = append(l.Entries, e)
		}
	}
	return l
}

// passed returns the ids an entry now at rank (0: trimmed), before at
// 0-based index oldIdx (-1: new), passed, at most k, best first: those
// now between its new place and its old one, or right behind a new one.
func (m *model) passed(rank int64, oldIdx, k int, id string) []string {
	out := []string{}
	if rank == 0 || m.hidden[id] {
		return out
	}
	all := m.sorted()
	last := int(rank) + k - 1
	if oldIdx >= 0 {
		last = min(last, oldIdx)
	}
	for i := int(rank); i <= last && i < len(all); i++ {
		out = append(out, all[i].ID)
	}
	return out
}

// total is a list's Total as the board gives it: the entries shown, when
// the read asked for them (WithTotal), else -1.
func (m *model) total() int64 {
	if !m.ranks.total {
		return -1
	}
	return m.visible()
}
