package benchload

import (
	"math"
	"strconv"
	"sync/atomic"

	"github.com/tiebreak/tiebreak/pack"
)

// The fields of every board: points (higher first), paid flag (paid
// first) and time (earlier first), widened to fill the 53 bits a score
// holds exactly.
const (
	pointsBits = 30
	timeBits   = 22
)

// Layout is the layout of every board of the workloads and of the
// baselines' scores.
var Layout = mustLayout(
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

// Mix is splitmix64's finalizer: it spreads a counter into bits that look
// uniform, so ids and values derive from sequence numbers without a shared
// random source.
func Mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// seq numbers a fixture's operations, across its variants and rounds, so
// that values derived from it (write points) only grow whichever harness
// runs them and however often.
type seq struct{ n atomic.Uint64 }

// next returns the next sequence number, from 1.
func (s *seq) next() uint64 { return s.n.Add(1) }

// pick returns a number in [0, n) drawn from sequence number s.
func pick(s uint64, n int) int { return int(Mix(s) % uint64(n)) }

// IDOf is the id of entry i of a board: "u0", "u1", ...
func IDOf(i int64) string { return "u" + strconv.FormatInt(i, 10) }

// Entry is one submission: the three field values.
type Entry struct {
	Points, Paid, Time int64
}

// LoadEntry is entry i of a loaded board: points below a million (so
// there are ties), a paid flag and a time.
func LoadEntry(i int64) Entry {
	x := Mix(uint64(i))
	return Entry{Points: int64(x % 1_000_000), Paid: int64(x>>20) & 1, Time: int64(x>>21) & (1<<timeBits - 1)}
}

// WriteEntry is the submission of sequence number s: its points grow with
// s, so every write of a "keep the best" policy really writes (unless a
// concurrent writer of the same id got a later s in first).
func WriteEntry(s uint64) Entry {
	x := Mix(s)
	return Entry{Points: int64(s % (1 << pointsBits)), Paid: int64(x) & 1, Time: int64(x>>1) & (1<<timeBits - 1)}
}

// StartEntry is entry i of a write-workload board before the workload
// writes: LoadEntry's tie-breakers with zero points, so that every write
// (whose points are at least 1) is an improvement.
func StartEntry(i int64) Entry {
	e := LoadEntry(i)
	e.Points = 0
	return e
}

// Values returns e as a board submission's values.
func (e Entry) Values() []float64 {
	return []float64{float64(e.Points), float64(e.Paid), float64(e.Time)}
}

// Packed returns e packed by Layout: higher is better. The values are
// always in range.
func (e Entry) Packed() uint64 {
	s, err := Layout.Pack(e.Points, e.Paid, e.Time)
	if err != nil {
		panic(err) // LoadEntry and WriteEntry stay in range
	}
	return uint64(s)
}

// Rest returns the packing of the fields after points (paid, time), as
// the watch-multi baseline writes them into the member.
func (e Entry) Rest() uint64 { return e.Packed() % Layout.Field(0).Mul }

// PointsOf returns the points of a packed score.
func PointsOf(packed uint64) int64 { return int64(packed / Layout.Field(0).Mul) }

// SizeLabel writes a power of ten as "1e6", anything else in digits.
func SizeLabel(n int64) string {
	e := math.Log10(float64(n))
	if e == math.Trunc(e) {
		return "1e" + strconv.Itoa(int(e))
	}
	return strconv.FormatInt(n, 10)
}
