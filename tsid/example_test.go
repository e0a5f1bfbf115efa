package tsid_test

import (
	"fmt"
	"time"

	"github.com/tiebreak/tiebreak/tsid"
)

func ExampleLayout_Parse() {
	id, err := tsid.TSID.Parse("0123456789abc") // input is case-insensitive
	if err != nil {
		panic(err)
	}
	fmt.Println(id)
	fmt.Println(tsid.TSID.Format(id))
	fmt.Println(tsid.TSID.Time(id).Format(time.RFC3339Nano))

	_, err = tsid.TSID.Parse("G123456789ABC")
	fmt.Println(err)
	// Output:
	// 38390726480144748
	// 0123456789ABC
	// 2020-04-15T22:31:02.458Z
	// tsid: TSID.Parse("G123456789ABC"): first character above F: more than 64 bits: value out of range
}

func ExampleLayout_Split() {
	// A TSID that comes back from a float64 score as 640436544564866048.
	const id = 640436544564866084
	score, suffix, err := tsid.TSID.Split(id)
	if err != nil {
		panic(err)
	}
	// The {json} after the suffix must identify the message on its own
	// (hold its ID, say): the suffix 37ac24 comes back in other
	// milliseconds, and an equal member would be moved, not added.
	fmt.Printf("ZADD chat:messages %.0f %s|{json}\n", score, suffix)

	back, err := tsid.TSID.Join(score, suffix)
	fmt.Println(back, err)
	// Output:
	// ZADD chat:messages 152691970959 37ac24|{json}
	// 640436544564866084 <nil>
}

func ExampleLayout_AppendSplit() {
	member := make([]byte, 0, 64)
	score, member, err := tsid.Discord.AppendSplit(member, 175928847299117063)
	if err != nil {
		panic(err)
	}
	// What follows the suffix must identify the message on its own (see
	// ExampleLayout_Split); "hello" stands for it here.
	member = append(member, "|hello"...)
	fmt.Println(score, string(member))
	// Output:
	// 4.1944705796e+10 020007|hello
}

func ExampleLayout128_Split() {
	id, err := tsid.ULID.Parse("01AN4Z07BY79KA1307SR9X4MV3")
	if err != nil {
		panic(err)
	}
	score, suffix, _ := tsid.ULID.Split(id)
	fmt.Printf("%.0f %s\n", score, suffix)

	back, _ := tsid.ULID.Join(score, suffix)
	fmt.Println(tsid.ULID.Format(back))
	// Output:
	// 1465824320894 3a66a08c07ce13d25363
	// 01AN4Z07BY79KA1307SR9X4MV3
}

func ExampleNewLayout() {
	// 40 bits of seconds since 2024, 24 bits of sequence.
	l, err := tsid.NewLayout(40, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Second)
	if err != nil {
		panic(err)
	}
	id := uint64(3600)<<24 | 42
	score, suffix, _ := l.Split(id)
	fmt.Println(score, suffix, l.Time(id).Format(time.RFC3339))

	_, err = tsid.NewLayout(54, time.Time{}, time.Millisecond)
	fmt.Println(err)
	// Output:
	// 3600 00002a 2024-01-01T01:00:00Z
	// tsid: layout "custom": TimeBits = 54 out of range [1, 53]: invalid options
}

func ExampleGenerator() {
	at := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	g, err := tsid.NewGenerator(tsid.GeneratorOptions{
		Node:  5,
		Clock: func() time.Time { return at }, // a fixed clock
	})
	if err != nil {
		panic(err)
	}
	for range 3 {
		id, err := g.Next()
		if err != nil {
			panic(err)
		}
		score, suffix, _ := tsid.TSID.Split(id)
		fmt.Printf("%s %.0f %s\n", tsid.TSID.Format(id), score, suffix)
	}
	// Output:
	// 0KWSXG6000M00 170942400000 005000
	// 0KWSXG6000M01 170942400000 005001
	// 0KWSXG6000M02 170942400000 005002
}
