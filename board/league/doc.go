// Package league runs leagues over package board: each season, members
// compete in cohorts of at most a few dozen, in tiers (Bronze, Silver,
// Gold); at the season's end the best of each cohort go up a tier and the
// worst go down, for the next season.
//
// A member's first result of a season places it in a cohort of its tier
// that still has room, or opens a new one, in the same script as the
// result's write: exactly once, however many results race. A cohort is a
// board (package board) of a group, readable with every read of a board.
//
//	l, err := league.New(ctx, client, "arena", layout, board.Weekly(time.UTC), league.Options{})
//	season := l.At(time.Now())
//	res, err := season.Submit(ctx, board.Submission{ID: "ann", Values: []float64{120, 7}})
//	// res.Cohort.Tier, res.Cohort.Board.Around(ctx, "ann", 5), ...
//
// Roll ends a season: it closes it (no write of it is accepted after),
// computes each cohort's promotion and demotion zones and records each
// moved member's tier for the next season, each cohort exactly once,
// however many processes roll at once; cut short, it resumes where it
// stopped when called again. A member's first result of a later season
// rolls the season before it first, where no one did.
//
// # Storage
//
// Members are spread over Options.Partitions partitions by a hash of
// their id; each partition is one hash tag, {<league>~<p>}, holding its
// members' tiers, its seasons' placements and their cohort boards (named
// "<season>:<tier>:<n>" in the group "<league>~<p>"), so that every write
// is one script on one Redis Cluster slot, and a league spreads over the
// slots of its partitions:
//
//	tb:{arena}:league               HASH: the league's descriptor (JSON)
//	tb:{arena~0}:league             HASH: last, laststart, closed:<season>, rolled:<season>
//	tb:{arena~0}:tiers              HASH id -> tier (1 = lowest) of its next placement
//	tb:{arena~0}:seasons            ZSET: the seasons placed in, by start
//	tb:{arena~0}:<season>:placed    HASH id -> "tier:n"
//	tb:{arena~0}:<season>:cohorts   HASH tier -> cohorts; "tier:n" -> members
//	tb:{arena~0}:<season>:rolled    HASH "tier:n" -> 1, each cohort rolled
//	tb:{arena~0}:{<season>:gold:3}:z   a cohort board's keys (package board)
//
// Write through the league only: a write to a cohort's board directly
// bypasses the placement and the season's closing.
package league
