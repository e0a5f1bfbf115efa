// Package benchload holds tiebreak's benchmark workloads once: their data
// (the fixtures), their variants (tiebreak's calls and the baselines of
// internal/baseline, each on its own keys) and the goals they are held to.
// Two harnesses run them:
//
//   - the packages' Go benchmarks (go test -bench, one variant per
//     sub-benchmark, through internal/benchload/gobench), for before/after
//     figures compared with benchstat;
//   - the bench command (go run -C bench .), which measures the variants of a
//     comparison in interleaved rounds, divides within each round, checks
//     the goals and draws the chart.
//
// A workload is one file here: its parameters (flags, with the full and the
// quick value), the comparisons its fixture builds, its goals and the rows
// a run makes, registered from that file's init function. Every key a
// fixture writes starts with the Env's prefix and is deleted by Drop.
package benchload
