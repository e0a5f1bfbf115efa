package main

import (
	"strconv"

	"github.com/tiebreak/tiebreak/pack"
)

// The fields of every board: points (higher first), paid flag
// (paid first) and time (earlier first), widened to fill the 53 bits a
// score holds exactly.
const (
	pointsBits = 30
	timeBits   = 22
)

// benchLayout is the layout of every board and of the baselines' scores.
var benchLayout = mustLayout(
	pack.Field{Name: "points", Width: pointsBits},
	pack.Field{Name: "paid", Width: 1},
	pack.Field{Name: "time", Width: timeBits, Dir: pack.LowerIsBetter},
)

// mustLayout builds a layout of constant fields.
func mustLayout(fs ...pack.Field) *pack.Layout {
	l, err := pack.NewLayout(fs...)
	if err != nil {
		panic(err) // the fields above are constants
	}
	return l
}

// mix is splitmix64's finalizer: it spreads a counter into bits that look
// uniform, so ids and values derive from sequence numbers without a shared
// random source.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// idOf is the id of entry i of a board: "u0", "u1", ...
func idOf(i int64) string { return "u" + strconv.FormatInt(i, 10) }

// entry is one submission: the three field values and their packings.
type entry struct {
	points, paid, time int64
}

// loadEntry is entry i of a loaded board: points below a million (so
// there are ties), a paid flag and a time.
func loadEntry(i int64) entry {
	x := mix(uint64(i))
	return entry{points: int64(x % 1_000_000), paid: int64(x>>20) & 1, time: int64(x>>21) & (1<<timeBits - 1)}
}

// writeEntry is the submission of operation seq: its points grow with seq,
// so every write of a "keep the best" policy really writes (unless a
// concurrent writer of the same id got a later seq in first).
func writeEntry(seq uint64) entry {
	x := mix(seq)
	return entry{points: int64(seq % (1 << pointsBits)), paid: int64(x) & 1, time: int64(x>>1) & (1<<timeBits - 1)}
}

// values returns e as a board submission's values.
func (e entry) values() []float64 {
	return []float64{float64(e.points), float64(e.paid), float64(e.time)}
}

// packed returns e packed by benchLayout: higher is better. The values are
// always in range.
func (e entry) packed() uint64 {
	s, err := benchLayout.Pack(e.points, e.paid, e.time)
	if err != nil {
		panic(err) // loadEntry and writeEntry stay in range
	}
	return uint64(s)
}

// rest returns the packing of the fields after points (paid, time), as
// the watch-multi baseline writes them into the member.
func (e entry) rest() uint64 {
	return e.packed() % benchLayout.Field(0).Mul
}

// startEntry is entry i of a write-workload board before the workload
// writes: loadEntry's tie-breakers with zero points, so that every write
// (whose points are at least 1) is an improvement.
func startEntry(i int64) entry {
	e := loadEntry(i)
	e.points = 0
	return e
}
