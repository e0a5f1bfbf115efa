package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/examples/internal/redisconn"
)

func main() {
	conn, err := redisconn.Connect()
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	fmt.Println("using", conn.Where)
	if err := run(context.Background(), os.Stdout, conn.Client, "priceindex"); err != nil {
		log.Fatal(err)
	}
}

// prices is the price-index example: each price with the users who asked
// for it, repeats kept.
var prices = []struct {
	price string
	users []string
}{
	{"25500.12345", []string{"user1", "user2"}},
	{"25500.12346", []string{"user2", "user3", "user2"}},
	{"25505.05443", []string{"user2", "user1"}},
	{"25505.233", []string{"user3"}},
	{"25506.12345", []string{"user3", "user5"}},
}

// run builds the index, prints it, then prints the range [25500.12346,
// 25505.2] and one exact lookup to w. It drops the index when done.
func run(ctx context.Context, w io.Writer, client rueidis.Client, name string) error {
	m, err := decimalmap.New(client, name, decimalmap.Options{})
	if err != nil {
		return err
	}
	defer m.Drop(ctx)
	for _, p := range prices {
		if _, err := m.Add(ctx, p.price, p.users...); err != nil {
			return err
		}
	}
	all, err := m.Range(ctx, decimalmap.Query{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "price index (%d prices):\n", len(all))
	printEntries(w, all)
	lo, hi := "25500.12346", "25505.2"
	in, err := m.Range(ctx, decimalmap.Query{Min: decimalmap.Inclusive(lo), Max: decimalmap.Inclusive(hi)})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "range [%s, %s]:\n", lo, hi)
	printEntries(w, in)
	users, err := m.Get(ctx, "25505.23300")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "get 25505.23300: %s\n", strings.Join(users, ", "))
	return nil
}

func printEntries(w io.Writer, entries []decimalmap.Entry) {
	for _, e := range entries {
		fmt.Fprintf(w, "  %-12s %s\n", e.Key, strings.Join(e.Values, ", "))
	}
}
