package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/bench/internal/redisrate"
	"github.com/tiebreak/tiebreak/internal/benchload"
)

// main parses the flags and runs; it exits 2 on bad flags, 1 on failure.
func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := runMain(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// runMain connects, runs, prints the tables and writes the files; with
// --engines, once per engine (see runEngines).
func runMain(ctx context.Context, cfg config) error {
	log := newProgress(os.Stderr)
	if len(cfg.Engines) > 0 {
		return runEngines(ctx, cfg, os.Stdout, log)
	}
	conn, err := connect()
	if err != nil {
		return err
	}
	defer conn.close()
	rep, err := runOn(ctx, conn, cfg, log)
	if err != nil {
		return err
	}
	return output(os.Stdout, rep, cfg, log)
}

// runOn runs cfg on conn, with the ratelimit workload's peer on the same
// server, under a key prefix of its own.
func runOn(ctx context.Context, conn *connection, cfg config, log *progress) (*Report, error) {
	rdb, err := redisrate.Connect(conn.addr)
	if err != nil {
		return nil, err
	}
	defer rdb.Close()
	benchload.SetRLPeer(redisrate.Peer(rdb))
	defer benchload.SetRLPeer(nil)
	cfg.Prefix = runPrefix()
	log.printf("bench: Redis from %s; workloads %v; results to %s", conn.source, cfg.Workloads, cfg.Out)
	return run(ctx, conn.client, conn.source, cfg, log)
}

// runPrefix names a run's keys: "bench_" and 8 random hex digits, so that
// runs sharing a server never meet.
func runPrefix() string {
	b := make([]byte, 4)
	rand.Read(b)
	return "bench_" + hex.EncodeToString(b)
}

// run measures cfg.Workloads on client, in registry order.
func run(ctx context.Context, client rueidis.Client, source string, cfg config, log *progress) (*Report, error) {
	rep := &Report{Started: time.Now().UTC(), Command: commandLine(), Settings: settingsOf(cfg), Machine: machine()}
	var err error
	if rep.Redis, err = redisInfo(ctx, client, source); err != nil {
		return nil, fmt.Errorf("reading the server's INFO: %w", err)
	}
	h := &harness{client: client, cfg: cfg, log: log}
	for _, name := range cfg.Workloads {
		w, _ := benchload.Lookup(name)
		log.printf("workload %d: %s", w.Num, w.Title)
		sec, err := h.runWorkload(ctx, w)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", w.Name, err)
		}
		if cfg.Run.Quick {
			sec.unjudge()
		}
		if w.Name == "writes" {
			sec.Notes = append(sec.Notes, zrankNote(rep.Redis))
		}
		rep.Sections = append(rep.Sections, sec)
	}
	rep.Seconds = time.Since(rep.Started).Seconds()
	rep.Machine.LoadEnd = loadAverage()
	return rep, nil
}

// output prints the tables to w and writes the JSON and the chart.
func output(w io.Writer, rep *Report, cfg config, log *progress) error {
	if err := printReport(w, rep); err != nil {
		return err
	}
	if err := writeJSON(cfg.Out, rep); err != nil {
		return err
	}
	for _, s := range rep.Sections {
		if s.Workload == "reads" {
			if err := writeSVG(cfg.SVG, readChart(s, cfg.Run.Concurrency)); err != nil {
				return err
			}
			log.printf("chart written to %s", cfg.SVG)
		}
	}
	log.printf("results written to %s", cfg.Out)
	return nil
}

// outputText is output to w and, as a --engines run does, to the text
// file beside the JSON (see textFile).
func outputText(w io.Writer, rep *Report, cfg config, log *progress) error {
	path := textFile(cfg.Out)
	if path == "-" {
		return output(w, rep, cfg, log)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := output(io.MultiWriter(w, f), rep, cfg, log); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	log.printf("tables written to %s", path)
	return nil
}

// commandLine is the command as typed, with the binary named "bench"
// (go run builds it in a temporary directory).
func commandLine() []string {
	return append([]string{"bench"}, os.Args[1:]...)
}
