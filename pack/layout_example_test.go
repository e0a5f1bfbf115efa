package pack_test

import (
	"fmt"
	"math"

	"github.com/tiebreak/tiebreak/pack"
)

// A board of points high first, then paid first, then earliest, in 53 bits.
func ExampleNewLayout() {
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 23},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 29, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		panic(err)
	}
	early, _ := l.Pack(100, 1, 1000)
	late, _ := l.Pack(100, 1, 2000)
	fmt.Println(l)
	fmt.Println(early > late) // earlier ranks higher in a descending order
	_, err = pack.NewLayout(pack.Field{Name: "points", Width: 33}, pack.Field{Name: "paid", Width: 1}, pack.Field{Name: "time", Width: 29})
	fmt.Println(err)
	// Output:
	// bits[points:23 paid:1 time:29/lower]
	// true
	// pack: the fields need 63 bits (points 33 + paid 1 + time 29), over the limit of 53: invalid layout
}

func ExampleLayout_Pack() {
	l, _ := pack.NewLayout(
		pack.Field{Name: "points", Width: 23},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 29},
	)
	s, _ := l.Pack(100, 1, 290072179)
	fmt.Println(s.Uint64(), s.Float64() == 108201125491)
	_, err := l.Pack(1<<23, 1, 0)
	fmt.Println(err)
	// Output:
	// 108201125491 true
	// pack: field "points": value 8388608 outside [0, 8388607]: value out of range
}

func ExampleLayout_Unpack() {
	l, _ := pack.NewLayout(
		pack.Field{Name: "points", Width: 23},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 29},
	)
	fmt.Println(l.Unpack(108201125491))
	_, err := l.Unpack(0.5)
	fmt.Println(err)
	// Output:
	// [100 1 290072179] <nil>
	// pack: score 0.5 is not an integer in [0, 9007199254740991]: invalid score
}

func ExampleNewDigitLayout() {
	l, _ := pack.NewDigitLayout(
		pack.Field{Name: "points", Width: 3},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 9},
	)
	s, _ := l.Pack(200, 1, 290072179)
	fmt.Println(s)
	// Output:
	// 2001290072179
}

// What a Lua script does to read one field without the 32-bit bit library.
func ExampleFieldInfo() {
	l, _ := pack.NewLayout(
		pack.Field{Name: "points", Width: 23},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 29},
	)
	score := 108201125491.0
	for _, f := range l.Fields() {
		raw := math.Mod(math.Floor(score/float64(f.Mul)), float64(f.RawMax+1))
		fmt.Printf("%s: mul=%d max=%d value=%d\n", f.Name, f.Mul, f.RawMax, f.Value(uint64(raw)))
	}
	// Output:
	// points: mul=1073741824 max=8388607 value=100
	// paid: mul=536870912 max=1 value=1
	// time: mul=1 max=536870911 value=290072179
}

// UnpackTo reuses a buffer, for loops that decode many scores.
func ExampleLayout_UnpackTo() {
	l, _ := pack.NewLayout(pack.Field{Name: "level", Width: 8}, pack.Field{Name: "xp", Width: 24})
	dst := make([]int64, l.Len())
	for _, score := range []float64{1<<32 - 1, 16777216 + 5, 1 << 32} {
		if err := l.UnpackTo(dst, score); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(dst)
	}
	// Output:
	// [255 16777215]
	// [1 5]
	// pack: score 4294967296 above the layout's maximum 4294967295: invalid score
}
