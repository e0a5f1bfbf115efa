package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tiebreak/tiebreak/examples/internal/redisconn"
	"github.com/tiebreak/tiebreak/ratelimit"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "loopback `host:port` to listen on")
	n := flag.Int("limit", 5, "requests per window per client")
	window := flag.Duration("window", 10*time.Second, "length of the sliding window")
	flag.Parse()
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if err := serve(ctx, *addr, ratelimit.Limit{N: *n, Window: *window}); err != nil {
		log.Fatal(err)
	}
}

// serve serves until ctx ends (Ctrl-C), then stops the server and Redis.
func serve(ctx context.Context, addr string, limit ratelimit.Limit) error {
	if err := limit.Validate(); err != nil {
		return err
	}
	ln, err := listenLoopback(addr)
	if err != nil {
		return err
	}
	conn, err := redisconn.Connect()
	if err != nil {
		ln.Close()
		return err
	}
	defer conn.Close()
	lim, err := ratelimit.New(conn.Client, ratelimit.Options{Prefix: "httplimit:"})
	if err != nil {
		ln.Close()
		return err
	}
	fmt.Println("using", conn.Where)
	if strings.Contains(conn.Where, "miniredis") {
		fmt.Println("(miniredis: limits hold, but idle keys are not expired)")
	}
	fmt.Printf("serving http://%s/ with a limit of %v per client; Ctrl-C stops\n", ln.Addr(), limit)
	srv := &http.Server{Handler: limited(lim, limit, http.HandlerFunc(hello)), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Shutdown(context.Background())
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// listenLoopback listens on addr, which must be a loopback address.
func listenLoopback(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("-addr %q: not a loopback address (use 127.0.0.1, ::1 or localhost)", addr)
	}
	return net.Listen("tcp", addr)
}

// limited lets a request through to next while its client is under limit.
// Otherwise it answers 429 with Retry-After (whole seconds, rounded up), a
// malformed X-Client 400, and a Redis failure 503: it fails closed.
// Every answer it lets through carries RateLimit-Limit, -Remaining and
// -Reset (seconds until the client's window is empty).
func limited(lim *ratelimit.Limiter, limit ratelimit.Limit, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, err := lim.Allow(r.Context(), clientKey(r), limit)
		switch {
		case errors.Is(err, ratelimit.ErrKey):
			http.Error(w, "bad X-Client header: "+err.Error(), http.StatusBadRequest)
			return
		case err != nil:
			log.Printf("rate limiter: %v", err)
			http.Error(w, "rate limiter unavailable", http.StatusServiceUnavailable)
			return
		}
		h := w.Header()
		h.Set("RateLimit-Limit", strconv.Itoa(limit.N))
		h.Set("RateLimit-Remaining", strconv.Itoa(res.Remaining))
		h.Set("RateLimit-Reset", seconds(res.ResetAfter))
		if res.Allowed == 0 {
			h.Set("Retry-After", seconds(res.RetryAfter))
			http.Error(w, "too many requests", http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// clientKey names the client: its X-Client header, else its IP address.
// The header is trusted as it comes, as behind a proxy that sets it; a
// public server would limit by something the client cannot choose.
func clientKey(r *http.Request) string {
	if c := r.Header.Get("X-Client"); c != "" {
		return "client:" + c
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "ip:" + host
}

// seconds renders d in whole seconds, rounded up, as HTTP wants.
func seconds(d time.Duration) string {
	return strconv.FormatInt(int64(math.Ceil(d.Seconds())), 10)
}

func hello(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, "hello\n")
}
