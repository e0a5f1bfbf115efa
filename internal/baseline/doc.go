// Package seeds holds the hand-written schemes of the seed posts (see
// ../shared/SEEDS.md) that tiebreak is measured against: seed 000's
// two-level index for decimal keys and seed 001's rate-limit script. They
// are baselines, written as the posts wrote them, bugs included; nothing
// but benchmarks (the bench command and the packages' own) uses them.
package seeds
