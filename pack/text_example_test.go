package pack_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/tiebreak/tiebreak/pack"
)

// Chat paging: the TSID bits below the millisecond go into the member at a
// fixed width, so 999 sorts before 3648548 (written with %d it would not).
func ExampleAppendUint() {
	var members []string
	for _, v := range []uint64{3648548, 999} {
		m, _ := pack.AppendUint(nil, v, 7)
		members = append(members, string(m)+"|msg")
	}
	slices.Sort(members)
	fmt.Println(members)
	_, err := pack.AppendUint(nil, 12345678, 7)
	fmt.Println(errors.Is(err, pack.ErrOverflow))
	// Output:
	// [0000999|msg 3648548|msg]
	// true
}

// Leaderboard ties: among equal scores the earlier submission ranks first, so on a
// board read highest member first the time is written reversed.
func ExampleAppendUintDesc() {
	early, _ := pack.AppendUintDesc(nil, 1700000000, 10)
	late, _ := pack.AppendUintDesc(nil, 1700000005, 10)
	fmt.Println(string(early), string(late), string(early) > string(late))
	// Output: 8299999999 8299999994 true
}

func ExampleAppendUint64() {
	fmt.Println(string(pack.AppendUint64(nil, 42)))
	fmt.Println(string(pack.AppendUint64(nil, math.MaxUint64)))
	// Output:
	// 00000000000000000042
	// 18446744073709551615
}

func ExampleAppendUint64Desc() {
	fmt.Println(string(pack.AppendUint64Desc(nil, 42)))
	// Output: 99999999999999999957
}

// Negative values sort below zero: the sign byte is '0' for them and '1'
// for the rest.
func ExampleAppendInt() {
	for _, v := range []int64{-1000, -5, 0, 5, 999} {
		b, _ := pack.AppendInt(nil, v, 3)
		fmt.Println(string(b))
	}
	// Output:
	// 0000
	// 0995
	// 1000
	// 1005
	// 1999
}

func ExampleAppendIntDesc() {
	for _, v := range []int64{5, 0, -5} {
		b, _ := pack.AppendIntDesc(nil, v, 3)
		fmt.Println(string(b))
	}
	// Output:
	// 0994
	// 0999
	// 1004
}

func ExampleAppendInt64() {
	fmt.Println(string(pack.AppendInt64(nil, math.MinInt64)))
	fmt.Println(string(pack.AppendInt64(nil, -1)))
	fmt.Println(string(pack.AppendInt64(nil, math.MaxInt64)))
	// Output:
	// 00776627963145224192
	// 09999999999999999999
	// 19223372036854775807
}

func ExampleAppendInt64Desc() {
	fmt.Println(string(pack.AppendInt64Desc(nil, -1)))
	// Output: 10000000000000000000
}

func ExampleParseUint() {
	v, err := pack.ParseUint("0000999", 7)
	fmt.Println(v, err)
	_, err = pack.ParseUint("999", 7)
	fmt.Println(err)
	// Output:
	// 999 <nil>
	// pack: ParseUint: "999" (width 7): length 3, want 7: invalid syntax
}

func ExampleParseUintDesc() {
	v, err := pack.ParseUintDesc([]byte("8299999994"), 10)
	fmt.Println(v, err)
	// Output: 1700000005 <nil>
}

func ExampleParseInt() {
	v, err := pack.ParseInt("0995", 3)
	fmt.Println(v, err)
	// Output: -5 <nil>
}

func ExampleParseIntDesc() {
	v, err := pack.ParseIntDesc("1004", 3)
	fmt.Println(v, err)
	// Output: -5 <nil>
}

// A price index: exact decimal keys, sorted by their encodings as ZRANGE BYLEX
// sorts members.
func ExampleEncodeDecimal() {
	byEnc := map[string]string{}
	var encs []string
	for _, k := range []string{"25505.233", "-0.5", "25500.12346", "0", "25500.12345", "1E+30", "-10"} {
		e, err := pack.EncodeDecimal(k)
		if err != nil {
			panic(err)
		}
		byEnc[e] = k
		encs = append(encs, e)
	}
	slices.Sort(encs)
	for _, e := range encs {
		fmt.Printf("%-14s %s\n", e, byEnc[e])
	}
	// Output:
	// NJ88~          -10
	// Na14~          -0.5
	// O              0
	// Pa42550012345. 25500.12345
	// Pa42550012346. 25500.12346
	// Pa425505233.   25505.233
	// Pb301.         1E+30
}

// The encoding is prefix-free, so a separator and an id can follow it in a
// member, and equal values written differently share one encoding.
func ExampleAppendDecimal() {
	m, _ := pack.AppendDecimal(nil, "25500.10")
	m = append(m, ":user2"...)
	n, _ := pack.AppendDecimal(nil, "2.55001e4")
	fmt.Println(string(m), string(n))
	_, err := pack.AppendDecimal(nil, "1.2.3")
	fmt.Println(errors.Is(err, pack.ErrSyntax))
	// Output:
	// Pa4255001.:user2 Pa4255001.
	// true
}

// A coefficient and exponent, as shopspring/decimal or apd hold them.
func ExampleAppendDecimalBig() {
	enc, _ := pack.AppendDecimalBig(nil, big.NewInt(-2550010), -2)
	dec, _, _ := pack.DecodeDecimal(enc)
	fmt.Println(string(enc), dec)
	// Output: NJ5744998~ -25500.1
}

func ExampleDecodeDecimal() {
	member := "Pa4255001.:user2"
	dec, n, err := pack.DecodeDecimal(member)
	fmt.Println(dec, member[n:], err)
	// Output: 25500.1 :user2 <nil>
}

func ExampleDecodeDecimalBig() {
	coef, exp, n, err := pack.DecodeDecimalBig([]byte("Pa312."))
	fmt.Println(coef, exp, n, err)
	// Output: 12 2 6 <nil>
}

func ExampleCanonicalDecimal() {
	for _, s := range []string{"+25500.10", "-0.000", ".5", "1e30", "1e31", "-1.50E-40"} {
		c, _ := pack.CanonicalDecimal(s)
		fmt.Println(c)
	}
	// Output:
	// 25500.1
	// 0
	// 0.5
	// 1000000000000000000000000000000
	// 1E+31
	// -1.5E-40
}
