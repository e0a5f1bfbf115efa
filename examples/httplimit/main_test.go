package main

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// server serves hello behind a limit of 3 per minute, on real Redis, its
// keys under the test's prefix.
func server(t *testing.T) *httptest.Server {
	t.Helper()
	env := redistest.New(t)
	lim, err := ratelimit.New(env.Client, ratelimit.Options{Prefix: env.Prefix + ":"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(limited(lim, ratelimit.PerMinute(3), http.HandlerFunc(hello)))
	t.Cleanup(srv.Close)
	return srv
}

// get sends GET / as client (no X-Client header if empty) and returns the
// status and the headers the limiter sets.
func get(t *testing.T, srv *httptest.Server, client string) (int, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if client != "" {
		req.Header.Set("X-Client", client)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// TestLimitPerClient: the 4th request of a client within the minute gets
// 429 with a Retry-After of at most a minute, and only refusals carry a
// Retry-After; another client is not affected.
func TestLimitPerClient(t *testing.T) {
	srv := server(t)
	var codes, remaining []string
	var hasRetry []bool
	for range 4 {
		code, h := get(t, srv, "alice")
		codes = append(codes, strconv.Itoa(code))
		remaining = append(remaining, h.Get("RateLimit-Remaining"))
		hasRetry = append(hasRetry, h.Get("Retry-After") != "")
	}
	if diff := cmp.Diff([]string{"200", "200", "200", "429"}, codes); diff != "" {
		t.Errorf("alice's statuses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"2", "1", "0", "0"}, remaining); diff != "" {
		t.Errorf("alice's RateLimit-Remaining (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{false, false, false, true}, hasRetry); diff != "" {
		t.Errorf("alice's answers with a Retry-After (-want +got):\n%s", diff)
	}
	code, h := get(t, srv, "alice")
	retry, err := strconv.Atoi(h.Get("Retry-After"))
	if code != http.StatusTooManyRequests || err != nil || retry < 1 || retry > 60 {
		t.Errorf("refused: status %d, Retry-After %q; want 429 and 1..60 seconds", code, h.Get("Retry-After"))
	}
	if code, _ := get(t, srv, "bob"); code != http.StatusOK {
		t.Errorf("bob: status %d, want 200", code)
	}
}

// TestLimitByIP: without X-Client, requests are counted per remote IP.
func TestLimitByIP(t *testing.T) {
	srv := server(t)
	var codes []int
	for range 4 {
		code, _ := get(t, srv, "")
		codes = append(codes, code)
	}
	if diff := cmp.Diff([]int{200, 200, 200, 429}, codes); diff != "" {
		t.Errorf("statuses from 127.0.0.1 (-want +got):\n%s", diff)
	}
}

// TestBadClient: an X-Client the limiter refuses as a key is a 400.
func TestBadClient(t *testing.T) {
	srv := server(t)
	for _, c := range []string{"{x}", strings.Repeat("x", ratelimit.MaxKeyLen)} {
		if code, _ := get(t, srv, c); code != http.StatusBadRequest {
			t.Errorf("X-Client of %d bytes: status %d, want 400", len(c), code)
		}
	}
}

func TestListenLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "8.8.8.8:0", "example.com:0", "nonsense"} {
		if ln, err := listenLoopback(addr); err == nil {
			ln.Close()
			t.Errorf("listenLoopback(%q) accepted a non-loopback address", addr)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0"} {
		ln, err := listenLoopback(addr)
		if err != nil {
			t.Errorf("listenLoopback(%q): %v", addr, err)
			continue
		}
		ln.Close()
	}
}

func TestSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{time.Microsecond: "1", time.Second: "1", 1001 * time.Millisecond: "2", 0: "0"} {
		if got := seconds(d); got != want {
			t.Errorf("seconds(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestRedisDown: when Redis cannot answer, the handler fails closed, 503.
func TestRedisDown(t *testing.T) {
	s, err := redistest.StartServer("")
	if err != nil {
		t.Fatal(err)
	}
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{s.Addr}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	lim, err := ratelimit.New(c, ratelimit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(limited(lim, ratelimit.PerMinute(3), http.HandlerFunc(hello)))
	defer srv.Close()
	if code, _ := get(t, srv, "alice"); code != http.StatusServiceUnavailable {
		t.Errorf("status %d with Redis down, want 503", code)
	}
}
