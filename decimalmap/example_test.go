package decimalmap_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// exampleMap gives an example a fresh map on the tests' Redis; the caller
// drops it.
func exampleMap(name string) *decimalmap.Map {
	env, err := redistest.Shared()
	if err != nil {
		panic(err)
	}
	m, err := decimalmap.New(env.Client, env.Prefix+":"+name, decimalmap.Options{})
	if err != nil {
		panic(err)
	}
	return m
}

// addPriceIndex adds the price-index example: five prices, each with the
// users who asked for it, repeats kept.
func addPriceIndex(ctx context.Context, m *decimalmap.Map) {
	prices := []struct {
		price string
		users []string
	}{
		{"25500.12345", []string{"user1", "user2"}},
		{"25500.12346", []string{"user2", "user3", "user2"}},
		{"25505.05443", []string{"user2", "user1"}},
		{"25505.233", []string{"user3"}},
		{"25506.12345", []string{"user3", "user5"}},
	}
	for _, p := range prices {
		if _, err := m.Add(ctx, p.price, p.users...); err != nil {
			panic(err)
		}
	}
}

// The price-index example: the prices in the inclusive range
// [25500.12346, 25505.2] with their users, in one round trip.
func ExampleMap_Range() {
	ctx := context.Background()
	m := exampleMap("prices")
	defer m.Drop(ctx)
	addPriceIndex(ctx, m)
	entries, err := m.Range(ctx, decimalmap.Query{
		Min: decimalmap.Inclusive("25500.12346"),
		Max: decimalmap.Inclusive("25505.2"),
	})
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		fmt.Println(e.Key, "->", e.Values)
	}
	// Output:
	// 25500.12346 -> [user2 user3 user2]
	// 25505.05443 -> [user2 user1]
}

// The two highest prices below 25506, largest first: an exclusive bound,
// Reverse and a limit.
func ExampleMap_Range_reverse() {
	ctx := context.Background()
	m := exampleMap("reverse")
	defer m.Drop(ctx)
	addPriceIndex(ctx, m)
	entries, _ := m.Range(ctx, decimalmap.Query{Max: decimalmap.Exclusive("25506"), Reverse: true, Limit: 2})
	for _, e := range entries {
		fmt.Println(e.Key, e.Values)
	}
	// Output:
	// 25505.233 [user3]
	// 25505.05443 [user2 user1]
}

// Equal numbers are one key, whatever their spelling, and come back in
// canonical text; keys are exact at any magnitude.
func ExampleMap_Add() {
	ctx := context.Background()
	m := exampleMap("add")
	defer m.Drop(ctx)
	m.Add(ctx, "25500.10", "user1")
	n, _ := m.Add(ctx, "2.55001E4", "user2")
	fmt.Println(n)
	m.Add(ctx, "-0.000", "zero")
	m.Add(ctx, "9007199254740993", "beyond 2^53")
	m.Add(ctx, "1E+40", "huge")
	entries, _ := m.Range(ctx, decimalmap.Query{})
	for _, e := range entries {
		fmt.Println(e.Key, e.Values)
	}
	// Output:
	// 2
	// 0 [zero]
	// 25500.1 [user1 user2]
	// 9007199254740993 [beyond 2^53]
	// 1E+40 [huge]
}

// RemoveValue takes the first occurrence of a value; the key goes with its
// last value.
func ExampleMap_RemoveValue() {
	ctx := context.Background()
	m := exampleMap("removevalue")
	defer m.Drop(ctx)
	m.Add(ctx, "25500.12346", "user2", "user3", "user2")
	m.RemoveValue(ctx, "25500.12346", "user2")
	vals, _ := m.Get(ctx, "25500.12346")
	fmt.Println(vals)
	m.RemoveValue(ctx, "25500.12346", "user3")
	m.RemoveValue(ctx, "25500.12346", "user2")
	n, _ := m.Len(ctx)
	fmt.Println(n)
	// Output:
	// [user3 user2]
	// 0
}

// Remove takes whole keys with all their values, in one atomic step, and
// counts those that were there.
func ExampleMap_Remove() {
	ctx := context.Background()
	m := exampleMap("remove")
	defer m.Drop(ctx)
	addPriceIndex(ctx, m)
	n, err := m.Remove(ctx, "25500.12345", "25505.2330", "1")
	if err != nil {
		panic(err)
	}
	fmt.Println(n)
	entries, _ := m.Range(ctx, decimalmap.Query{})
	for _, e := range entries {
		fmt.Println(e.Key, e.Values)
	}
	// Output:
	// 2
	// 25500.12346 [user2 user3 user2]
	// 25505.05443 [user2 user1]
	// 25506.12345 [user3 user5]
}

// A map in a program of your own: build a client for the server REDIS_URL
// names (redis://localhost:6379 when it is unset), then the map. Add, read
// a range, and drop the map when done.
func Example_ownClient() {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://localhost:6379"
	}
	opt, err := rueidis.ParseURL(url)
	if err != nil {
		log.Fatal(err)
	}
	client, err := rueidis.NewClient(opt)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	m, err := decimalmap.New(client, "prices", decimalmap.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if _, err := m.Add(ctx, "25500.12346", "user2", "user3"); err != nil {
		log.Fatal(err)
	}
	entries, err := m.Range(ctx, decimalmap.Query{
		Min: decimalmap.Inclusive("25500"),
		Max: decimalmap.Exclusive("25501"),
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		fmt.Println(e.Key, e.Values)
	}
	if err := m.Drop(ctx); err != nil {
		log.Fatal(err)
	}
}

// Scan walks every key in order, a page at a time.
func ExampleMap_Scan() {
	ctx := context.Background()
	m := exampleMap("scan")
	defer m.Drop(ctx)
	addPriceIndex(ctx, m)
	var cursor decimalmap.Cursor
	for {
		page, err := m.Scan(ctx, cursor, 2)
		if err != nil {
			panic(err)
		}
		for _, e := range page.Entries {
			fmt.Print(e.Key, " ")
		}
		fmt.Println("|")
		if !page.HasMore {
			break
		}
		cursor = page.Next
	}
	// Output:
	// 25500.12345 25500.12346 |
	// 25505.05443 25505.233 |
	// 25506.12345 |
}

// A key that is not a decimal number is refused and nothing is written.
func ExampleMap_Add_badKey() {
	ctx := context.Background()
	m := exampleMap("badkey")
	defer m.Drop(ctx)
	_, err := m.Add(ctx, "25500,1", "user1")
	fmt.Println(errors.Is(err, decimalmap.ErrKey), errors.Is(err, pack.ErrSyntax))
	n, _ := m.Len(ctx)
	fmt.Println(n)
	// Output:
	// true true
	// 0
}
