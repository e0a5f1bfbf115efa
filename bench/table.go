package main

import (
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
	fmt.Fprintf(w, "tiebreak bench: %s, %d cores, %s %s/%s; Redis %s (%s); %d goroutines, %d rounds of %s\n",
		orUnknown(r.Machine.CPU), r.Machine.Cores, r.Machine.GoVersion, r.Machine.GOOS, r.Machine.GOARCH,
		r.Redis.Version, r.Redis.Source, r.Settings.Concurrency, r.Settings.Rounds, r.Settings.Duration)
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
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if s.Kind == "memory" {
		fmt.Fprintln(tw, "case\tvariant\tused_memory B/member\tdataset B/member\tMEMORY USAGE B/member\tratio\tgoal\t")
		for _, r := range s.Rows {
			fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%.1f\t%.2f\t%s\t\n", r.Case, r.Variant,
				r.Extra[benchload.MemUsed], r.Extra[benchload.MemDataset], r.Extra[benchload.MemUsage], r.Ratio, goalCells(r.Goals))
		}
	} else {
		fmt.Fprintln(tw, "case\tvariant\tops/s\tp50 µs\tp99 µs\tredis CPU µs/op\tratio\tgoal\textra\t")
		for _, r := range s.Rows {
			fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.1f\t%.1f\t%.1f\t%.2f\t%s\t%s\t\n", r.Case, r.Variant,
				r.OpsPerSec, r.P50us, r.P99us, r.RedisCPUus, r.Ratio, goalCells(r.Goals), extraCell(r.Extra))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range s.Notes {
		fmt.Fprintln(w, "  -", n)
	}
	return nil
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
