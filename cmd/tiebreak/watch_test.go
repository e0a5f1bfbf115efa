package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// board watch prints the best entries, then again each time they change:
// the first list is board top's; while a writer raises a new entry above
// them all, the next printed list has it first.
func testWatch(t *testing.T, bin string) {
	env := redistest.New(t)
	c := newCLI(t, bin, env)
	ctx := context.Background()
	name := env.Prefix + "_watched"
	b := seedArena(t, ctx, env.Client, name, board.Options{KeepTop: 10})
	if out := c.ok("board", "describe", name); !strings.Contains(out, "keep top") || !strings.Contains(out, "the best 10,") {
		t.Errorf("board describe does not say the board keeps its best 10:\n%s", out)
	}

	var top, first entriesOut
	c.json(&top, "board", "top", name, "-n", "3")
	c.json(&first, "board", "watch", name, "-n", "3", "--changes", "1")
	if first.At == "" {
		t.Error("board watch --json gives no time (at) of its list")
	}
	first.At = ""
	if diff := cmp.Diff(top, first); diff != "" {
		t.Errorf("board watch --changes 1 (-top +watch):\n%s", diff)
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for points := 400.0; ; points++ {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if _, err := b.Submit(ctx, board.Submission{ID: "zed", Values: []float64{points, 0, 1795435200}}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	out := c.ok("board", "watch", name, "-n", "3", "--changes", "2", "--every", "2ms", "--json")
	close(stop)
	wg.Wait()
	dec := json.NewDecoder(strings.NewReader(out))
	var lists []entriesOut
	for dec.More() {
		var l entriesOut
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("board watch --json: %v\n%s", err, out)
		}
		lists = append(lists, l)
	}
	for i := range lists {
		lists[i].At = "" // the lists must differ in more than their time
	}
	if len(lists) != 2 || lists[1].Entries[0].ID != "zed" || cmp.Equal(lists[0], lists[1]) {
		t.Errorf("board watch --changes 2 under writes: %d lists, want 2, the second led by zed and unlike the first:\n%s", len(lists), out)
	}
	c.fails(exitUsage, []string{"--every"}, "board", "watch", name, "--every", "0s")

	// A board whose reads fail for what it stores (a member written by
	// hand, which its dense index lacks) is said to be so at once, exit 1:
	// never a watch that prints nothing for as long as it runs.
	damaged := env.Prefix + "_watchdamaged"
	seedArena(t, ctx, env.Client, damaged, board.Options{DenseRanks: true})
	if err := env.Client.Do(ctx, env.Client.B().Zadd().Key("tb:{"+damaged+"}:z").ScoreMember().ScoreMember(-999999999999999, "zed").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	c.fails(exitFailure, []string{"dense index"}, "board", "watch", damaged, "--every", "10ms", "--timeout", "5s")

	// --timeout, when given, is how long it watches: a normal end.
	var bounded entriesOut
	c.json(&bounded, "board", "watch", name, "-n", "3", "--every", "10ms", "--timeout", "300ms")
	if len(bounded.Entries) != 3 {
		t.Errorf("board watch --timeout 300ms: %+v, want the best 3", bounded)
	}

	// Without it, it watches until interrupted, and an interrupt is a
	// normal end too.
	cmd := exec.Command(bin, "board", "watch", name, "--every", "10ms", "--url", c.url)
	cmd.Env = c.env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && !strings.Contains(sc.Text(), " entries, ") {
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
	}
	if err := cmd.Wait(); err != nil || stderr.Len() > 0 {
		t.Errorf("board watch interrupted: %v, want exit 0 and nothing on stderr (stderr: %q)", err, stderr.String())
	}
}

// board watch says on standard error when Redis stops answering and when
// it answers again, and prints the list again once it is back: the watch
// itself waits the outage out, so without the notes the last list would
// stand as if it were current.
func testWatchOutage(t *testing.T, bin string) {
	srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	ctx := context.Background()
	seedArena(t, ctx, client, "outage", board.Options{})
	cmd := exec.Command(bin, "board", "watch", "outage", "--every", "50ms", "--url", "redis://"+srv.Addr)
	cmd.Env = withoutRedisURL()
	stdout, err1 := cmd.StdoutPipe()
	stderr, err2 := cmd.StderrPipe()
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	var wg sync.WaitGroup
	for _, r := range []io.Reader{stdout, stderr} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sc := bufio.NewScanner(r); sc.Scan(); {
				lines <- sc.Text()
			}
		}()
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// await reads the lines of both streams, in whatever order they
	// interleave, until each of wants is in one of them.
	await := func(wants ...string) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for len(wants) > 0 {
			select {
			case l := <-lines:
				wants = slices.DeleteFunc(wants, func(w string) bool { return strings.Contains(l, w) })
			case <-deadline:
				t.Fatalf("board watch printed no line with %q", wants)
			}
		}
	}
	await(" entries, ")
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	await("has not answered PING since")
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	await("answers PING again, after", " entries, ")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	go func() {
		for range lines {
		}
	}()
	wg.Wait()
	if err := cmd.Wait(); err != nil {
		t.Errorf("board watch interrupted after an outage: %v, want exit 0", err)
	}
}
