package ratelimit_test

import (
	"context"
	"fmt"
	"time"

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
// hour old.
func ExampleLimiter_Allow() {
	ctx := context.Background()
	l := exampleLimiter()
	defer l.Reset(ctx, "user:42")
	for i := 1; i <= 4; i++ {
		res, err := l.Allow(ctx, "user:42", ratelimit.PerHour(3))
		if err != nil {
			panic(err)
		}
		fmt.Printf("call %d: allowed %d, remaining %d, retry within the hour: %t\n",
			i, res.Allowed, res.Remaining, res.RetryAfter > 0 && res.RetryAfter <= time.Hour)
	}
	// Output:
	// call 1: allowed 1, remaining 2, retry within the hour: false
	// call 2: allowed 1, remaining 1, retry within the hour: false
	// call 3: allowed 1, remaining 0, retry within the hour: false
	// call 4: allowed 0, remaining 0, retry within the hour: true
}

// AllowN admits all its requests or none; asking for more than the limit
// can never succeed.
func ExampleLimiter_AllowN() {
	ctx := context.Background()
	l := exampleLimiter()
	defer l.Reset(ctx, "batch")
	limit := ratelimit.PerMinute(5)
	for _, n := range []int{3, 3, 2, 6} {
		res, err := l.AllowN(ctx, "batch", limit, n)
		if err != nil {
			panic(err)
		}
		fmt.Printf("AllowN(%d): allowed %d, remaining %d, never: %t\n", n, res.Allowed, res.Remaining, res.RetryAfter == ratelimit.Never)
	}
	// Output:
	// AllowN(3): allowed 3, remaining 2, never: false
	// AllowN(3): allowed 0, remaining 2, never: false
	// AllowN(2): allowed 2, remaining 0, never: false
	// AllowN(6): allowed 0, remaining 0, never: true
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
	// ratelimit: limit N 0 outside [1, 2147483647]: ratelimit: invalid limit
}
