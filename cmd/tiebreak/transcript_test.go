package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// update rewrites the transcript of docs/command.md with what the command
// prints now: go test ./cmd/tiebreak -run TestTranscript -update.
var update = flag.Bool("update", false, "rewrite the transcript in docs/command.md")

// transcriptDoc holds the transcript, between the two markers. Each line
// of it that starts with "$ " is a command: "$ tiebreak ARGS" runs the
// command built from this directory (ARGS split at spaces, no quoting),
// "$ echo $?" prints the exit status of the command before it. The lines
// that follow a command, up to the next one, are what it printed
// (stdout, then stderr), each line without its trailing blanks (a table's
// padding), which editors strip.
const (
	transcriptDoc   = "../../docs/command.md"
	transcriptBegin = "<!-- transcript: produced by TestTranscript in cmd/tiebreak -->\n```\n"
	transcriptEnd   = "```\n<!-- end of transcript -->\n"
)

// TestTranscript runs the commands of docs/command.md's transcript against
// a server of its own, holding the objects the page describes, and checks
// that each prints what the page shows.
func TestTranscript(t *testing.T) {
	doc, err := os.ReadFile(transcriptDoc)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := strings.Cut(string(doc), transcriptBegin)
	if !ok {
		t.Fatalf("%s has no %q", transcriptDoc, transcriptBegin)
	}
	shown, after, ok := strings.Cut(rest, transcriptEnd)
	if !ok {
		t.Fatalf("%s has no %q after its transcript", transcriptDoc, transcriptEnd)
	}
	var commands []string
	for line := range strings.Lines(shown) {
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			commands = append(commands, strings.TrimSuffix(cmd, "\n"))
		}
	}
	if len(commands) == 0 {
		t.Fatalf("%s: the transcript holds no command", transcriptDoc)
	}

	srv, client := redistest.Private(t)
	seedTranscript(t, client)
	bin := filepath.Join(t.TempDir(), "tiebreak")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := append(withoutRedisURL(), "REDIS_URL=redis://"+srv.Addr+"/0")

	var got strings.Builder
	status := 0
	for i, line := range commands {
		if i > 0 && !strings.HasPrefix(line, "echo ") {
			got.WriteString("\n")
		}
		got.WriteString("$ " + line + "\n")
		args := strings.Fields(line)
		switch {
		case line == "echo $?":
			got.WriteString(strconv.Itoa(status) + "\n")
			continue
		case args[0] != "tiebreak":
			t.Fatalf("%s: transcript command %q: only tiebreak and echo $? run", transcriptDoc, line)
		}
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(bin, args[1:]...)
		cmd.Env, cmd.Stdout, cmd.Stderr = env, &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			status = exit.ExitCode()
		case err != nil:
			t.Fatalf("running %q: %v", line, err)
		default:
			status = 0
		}
		got.WriteString(stdout.String() + stderr.String())
	}
	printed := trimLines(got.String())

	if *update {
		out := before + transcriptBegin + printed + transcriptEnd + after
		if err := os.WriteFile(transcriptDoc, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(trimLines(shown), printed); diff != "" {
		t.Errorf("%s's transcript differs from what the command prints (-doc +command); go test -run TestTranscript -update rewrites it:\n%s", transcriptDoc, diff)
	}
}

// seedTranscript writes the objects the transcript shows, under fixed
// names: the players of examples/leaderboard on "arena" (dense ranks,
// member data), a board "duel" whose migration to 8-bit points waits on
// ann's 300 points, the same players on "kills" of the group "season" and
// on "alltime", sharded over 2 boards, a TSID timeline "general" of 30
// messages, a ULID timeline "support" stored by SplitScore, and a map of
// prices.
func seedTranscript(t *testing.T, client rueidis.Client) {
	t.Helper()
	ctx := context.Background()
	seedArena(t, ctx, client, "arena", board.Options{DenseRanks: true})
	seedMigrating(t, ctx, client, "duel")
	seedArena(t, ctx, client, "kills", board.Options{Group: "season"})
	seedArena(t, ctx, client, "alltime", board.Options{Shards: 2})
	seedTimeline(t, ctx, client, "general", tsid.TSID, timeline.LexID, 30, func(i int) uint64 { return tsidAt(t, i) })
	seedTimeline(t, ctx, client, "support", tsid.ULID, timeline.SplitScore, 5, ulidAt)
	seedMap(t, ctx, client, "prices")
}

// trimLines removes the blanks at the end of every line of s.
func trimLines(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		b.WriteString(strings.TrimRight(line, " \t\n") + "\n")
	}
	return b.String()
}
