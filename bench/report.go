package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tiebreak/tiebreak/internal/benchload"
)

// Report is everything a run wrote: settings, machine, Redis, results.
type Report struct {
	Started  time.Time `json:"started"`
	Seconds  float64   `json:"seconds"`
	Command  []string  `json:"command"`
	Settings Settings  `json:"settings"`
	Machine  Machine   `json:"machine"`
	Redis    RedisInfo `json:"redis"`
	// Engine is the engine a --engines run started, by the name it ran
	// under: a folder of the engines directory, or "default" for the
	// redis-server on PATH ("" in a run without --engines).
	Engine string `json:"engine,omitempty"`
	// Sections holds one section per workload run, in order.
	Sections []Section `json:"sections"`
}

// Settings is the run's config as written in the JSON.
type Settings struct {
	Workloads   []string `json:"workloads"`
	Concurrency int      `json:"concurrency"`
	Duration    string   `json:"duration"`
	Warmup      string   `json:"warmup"`
	Rounds      int      `json:"rounds"`
	Quick       bool     `json:"quick"`
	// Params are the workloads' parameters, by flag name.
	Params map[string]string `json:"params"`
}

// settingsOf copies c's reported fields.
func settingsOf(c config) Settings {
	return Settings{Workloads: c.Workloads, Concurrency: c.Run.Concurrency, Duration: c.Duration.String(),
		Warmup: c.Warmup.String(), Rounds: c.Rounds, Quick: c.Run.Quick, Params: c.Run.Values}
}

// Section is one workload's results.
type Section struct {
	Workload string `json:"workload"`
	Title    string `json:"title"`
	// Kind chooses the table's columns: "throughput" (ops/s, p50, p99) or
	// "memory" (bytes per member). A throughput section may hold memory
	// rows too (Row.Per set), printed in a table of their own.
	Kind string `json:"kind"`
	// RatioOf says what the Ratio column divides by, e.g. "throughput /
	// bare EVALSHA in the same round".
	RatioOf string `json:"ratio_of"`
	Rows    []Row  `json:"rows"`
	Goals   []Goal `json:"goals"`
	// Notes say what a reader must know to read the section.
	Notes []string `json:"notes,omitempty"`
}

// Row is one variant in one case of a workload.
type Row struct {
	// Case is the condition shared by the rows compared together: "uniform",
	// "hot100", a board size.
	Case    string `json:"case"`
	Variant string `json:"variant"`
	// Size is the board size, for rows that have one (the chart's x).
	Size int64 `json:"size,omitempty"`
	// Series groups the rows of one chart line, e.g. "top10 packed".
	Series string `json:"series,omitempty"`
	// OpsPerSec, P50us and P99us are medians over the rounds.
	OpsPerSec float64 `json:"ops_per_sec,omitempty"`
	P50us     float64 `json:"p50_us,omitempty"`
	P99us     float64 `json:"p99_us,omitempty"`
	// RedisCPUus is the median of the server's CPU µs per operation.
	RedisCPUus float64 `json:"redis_cpu_us,omitempty"`
	// Ratio is the median over rounds of this row's figure over the
	// baseline's in the same round (see Section.RatioOf); Baseline names it.
	Ratio    float64 `json:"ratio"`
	Baseline string  `json:"baseline"`
	// Extra holds further figures: retries per op, bytes per member, ...
	Extra map[string]float64 `json:"extra,omitempty"`
	// Per is set on a memory row: what its bytes are counted per,
	// "member" or "key".
	Per string `json:"per,omitempty"`
	// Rounds holds each round's measurement.
	Rounds []Measurement `json:"rounds,omitempty"`
	// Goals are the goals this row is held to, if any.
	Goals []Goal `json:"goals,omitempty"`
}

// Goal is one of the benchmark's goals, checked against this run.
type Goal struct {
	// Text states the goal, e.g. "packed submit >= 0.9x bare EVALSHA".
	Text string `json:"text"`
	// Short labels the goal's ratio in a table cell, e.g. "vs bare".
	Short string  `json:"short"`
	Value float64 `json:"value"`
	// Target is the bound: Value >= Target when AtLeast, else Value <= Target.
	Target  float64 `json:"target"`
	AtLeast bool    `json:"at_least"`
	Met     bool    `json:"met"`
	Note    string  `json:"note,omitempty"`
	// Unjudged marks a goal computed by a --quick run, whose sizes and
	// durations are too small for the verdict to mean anything.
	Unjudged bool `json:"unjudged,omitempty"`
}

// verdict is "met", "MISSED" or, in a --quick run, "not judged".
func (g Goal) verdict() string {
	switch {
	case g.Unjudged:
		return "not judged (--quick)"
	case g.Met:
		return "met"
	}
	return "MISSED"
}

// unjudge marks every goal of s as not judged.
func (s *Section) unjudge() {
	for i := range s.Goals {
		s.Goals[i].Unjudged = true
	}
	for i := range s.Rows {
		for j := range s.Rows[i].Goals {
			s.Rows[i].Goals[j].Unjudged = true
		}
	}
}

// newGoal checks value against g's target.
func newGoal(g benchload.Goal, value float64) Goal {
	met := value <= g.Target
	if g.AtLeast {
		met = value >= g.Target
	}
	return Goal{Text: g.Text, Short: g.Short, Value: value, Target: g.Target, AtLeast: g.AtLeast, Met: met, Note: g.Note}
}

// cell writes the goal for a table cell: "vs bare 0.93 >= 0.9 met".
func (g Goal) cell() string {
	op := "<="
	if g.AtLeast {
		op = ">="
	}
	return fmt.Sprintf("%s %.3f %s %g %s", g.Short, g.Value, op, g.Target, g.verdict())
}

// addGoal holds row i of s to g, and lists g among the section's goals.
func (s *Section) addGoal(i int, g Goal) {
	s.Rows[i].Goals = append(s.Rows[i].Goals, g)
	s.Goals = append(s.Goals, g)
}

// writeJSON writes r to path, creating its directory; "-" writes nothing.
func writeJSON(path string, r *Report) error {
	if path == "-" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
