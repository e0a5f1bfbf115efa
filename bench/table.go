package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/tiebreak/tiebreak/internal/benchload"
)

// printReport writes every section as a table, then every goal.
func printReport(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "tiebreak bench: %s, %d cores, %s %s/%s; %s (%s); %d goroutines, %d rounds of %s\n",
		orUnknown(r.Machine.CPU), r.Machine.Cores, r.Machine.GoVersion, r.Machine.GOOS, r.Machine.GOARCH,
		cmp.Or(r.Redis.Engine, "redis "+r.Redis.Version), r.Redis.Source, r.Settings.Concurrency, r.Settings.Rounds, r.Settings.Duration)
	for _, s := range r.Sections {
		if err := printSection(w, s); err != nil {
			return err
		}
	}
	return printGoals(w, r.Sections)
}

// printSection writes one workload's table and notes.
func printSection(w io.Writer, s Section) error {
	fmt.Fprintf(w, "\n== %s\nratio = %s\n", s.Title, s.RatioOf)
	var mem, thr []Row
	for _, r := range s.Rows {
		if r.Per != "" || s.Kind == "memory" {
			mem = append(mem, r)
		} else {
			thr = append(thr, r)
		}
	}
	if err := printMemory(w, mem); err != nil {
		return err
	}
	if len(mem) > 0 && len(thr) > 0 {
		fmt.Fprintln(w)
	}
	if err := printThroughput(w, thr); err != nil {
		return err
	}
	for _, n := range s.Notes {
		fmt.Fprintln(w, "  -", n)
	}
	return nil
}

// printMemory writes the memory rows' table, if there are any.
func printMemory(w io.Writer, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	per := cmp.Or(rows[0].Per, "member")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "case\tvariant\tused_memory B/%[1]s\tdataset B/%[1]s\tMEMORY USAGE B/%[1]s\tratio\tgoal\t\n", per)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%.1f\t%.2f\t%s\t\n", r.Case, r.Variant,
			r.Extra[benchload.MemUsed], r.Extra[benchload.MemDataset], r.Extra[benchload.MemUsage], r.Ratio, goalCells(r.Goals))
	}
	return tw.Flush()
}

// printThroughput writes the throughput rows' table, if there are any.
func printThroughput(w io.Writer, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "case\tvariant\tops/s\tp50 µs\tp99 µs\tredis CPU µs/op\tratio\tgoal\textra\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.1f\t%.1f\t%.1f\t%.2f\t%s\t%s\t\n", r.Case, r.Variant,
			r.OpsPerSec, r.P50us, r.P99us, r.RedisCPUus, r.Ratio, goalCells(r.Goals), extraCell(r.Extra))
	}
	return tw.Flush()
}

// printGoals lists every goal with its verdict.
func printGoals(w io.Writer, secs []Section) error {
	fmt.Fprintln(w, "\n== Goals")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range secs {
		for _, g := range s.Goals {
			note := ""
			if g.Note != "" {
				note = " (" + g.Note + ")"
			}
			fmt.Fprintf(tw, "%s\t%.3f\t%s%s\n", g.Text, g.Value, g.verdict(), note)
		}
	}
	return tw.Flush()
}

// goalCells joins a row's goal cells.
func goalCells(gs []Goal) string {
	cells := make([]string, len(gs))
	for i, g := range gs {
		cells[i] = g.cell()
	}
	return strings.Join(cells, "; ")
}

// extraCell writes a row's extra figures, "retries=0.12 gave_up=0".
func extraCell(extra map[string]float64) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		parts = append(parts, fmt.Sprintf("%s=%.3g", k, extra[k]))
	}
	return strings.Join(parts, " ")
}

// orUnknown returns s, or "unknown CPU" when it is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown CPU"
	}
	return s
}
