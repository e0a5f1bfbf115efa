package timeline

import (
	"slices"
)

// tlModel is the in-memory model of a timeline: messages sorted by ID,
// with the retention applied the way the documentation says.
type tlModel[ID any] struct {
	cmp    func(a, b ID) int
	part   func(ID) uint64 // time part
	maxLen int
	msgs   []Message[ID] // ascending by ID
}

// find returns the index of the first message not below id, and whether
// it is id.
func (m *tlModel[ID]) find(id ID) (int, bool) {
	return slices.BinarySearchFunc(m.msgs, id, func(x Message[ID], id ID) int { return m.cmp(x.ID, id) })
}

// put stores (or replaces) one message, without retention.
func (m *tlModel[ID]) put(id ID, payload []byte) {
	p := slices.Clone(payload)
	i, ok := m.find(id)
	if ok {
		m.msgs[i].Payload = p
		return
	}
	m.msgs = slices.Insert(m.msgs, i, Message[ID]{ID: id, Payload: p})
}

// remove removes the messages of ids and returns how many were stored.
func (m *tlModel[ID]) remove(ids ...ID) int64 {
	var n int64
	for _, id := range ids {
		if i, ok := m.find(id); ok {
			m.msgs = slices.Delete(m.msgs, i, i+1)
			n++
		}
	}
	return n
}

func (m *tlModel[ID]) get(id ID) (Message[ID], bool) {
	i, ok := m.find(id)
	if !ok {
		return Message[ID]{}, false
	}
	return m.msgs[i], true
}

// trim removes the messages whose time part is below cut (when hasCut),
// then all but the maxLen newest (when maxLen > 0).
func (m *tlModel[ID]) trim(hasCut bool, cut uint64) int64 {
	before := len(m.msgs)
	if hasCut {
		m.msgs = slices.DeleteFunc(m.msgs, func(x Message[ID]) bool { return m.part(x.ID) < cut })
	}
	if m.maxLen > 0 && len(m.msgs) > m.maxLen {
		m.msgs = slices.Delete(m.msgs, 0, len(m.msgs)-m.maxLen)
	}
	return int64(before - len(m.msgs))
}

// newestFirst returns the page of msgs[lo:hi] read from hi-1 down.
func (m *tlModel[ID]) newestFirst(lo, hi, n int) Page[ID] {
	var p Page[ID]
	for i := hi - 1; i >= lo && len(p.Messages) < n; i-- {
		p.Messages = append(p.Messages, m.msgs[i])
	}
	p.HasMore = hi-lo > n
	if len(p.Messages) > 0 {
		p.Next = p.Messages[len(p.Messages)-1].ID
	}
	return p
}

func (m *tlModel[ID]) latest(n int) Page[ID] { return m.newestFirst(0, len(m.msgs), n) }

// before and after give an empty page the cursor as its Next.
func (m *tlModel[ID]) before(c ID, n int) Page[ID] {
	i, _ := m.find(c)
	return stayed(m.newestFirst(0, i, n), c)
}

func (m *tlModel[ID]) after(c ID, n int) Page[ID] {
	i, ok := m.find(c)
	if ok {
		i++
	}
	return stayed(m.oldestFirst(i, n), c)
}

func stayed[ID any](p Page[ID], c ID) Page[ID] {
	if len(p.Messages) == 0 {
		p.Next = c
	}
	return p
}

func (m *tlModel[ID]) oldest(n int) Page[ID] { return m.oldestFirst(0, n) }

// oldestFirst returns the page of msgs[i:] read from i up.
func (m *tlModel[ID]) oldestFirst(i, n int) Page[ID] {
	var p Page[ID]
	for ; i < len(m.msgs) && len(p.Messages) < n; i++ {
		p.Messages = append(p.Messages, m.msgs[i])
	}
	p.HasMore = i < len(m.msgs)
	if len(p.Messages) > 0 {
		p.Next = p.Messages[len(p.Messages)-1].ID
	}
	return p
}

// around fills the window one message at a time, older side first up to
// its share, so it is written differently from the script's arithmetic:
// the anchor's own message when stored, floor(slots/2) older, the rest
// newer, either side topping up the other.
func (m *tlModel[ID]) around(c ID, n int) Window[ID] {
	i, ok := m.find(c)
	older := m.msgs[:i]
	newer := m.msgs[i:]
	var self []Message[ID]
	if ok {
		self, newer = newer[:1], newer[1:]
	}
	slots := n - len(self)
	wantOld := slots / 2
	o, w := 0, 0
	for o+w < slots && (o < len(older) || w < len(newer)) {
		switch {
		case o < len(older) && (o < wantOld || w == len(newer)):
			o++
		default:
			w++
		}
	}
	var win Window[ID]
	win.Messages = slices.Concat(older[len(older)-o:], self, newer[:w])
	if len(win.Messages) == 0 {
		win.Messages = nil
	}
	win.HasOlder, win.HasNewer = o < len(older), w < len(newer)
	if len(win.Messages) > 0 {
		win.Older, win.Newer = win.Messages[0].ID, win.Messages[len(win.Messages)-1].ID
	}
	return win
}
