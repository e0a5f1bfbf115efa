package redisserver

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/internal/redisops"
)

// A server that starts on an append-only file cut short inside a
// transaction (a crash in the middle of writing MULTI ... EXEC, which is
// how the server logs a script of more than one write) leaves it out of
// memory but truncates the file only after its last whole command: the
// file then ends inside an open MULTI. What the server writes next is
// appended after it, and the start after that runs the open transaction's
// first commands with the next transaction's (half of a write never
// acknowledged comes back) or, when no EXEC follows, drops every later
// write, acknowledged ones too. Redis 7.0.15, 7.2.6, 7.4.1, 8.0-dev and
// Valkey 8.0.1 do so (internal/faulttest's TestATransactionCutShortStaysGone
// checks it). The
// remedy docs/operating.md gives operators is to rewrite the file from
// memory (BGREWRITEAOF) after a start that truncated it, before the next
// crash. A Server does the same: after every start of a server with
// --appendonly yes, once it has loaded its data, if its log says it
// truncated its file (a warning, logged at every log level), it rewrites
// it, and Crash, Kill and Restart wait for that first; Crash and Restart
// return the rewrite's error, once.

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
			return strings.EqualFold(args[i+1], "yes")
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
	loaded := p.waitLoaded(s.Addr)
	log := p.logSince()
	if !strings.Contains(log, truncatedLine) {
		return
	}
	if !loaded {
		select {
		case <-p.done: // gone: the next start reads the file again
		default:
			p.mendErr = fmt.Errorf("redis-server %s truncated its append-only file at its start, and had not loaded its data after %v: not rewritten", s.Addr, mendTimeout)
		}
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

// waitMend waits until the mend after the start of p is done and returns
// its error, once: a second call returns nil, so that a server whose
// rewrite failed can still be started again. The caller holds the
// Server's lock.
func (p *process) waitMend() error {
	<-p.mended
	err := p.mendErr
	p.mendErr = nil
	return err
}

// logSince returns what p logged since its start.
func (p *process) logSince() string {
	b, err := os.ReadFile(p.log)
	if err != nil {
		return ""
	}
	return string(b[min(p.from, int64(len(b))):])
}

// waitLoaded waits until the server of p has loaded its data: its log
// says it is ready (at the default log level), or INFO says it is no
// longer loading (whatever the log level, for a user INFO is allowed).
// It returns false when p exits or mendTimeout passes first.
func (p *process) waitLoaded(addr string) bool {
	deadline := time.Now().Add(mendTimeout)
	for time.Now().Before(deadline) {
		if strings.Contains(p.logSince(), readyLine) {
			return true
		}
		if fields, err := info(addr, "persistence"); err == nil && fields["loading"] == "0" {
			return true
		}
		select {
		case <-p.done:
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
	return false
}

// rewriteAOF asks the server on addr to rewrite its append-only file and
// waits until no rewrite is under way or scheduled, then checks that the
// last one succeeded. A rewrite under way already (a replica's, after
// its sync) ends the file as well: it waits for that one. A server still
// loading (a replica loading its master's data) is asked again.
func rewriteAOF(addr string) error {
	c, err := DialNode(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), mendTimeout)
	defer cancel()
	for {
		err := c.Do(ctx, c.B().Bgrewriteaof().Build()).Error()
		if err == nil || strings.Contains(err.Error(), "already in progress") {
			break
		}
		if !strings.HasPrefix(err.Error(), "LOADING") || ctx.Err() != nil {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
	for ctx.Err() == nil {
		text, err := c.Do(ctx, c.B().Info().Section("persistence").Build()).ToString()
		if err != nil {
			return err
		}
		fields := redisops.ParseInfo(text)
		if fields["loading"] == "0" && fields["aof_rewrite_in_progress"] == "0" && fields["aof_rewrite_scheduled"] == "0" {
			if st := fields["aof_last_bgrewrite_status"]; st != "ok" {
				return fmt.Errorf("aof_last_bgrewrite_status %s", st)
			}
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return ctx.Err()
}
