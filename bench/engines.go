package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tiebreak/tiebreak/internal/engine"
)

// DefaultEngine names the redis-server found on PATH as given, beside the
// engines of the engines directory.
const DefaultEngine = "default"

// defaultEnginesDir is where --engines finds the engines unless
// --engines-dir says otherwise: shared/engines beside the repository, as
// CI finds it, relative to the directory the command runs in (bench/ under
// go run -C bench .).
var defaultEnginesDir = filepath.Join("..", "..", "shared", "engines")

// engineSpec is one engine of a --engines run: its name, which names its
// results' directory, and the directory of its redis-server and
// redis-cli ("" for DefaultEngine: PATH as given).
type engineSpec struct {
	Name string
	Bin  string
}

// parseEngines turns --engines into the engines to run, in order: "" is
// none (one run on REDIS_URL or the redis-server on PATH), "all" is
// DefaultEngine then every folder of dir holding bin/redis-server, by
// name, and a list names them, DefaultEngine among them or not.
func parseEngines(s, dir string) ([]engineSpec, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if s == "all" {
		names, err := listEngines(dir)
		if err != nil {
			return nil, err
		}
		return parseEngines(strings.Join(append([]string{DefaultEngine}, names...), ","), dir)
	}
	var out []engineSpec
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if slices.ContainsFunc(out, func(e engineSpec) bool { return e.Name == name }) {
			continue
		}
		if name == DefaultEngine {
			out = append(out, engineSpec{Name: name})
			continue
		}
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
			return nil, fmt.Errorf("engine %q: want a folder name of %s, or %s", name, dir, DefaultEngine)
		}
		bin := filepath.Join(dir, name, "bin")
		if !isExecutable(filepath.Join(bin, "redis-server")) {
			have, _ := listEngines(dir)
			return nil, fmt.Errorf("no engine %q: no %s (have %s)", name, filepath.Join(bin, "redis-server"), strings.Join(append([]string{DefaultEngine}, have...), ", "))
		}
		abs, err := filepath.Abs(bin)
		if err != nil {
			return nil, err
		}
		out = append(out, engineSpec{Name: name, Bin: abs})
	}
	return out, nil
}

// listEngines returns the names of the folders of dir holding an
// executable bin/redis-server, sorted.
func listEngines(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("engines directory (--engines-dir): %w", err)
	}
	var names []string
	for _, e := range entries {
		if isExecutable(filepath.Join(dir, e.Name(), "bin", "redis-server")) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// isExecutable reports whether path is a file with an execute bit.
func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// forEngine returns c with its output paths moved into a folder named
// after the engine, beside the file they name: results/results.json
// becomes results/<engine>/results.json.
func (c config) forEngine(name string) config {
	c.Out, c.SVG = engineFile(c.Out, name), engineFile(c.SVG, name)
	return c
}

// engineFile is path moved into the folder name beside it; "-" stays.
func engineFile(path, name string) string {
	if path == "-" {
		return path
	}
	return filepath.Join(filepath.Dir(path), name, filepath.Base(path))
}

// textFile is where a --engines run writes the tables it prints: beside
// the JSON, .txt for .json; "-" for none.
func textFile(out string) string {
	if out == "-" {
		return out
	}
	return strings.TrimSuffix(out, ".json") + ".txt"
}

// onPath puts e's binaries first on the process's PATH, so that every
// redis-server and redis-cli the run starts (its server, the sharded
// workload's cluster) is e's, and returns what restores PATH.
func (e engineSpec) onPath() (restore func(), err error) {
	old, had := os.LookupEnv("PATH")
	restore = func() {
		if had {
			os.Setenv("PATH", old)
		} else {
			os.Unsetenv("PATH")
		}
	}
	if e.Bin == "" {
		return restore, nil
	}
	return restore, os.Setenv("PATH", e.Bin+string(os.PathListSeparator)+old)
}

// runEngines runs cfg on each engine of cfg.Engines in turn, each on a
// temporary redis-server of its own (never REDIS_URL), and writes each
// one's results under a folder named after it.
// The tables go to stdout too.
func runEngines(ctx context.Context, cfg config, stdout io.Writer, log *progress) error {
	if os.Getenv("REDIS_URL") != "" {
		log.printf("bench: --engines starts each engine's redis-server; REDIS_URL is not used")
	}
	for _, e := range cfg.Engines {
		if err := runEngine(ctx, cfg.forEngine(e.Name), e, stdout, log); err != nil {
			return fmt.Errorf("engine %s: %w", e.Name, err)
		}
	}
	return nil
}

// runEngine runs cfg on a temporary redis-server of engine e.
func runEngine(ctx context.Context, cfg config, e engineSpec, stdout io.Writer, log *progress) error {
	restore, err := e.onPath()
	defer restore()
	if err != nil {
		return err
	}
	conn, err := startTemporary()
	if err != nil {
		return err
	}
	defer conn.close()
	conn.source += " of engine " + e.Name
	rep, err := runOn(ctx, conn, cfg, log)
	if err != nil {
		return err
	}
	rep.Engine = e.Name
	return outputText(stdout, rep, cfg, log)
}

// zrankNote says which form of ZRANK the packed board's native write
// sends on the engine r describes.
func zrankNote(r RedisInfo) string {
	e := engine.Engine{ServerName: r.ServerName, ValkeyVersion: r.ValkeyVersion, RedisVersion: r.RedisVersion}
	if e.ZRankWithScore() {
		return fmt.Sprintf("On this engine (%s) packed sends ZRANK ... WITHSCORE in place of ZSCORE and ZRANK (Redis 7.2+, Valkey 8): one command fewer per write.", e)
	}
	return fmt.Sprintf("On this engine (%s) ZRANK takes no WITHSCORE (Redis 7.2+, Valkey 8): packed sends ZSCORE and ZRANK.", e)
}
