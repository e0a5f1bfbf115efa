package ratelimit_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
)

// exampleLimiter gives an example a limiter on the tests' Redis, its keys
// under a prefix of their own; the caller resets what it uses.
func exampleLimiter() *ratelimit.Limiter {
	env, err := redistest.Shared()
	if err != nil {
		panic(err)
	}
	l, err := ratelimit.New(env.Client, ratelimit.Options{Prefix: "example:" + env.Prefix + ":"})
	if err != nil {
		panic(err)
	}
	return l
}

// Three requests per hour: the fourth is refused until the first is an
// hour old. Result reads as in go-redis/redis_rate: RetryAfter is -1 when
// the request was allowed.
func ExampleLimiter_Allow() {
	ctx := context.Background()
	l := exampleLimiter()
	defer l.Reset(ctx, "user:42")
	for i := 1; i <= 4; i++ {
		res, err := l.Allow(ctx, "user:42", ratelimit.PerHour(3))
		if err != nil {
			panic(err)
		}
		if res.Allowed == 0 {
			fmt.Printf("call %d: refused, retry within the hour: %t\n", i, res.RetryAfter > 0 && res.RetryAfter <= time.Hour)
			continue
		}
		fmt.Printf("call %d: allowed %d, remaining %d, retry after %v\n", i, res.Allowed, res.Remaining, res.RetryAfter)
	}
	// Output:
	// call 1: allowed 1, remaining 2, retry after -1ns
	// call 2: allowed 1, remaining 1, retry after -1ns
	// call 3: allowed 1, remaining 0, retry after -1ns
	// call 4: refused, retry within the hour: true
}

// AllowN admits all its requests or none; asking for more than the limit
// can never succeed, and says so with ErrExceedsLimit.
func ExampleLimiter_AllowN() {
	ctx := context.Background()
	l := exampleLimiter()
	defer l.Reset(ctx, "batch")
	limit := ratelimit.PerMinute(5)
	for _, n := range []int{3, 3, 2, 6} {
		res, err := l.AllowN(ctx, "batch", limit, n)
		if errors.Is(err, ratelimit.ErrExceedsLimit) {
			fmt.Printf("AllowN(%d): %v\n", n, err)
			continue
		}
		if err != nil {
			panic(err)
		}
		fmt.Printf("AllowN(%d): allowed %d, remaining %d\n", n, res.Allowed, res.Remaining)
	}
	// Output:
	// AllowN(3): allowed 3, remaining 2
	// AllowN(3): allowed 0, remaining 2
	// AllowN(2): allowed 2, remaining 0
	// AllowN(6): ratelimit: n = 6, limit.N = 5: no window can ever admit it: n exceeds the limit
}

// A limiter in a program of your own: build a client for the server
// REDIS_URL names (redis://localhost:6379 when it is unset), then the
// limiter.
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
	limiter, err := ratelimit.New(client, ratelimit.Options{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := limiter.Allow(context.Background(), "user:42", ratelimit.PerMinute(100))
	if err != nil {
		log.Fatal(err)
	}
	if res.Allowed == 0 {
		fmt.Printf("slow down: retry in %v\n", res.RetryAfter)
		return
	}
	fmt.Printf("ok, %d left in this minute\n", res.Remaining)
}

// Reset forgets a key's requests.
func ExampleLimiter_Reset() {
	ctx := context.Background()
	l := exampleLimiter()
	defer l.Reset(ctx, "login:alice")
	limit := ratelimit.PerMinute(1)
	first, _ := l.Allow(ctx, "login:alice", limit)
	second, _ := l.Allow(ctx, "login:alice", limit)
	if err := l.Reset(ctx, "login:alice"); err != nil {
		panic(err)
	}
	third, _ := l.Allow(ctx, "login:alice", limit)
	fmt.Println(first.Allowed, second.Allowed, third.Allowed)
	// Output: 1 0 1
}

// A limit is N requests per window.
func ExampleLimit() {
	fmt.Println(ratelimit.PerSecond(10))
	fmt.Println(ratelimit.Limit{N: 100, Window: 15 * time.Minute})
	fmt.Println(ratelimit.Limit{N: 0, Window: time.Second}.Validate())
	// Output:
	// 10 per 1s
	// 100 per 15m0s
	// ratelimit: Limit.N = 0 out of range [1, 2147483647]: invalid limit
}
