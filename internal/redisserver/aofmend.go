package redisserver

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"
)

// A server that starts on an append-only file cut short inside a
// transaction (a crash in the middle of writing MULTI ... EXEC, which is
// how the server logs a script's writes) leaves the transaction out of
// memory but truncates the file only after its last whole command: the
// file then ends inside an open MULTI. What the server writes next is
// appended after it, and the start after that runs the open transaction's
// first commands with the next transaction's (half of a write never
// acknowledged comes back) or, when no EXEC follows, drops every later
// write, acknowledged ones too. Redis 7.0 to 8 and Valkey 8.0 do so
// (internal/faulttest's TestATransactionCutShortStaysGone shows it). The
// remedy docs/operating.md gives operators is to rewrite the file from
// memory (BGREWRITEAOF) after a start that truncated it, before the next
// crash. A Server does the same: after every start of a server with
// --appendonly yes, once it has loaded its data, if its log says it
// truncated its file, it rewrites it, and Crash, Kill and Restart wait for
// that first.

const (
	// truncatedLine is what the server logs when it truncates its file.
	truncatedLine = "Truncating the AOF"
	// readyLine is what the server logs once it has loaded its data.
	readyLine = "Ready to accept connections"
	// mendTimeout bounds the wait for the load, and then for the rewrite.
	mendTimeout = time.Minute
)

// appendOnly reports whether args turn the append-only file on (the last
// --appendonly wins, as it does for redis-server).
func appendOnly(args []string) bool {
	for i := len(args) - 2; i >= 0; i-- {
		if args[i] == "--appendonly" {
			return args[i+1] == "yes"
		}
	}
	return false
}

// mendAOF runs after the start of p, on its own goroutine; it closes
// p.mended when done, p.mendErr holding why the rewrite failed.
func (s *Server) mendAOF(p *process) {
	defer close(p.mended)
	if s.keepTruncated.Load() || !appendOnly(s.args) {
		return
	}
	log, ok := p.waitLog(readyLine)
	if !ok || !strings.Contains(log, truncatedLine) {
		return
	}
	if err := rewriteAOF(s.Addr); err != nil {
		p.mendErr = fmt.Errorf("redis-server %s truncated its append-only file at its start, and rewriting it failed: %w", s.Addr, err)
		return
	}
	s.mends.Add(1)
}

// KeepTruncatedAOF turns the rewrite off for the starts that follow, for
// the test that shows what happens without it.
func (s *Server) KeepTruncatedAOF() { s.keepTruncated.Store(true) }

// Mends reports how many starts of s truncated the append-only file, which
// s then rewrote.
func (s *Server) Mends() int { return int(s.mends.Load()) }

// waitMend waits until the mend of the running process is done and
// returns its error.
func (p *process) waitMend() error {
	<-p.mended
	return p.mendErr
}

// waitLog waits until the log of p since its start holds line, and returns
// that log; ok is false when p exits or mendTimeout passes first.
func (p *process) waitLog(line string) (log string, ok bool) {
	deadline := time.Now().Add(mendTimeout)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(p.log); err == nil {
			log = string(b[min(p.from, int64(len(b))):])
			if strings.Contains(log, line) {
				return log, true
			}
		}
		select {
		case <-p.done:
			return log, false
		case <-time.After(10 * time.Millisecond):
		}
	}
	return log, false
}

// rewriteAOF asks the server on addr to rewrite its append-only file and
// waits until no rewrite is under way or scheduled, then checks that the
// last one succeeded.
func rewriteAOF(addr string) error {
	c, err := DialNode(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), mendTimeout)
	defer cancel()
	if err := c.Do(ctx, c.B().Bgrewriteaof().Build()).Error(); err != nil {
		return err
	}
	for ctx.Err() == nil {
		fields, err := info(addr, "persistence")
		if err != nil {
			return err
		}
		if fields["aof_rewrite_in_progress"] == "0" && fields["aof_rewrite_scheduled"] == "0" {
			if st := fields["aof_last_bgrewrite_status"]; st != "ok" {
				return fmt.Errorf("aof_last_bgrewrite_status %s", st)
			}
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return ctx.Err()
}
